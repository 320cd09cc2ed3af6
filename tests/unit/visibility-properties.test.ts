// Properties of the visibility analysis over generated answers (fast-check): the figures add up,
// every interval holds its figure, shares of voice sum to 1, and every mention's offsets slice the
// stored answer to the name or alias it matched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeVisibilityAnalysis, type Entity, type VisibilityRunInput } from "@/lib/visibility";

const ENTITIES: Entity[] = [
  { name: "HubSpot", role: "brand", aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor", aliases: ["Pipedrive CRM"], domains: ["pipedrive.com"], case_sensitive: false },
  { name: "Monday", role: "competitor", aliases: ["monday.com"], domains: ["monday.com"], case_sensitive: true },
  { name: "Café Crème", role: "competitor", aliases: ["CC"], domains: ["cafe.fr"], case_sensitive: false },
];

const piece = fc.oneof(
  fc.constantFrom("HubSpot", "hubspot", "HUBSPOT CRM", "Pipedrive", "pipedrive crm", "Monday", "monday", "monday.com", "Café Crème", "CAFÉ CRÈME", "Cafe\u0301 Cre\u0300me", "CC", "cc"),
  fc.constantFrom("the", "best", "crm", "for", "teams", "is", "not", "I couldn't find any information about", "price", "🚀", "日本では", "「", "」", "pipedrive vs hubspot"),
  fc.constantFrom(". ", ", ", "! ", "? ", "\n", "\n1. ", "\n2. ", "\n- ", "\n\n", '"', " ", "。"),
);
const answer = fc.array(piece, { minLength: 0, maxLength: 40 }).map((parts) => parts.join(" "));
const runArb = fc.record({
  engine: fc.constantFrom("chatgpt", "claude", "gemini"),
  country: fc.constantFrom("US", "DE", null),
  prompt: fc.constantFrom("pipedrive vs hubspot", "best crm", "Monday or HubSpot? [[sim:answer:eA]]"),
  answer,
  search_queries: fc.subarray(["hubspot crm pricing", "best crm 2026", "monday.com review"]),
  cited_urls: fc.subarray(["https://www.hubspot.com/a", "https://pipedrive.com/b", "https://monday.com/c", "https://example.com/d", "https://notmonday.com/e"]),
});

const runsArb = fc.array(runArb, { minLength: 0, maxLength: 12 }).map((runs) =>
  runs.map((r, i): VisibilityRunInput => ({ ...r, run_id: `dr_${i}`, status: "completed", kind: "prompt" })),
);

const inside = (x: number, [low, high]: [number, number]) => low <= x + 1e-9 && x <= high + 1e-9;

describe("visibility analysis properties", () => {
  it("figures add up, intervals hold their figures, shares sum to 1", () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        const a = computeVisibilityAnalysis(runs, { entities: ENTITIES });
        expect(a.totals.runs).toBe(runs.filter((r) => (r.answer ?? "").trim() !== "").length);
        expect(a.totals.mentions).toBe(a.mentions.length);
        expect(a.totals.mentions_not_counted.prompt_echo + a.totals.mentions_not_counted.absence + (a.totals.mentions_not_counted.link ?? 0)).toBe(a.mentions.filter((m) => !m.counted).length);
        const basis = a.rows.reduce((s, r) => s + r.runs_mentioning, 0);
        for (const r of a.rows) {
          for (const g of [r, ...r.by_engine, ...r.by_prompt, ...r.by_country]) {
            expect(g.mentioned_and_cited + g.mentioned_not_cited).toBe(g.runs_mentioning);
            expect(g.mentioned_and_cited + g.cited_not_mentioned).toBe(g.runs_citing);
            expect(Object.values(g.position_counts).reduce((s, n) => s + n, 0)).toBe(g.runs_mentioning);
            expect(g.runs_top1).toBeLessThanOrEqual(g.runs_top3);
            expect(g.runs_top3).toBeLessThanOrEqual(g.runs_mentioning);
            expect(g.runs_mentioning).toBeLessThanOrEqual(g.runs);
            expect(inside(g.visibility, g.visibility_interval)).toBe(true);
            expect(inside(g.top1_rate, g.top1_rate_interval)).toBe(true);
            expect(inside(g.top3_rate, g.top3_rate_interval)).toBe(true);
            expect(inside(g.cited_rate, g.cited_rate_interval)).toBe(true);
            expect(inside(g.prominence, g.prominence_interval)).toBe(true);
            if (g.average_position === null) expect(g.average_position_interval).toBeNull();
            else expect(inside(g.average_position, g.average_position_interval!)).toBe(true);
          }
          // Groups partition the runs.
          for (const groups of [r.by_engine, r.by_prompt, r.by_country]) {
            expect(groups.reduce((s, g) => s + g.runs, 0)).toBe(r.runs);
            expect(groups.reduce((s, g) => s + g.runs_mentioning, 0)).toBe(r.runs_mentioning);
            expect(groups.reduce((s, g) => s + g.mentions, 0)).toBe(r.mentions);
          }
          expect(r.mentions).toBe(a.mentions.filter((m) => m.counted && m.entity === r.name).length);
          expect(r.share_of_voice_n).toBe(basis);
        }
        if (basis > 0) {
          const shares = a.rows.map((r) => r.share_of_voice!);
          expect(Math.abs(shares.reduce((s, x) => s + x, 0) - 1)).toBeLessThanOrEqual(0.00005 * a.rows.length);
          // Unrounded: exactly 1.
          expect(a.rows.reduce((s, r) => s + r.runs_mentioning / r.share_of_voice_n, 0)).toBeCloseTo(1, 12);
        } else expect(a.rows.every((r) => r.share_of_voice === null)).toBe(true);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it("offsets slice the stored answer to the name or alias matched", () => {
    fc.assert(
      fc.property(runsArb, fc.boolean(), (runs, decompose) => {
        const stored = runs.map((r) => ({ ...r, answer: decompose ? (r.answer ?? "").normalize("NFD") : r.answer }));
        const a = computeVisibilityAnalysis(stored, { entities: ENTITIES });
        const byId = new Map(stored.map((r) => [r.run_id, r.answer]));
        for (const m of a.mentions) {
          const text = byId.get(m.run_id)!.slice(m.start, m.end).normalize("NFC").replace(/\s+/gu, " ");
          const entity = ENTITIES.find((e) => e.name === m.entity)!;
          const alias = m.alias.normalize("NFC");
          if (entity.case_sensitive) expect(text).toBe(alias);
          else expect(text.toLowerCase()).toBe(alias.toLowerCase());
          expect(m.sentence.length).toBeLessThanOrEqual(300);
        }
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});
