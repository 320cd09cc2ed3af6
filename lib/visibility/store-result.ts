// How a visibility analysis's figures are kept in its row (docs/decisions.md "By-prompt rows kept
// once"). A completed analysis is stored with its body, the API's JSON of it, which GET sends as
// it is; its `result` then keeps everything SQL and the other readers use (entities, run ids,
// totals, every row's overall, by-engine and by-country figures) but the rows' `by_prompt`, most
// of its bytes, which the body already holds: `prompts_in_body` says so. A completed analysis
// nobody waits for (a monitor tick's) is stored without a body, its by-prompt groups as their sums
// (`prompt_sums`), and presented when it is first read. Any other analysis (a judged one, queued
// without a body) keeps all its figures in `result`. Pure: no database.
import type { EntityFigures } from "../schemas/visibility";
import type { PromptSums, StoredEntityVisibility, StoredVisibilityFigures } from "./analysis";
import { figuresFromSums } from "./figures";

/** A row of analyses.result as stored: the figures, by_prompt apart when `prompts_in_body`. */
export type StoredVisibilityResult = Omit<StoredVisibilityFigures, "rows"> & {
  rows: (Omit<StoredEntityVisibility, "by_prompt"> & { by_prompt?: StoredEntityVisibility["by_prompt"] })[];
  /** The rows' by_prompt are in the row's body alone (its rows[e].by_prompt, as the API shows them). */
  prompts_in_body?: true;
  /**
   * The by-prompt groups as their sums, in by_prompt order, as one JSON text of
   * `[prompt, runs, ...sums]` (./figures.ts groupSums): the rows' by_prompt are made from them when
   * the analysis is read. Text inside the jsonb, so that PostgreSQL does not parse the tens of
   * thousands of numbers nothing in SQL reads.
   */
  prompt_sums?: string;
};

/** The result of an analysis stored with its body: the figures without the rows' by_prompt, as JSON text. */
export function resultBesideBody(figures: StoredVisibilityFigures): string {
  const stored: StoredVisibilityResult = { ...figures, rows: figures.rows.map(({ by_prompt: _, ...row }) => row), prompts_in_body: true };
  return JSON.stringify(stored);
}

/** The result of an analysis stored without a body: the figures without the rows' by_prompt, and the prompts' sums they are made from, as JSON text. */
export function resultWithPromptSums(figures: StoredVisibilityFigures, promptSums: PromptSums): string {
  const stored: StoredVisibilityResult = {
    ...figures,
    rows: figures.rows.map(({ by_prompt: _, ...row }) => row),
    prompt_sums: JSON.stringify(promptSums.map((g) => [g.prompt, g.runs, ...g.sums])),
  };
  return JSON.stringify(stored);
}

/**
 * The figures of a stored analysis: its result, with the rows' by_prompt made from its prompts'
 * sums when it keeps them (`prompt_sums`), or taken from `body` when
 * the result keeps them there. Throws when they are there and the body was not read (a caller's
 * bug: the CHECK analyses_prompts_in_body keeps such a row from losing its body).
 */
export function figuresOfRow(id: string, result: StoredVisibilityResult, body: string | null): StoredVisibilityFigures {
  if (result.prompt_sums !== undefined) {
    const E = result.rows.length;
    const groups = (JSON.parse(result.prompt_sums) as [string, number, ...number[]][]).map(([prompt, runs, ...sums]) => ({ prompt, figures: figuresFromSums(E, runs, sums) }));
    const { prompt_sums: _, ...rest } = result;
    return { ...rest, rows: result.rows.map((row, e) => ({ ...row, by_prompt: groups.map((g) => ({ prompt: g.prompt, ...g.figures[e]! })) })) };
  }
  if (!result.prompts_in_body) return result as StoredVisibilityFigures;
  if (body === null) throw new Error(`analysis ${id}: its by_prompt rows are kept in its body, which was not read`);
  const shown = JSON.parse(body) as { rows: { by_prompt: (EntityFigures & { prompt: string })[] }[] };
  const { prompts_in_body: _, ...rest } = result;
  return { ...rest, rows: result.rows.map((row, e) => ({ ...row, by_prompt: shown.rows[e]!.by_prompt })) };
}
