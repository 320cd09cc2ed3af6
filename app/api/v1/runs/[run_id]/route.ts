import { route } from "@/lib/http/route";
import { getRunBody } from "@/lib/runs/read";
import * as endpoints from "@/lib/schemas/runs";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.getRun, ({ principal, params, query, request }) =>
  getRunBody(principal, params.run_id, { wait: query.wait, include: query.include, signal: request.signal }),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
