import { getFanoutBody } from "@/lib/fanouts/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/fanouts";

export const GET = route(endpoints.getFanout, ({ principal, params, query, request }) =>
  getFanoutBody(principal, params.fanout_id, { wait: query.wait, signal: request.signal }),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
