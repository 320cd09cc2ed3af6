import { listAnalyses } from "@/lib/analyses/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/analyses";

export const GET = route(endpoints.listAnalyses, ({ principal, query }) => listAnalyses(principal, query));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
