import { route } from "@/lib/http/route";
import { getBatchBody } from "@/lib/runs/read";
import * as endpoints from "@/lib/schemas/runs";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.getBatch, ({ principal, params, query, request }) =>
  getBatchBody(principal, params.batch_id, { wait: query.wait, signal: request.signal }),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
