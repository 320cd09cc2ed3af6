import { getAnalysisBody } from "@/lib/analyses/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/analyses";

export const GET = route(endpoints.getAnalysis, ({ principal, params, query, request }) =>
  getAnalysisBody(principal, params.analysis_id, { wait: query.wait, signal: request.signal }),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
