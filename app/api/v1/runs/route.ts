import { route } from "@/lib/http/route";
import { listRuns } from "@/lib/runs/runs";
import * as endpoints from "@/lib/schemas/runs";

export const GET = route(endpoints.listRuns, ({ principal, query, request }) => listRuns(principal, query, { signal: request.signal }));
