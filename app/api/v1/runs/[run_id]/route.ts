import { route } from "@/lib/http/route";
import { getRun } from "@/lib/runs/runs";
import * as endpoints from "@/lib/schemas/runs";

export const GET = route(endpoints.getRun, ({ principal, params, query, request }) =>
  getRun(principal, params.run_id, { wait: query.wait, signal: request.signal }),
);
