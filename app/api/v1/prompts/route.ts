import { route } from "@/lib/http/route";
import { createPromptBatch } from "@/lib/runs/prompts";
import * as endpoints from "@/lib/schemas/runs";

export const POST = route(endpoints.createPrompt, ({ principal, body }) => createPromptBatch(principal, body));
