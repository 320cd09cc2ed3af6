import { route } from "@/lib/http/route";
import { getBatch } from "@/lib/runs/batches";
import * as endpoints from "@/lib/schemas/runs";

export const GET = route(endpoints.getBatch, ({ principal, params, query, request }) =>
  getBatch(principal, params.batch_id, { wait: query.wait, signal: request.signal }),
);
