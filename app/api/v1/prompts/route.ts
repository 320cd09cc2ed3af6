import { route } from "@/lib/http/route";
import { createPromptBatch } from "@/lib/runs/create";
import * as endpoints from "@/lib/schemas/runs";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(endpoints.createPrompt, ({ principal, body }) => createPromptBatch(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
