import { route } from "@/lib/http/route";
import { listRunsBody } from "@/lib/runs/read";
import * as endpoints from "@/lib/schemas/runs";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listRuns, ({ principal, query, request }) => listRunsBody(principal, query, { signal: request.signal }));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
