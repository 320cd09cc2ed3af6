// A completed visibility analysis's figures with every row's by_prompt back in its result, as
// analyses stored before kept them (lib/visibility/store-result.ts keeps them in the body alone,
// or as the prompts' sums):
// what a test writes to change the row by hand, the body then dropped and the row presented again
// from its figures.
import { db } from "@/lib/db/client";
import { figuresOfRow, type StoredVisibilityResult } from "@/lib/visibility/store-result";

type Stored = { prompts_in_body?: true; prompt_sums?: string; rows: object[] } & Record<string, unknown>;

/** The stored result `result` with the rows' by_prompt taken from the API's body `body` (text or parsed). */
export function withPromptRows(result: Stored, body: string | { rows: { by_prompt: unknown }[] }): Record<string, unknown> {
  const shown = typeof body === "string" ? (JSON.parse(body) as { rows: { by_prompt: unknown }[] }) : body;
  const { prompts_in_body: _, ...rest } = result;
  return { ...rest, rows: rest.rows.map((row, e) => ({ ...row, by_prompt: shown.rows[e]!.by_prompt })) };
}

/** The analysis `id`'s result with every figure in it (its row read now). */
export async function everyFigure(id: string): Promise<Record<string, unknown>> {
  const row = await db().analysis.findUniqueOrThrow({ where: { id }, select: { result: true, body: true } });
  const result = row.result as Stored;
  if (result.prompt_sums !== undefined) return figuresOfRow(id, result as unknown as StoredVisibilityResult, null) as unknown as Record<string, unknown>;
  return result.prompts_in_body ? withPromptRows(result, row.body!) : result;
}
