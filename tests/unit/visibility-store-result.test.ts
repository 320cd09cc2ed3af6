// How a completed visibility analysis keeps its figures in its row (lib/visibility/store-result.ts):
// the by-prompt rows in its body alone, and every figure presented again from the row as POST
// presented it.
import { describe, expect, it } from "vitest";
import { computeVisibility, normalizeEntity, type VisibilityRunInput } from "@/lib/visibility";
import { assembleVisibility, observeVisibility } from "@/lib/visibility/analysis";
import { presentVisibilityAnalysis } from "@/lib/visibility/present";
import { figuresOfRow, resultBesideBody, resultWithPromptSums, type StoredVisibilityResult } from "@/lib/visibility/store-result";

const entities = [
  { name: "HubSpot", role: "brand" as const, aliases: [], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor" as const, aliases: [], domains: [], case_sensitive: false },
].map(normalizeEntity);

const run = (i: number, prompt: string, answer: string): VisibilityRunInput => ({
  run_id: `run_${i}`, engine: i % 2 ? "chatgpt" : "claude", country: null, prompt, status: "completed", kind: "prompt", answer, search_queries: [], cited_urls: [],
});

const runs = [
  run(1, "best crm for startups", "1. HubSpot is free to start.\n2. Pipedrive suits sales teams."),
  run(2, "best crm for startups", "Pipedrive first, then HubSpot."),
  run(3, "cheapest crm", "Zoho is cheapest; HubSpot has a free plan."),
  run(4, "cheapest crm", "Nothing here names them."),
];

const rowOf = (result: unknown, promptRows: string | null) => ({
  id: "va_1", status: "completed" as const, subject: "Visibility", createdAt: new Date("2026-11-29T12:00:00Z"), completedAt: new Date("2026-11-29T12:00:00Z"),
  projectId: "pj_1", createdBy: { email: "a@example.com" }, result, error: null, promptRows,
});

describe("a completed visibility analysis's figures in its row", () => {
  const { figures } = computeVisibility(runs, { entities });
  const body = JSON.stringify(presentVisibilityAnalysis(rowOf(figures, null)));
  // What the row's jsonb gives back: the text parsed again (key order aside, which the presenter restores).
  const stored = JSON.parse(resultBesideBody(figures)) as StoredVisibilityResult;

  it("keeps every figure but the rows' by_prompt, and says where those are", () => {
    expect(figures.rows.every((r) => r.by_prompt.length === 2)).toBe(true);
    expect(stored.prompts_in_body).toBe(true);
    expect(stored.rows.every((r) => r.by_prompt === undefined)).toBe(true);
    const { rows, prompts_in_body: _, ...rest } = stored;
    const { rows: computedRows, ...computedRest } = figures;
    expect(rest).toEqual(JSON.parse(JSON.stringify(computedRest)));
    expect(rows).toEqual(JSON.parse(JSON.stringify(computedRows.map(({ by_prompt: _, ...r }) => r))));
    expect(resultBesideBody(figures).length).toBeLessThan(JSON.stringify(figures).length);
  });

  it("is presented again from the row and its body byte for byte as it was presented from the figures", () => {
    expect(JSON.stringify(presentVisibilityAnalysis(rowOf(stored, body)))).toBe(body);
    expect(figuresOfRow("va_1", stored, body).rows.map((r) => r.by_prompt.map((g) => [g.prompt, g.runs, g.runs_mentioning]))).toEqual([
      [["best crm for startups", 2, 2], ["cheapest crm", 2, 1]],
      [["best crm for startups", 2, 2], ["cheapest crm", 2, 0]],
    ]);
  });

  it("refuses to present such a row without its body rather than show no by-prompt rows", () => {
    expect(() => presentVisibilityAnalysis(rowOf(stored, null))).toThrow(/va_1: its by_prompt rows are kept in its body/);
  });

  it("reads a result stored with every figure (before, or a judged analysis) as it is, without a body", () => {
    const full = JSON.parse(JSON.stringify(figures)) as StoredVisibilityResult;
    expect(JSON.stringify(presentVisibilityAnalysis(rowOf(full, null)))).toBe(body);
  });

  it("kept as the prompts' sums (a tick's, stored without a body), is presented when read byte for byte as it was from the figures", () => {
    const lazy = assembleVisibility(observeVisibility(runs, { entities }), { promptsAsSums: true });
    expect(lazy.figures.rows.every((r) => r.by_prompt.length === 0)).toBe(true);
    expect(lazy.promptSums.map((g) => [g.prompt, g.runs])).toEqual([["best crm for startups", 2], ["cheapest crm", 2]]);
    const kept = JSON.parse(resultWithPromptSums(lazy.figures, lazy.promptSums)) as StoredVisibilityResult;
    expect(typeof kept.prompt_sums).toBe("string");
    expect(kept.rows.every((r) => r.by_prompt === undefined)).toBe(true);
    expect(JSON.stringify(presentVisibilityAnalysis(rowOf(kept, null)))).toBe(body);
    // The same figures, to the last digit (key order aside, which the presenter restores).
    expect(figuresOfRow("va_1", kept, null)).toEqual(JSON.parse(JSON.stringify(figures)));
  });
});
