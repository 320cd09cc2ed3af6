import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createQuestionsAnalysis } from "@/lib/questions/create";
import * as endpoints from "@/lib/schemas/questions";

export const POST = route(endpoints.createQuestions, ({ principal, body }) => createQuestionsAnalysis(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
