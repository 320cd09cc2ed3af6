import { createComparisonAnalysisBody } from "@/lib/comparison/create";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/comparison";

export const POST = route(endpoints.createComparisonAnalysis, ({ principal, body }) => createComparisonAnalysisBody(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
