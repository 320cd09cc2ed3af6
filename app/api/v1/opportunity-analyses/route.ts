import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/opportunities";
import { createOpportunityAnalysisBody } from "@/lib/opportunities/create";

export const POST = route(endpoints.createOpportunityAnalysis, ({ principal, body }) => createOpportunityAnalysisBody(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
