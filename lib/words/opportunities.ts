// An opportunity list's summary (decisions.md "Opportunities", "Plain words beside every figure"),
// from the figures it states: how many prompts competitors win beyond chance, the widest gap with
// its interval, the page most cited where a competitor is named and the brand is not, how often
// the brand's own pages are cited without the brand being named, and the search engines ran most
// on the lost prompts. Fixed templates, no model; computed when the list is presented, so GET
// answers what POST did.
//
// It reads the list's own fields (lib/schemas/opportunities.ts), declared here by what it reads:
// the schema's example is worded by it.
import { count, countOf, counted, engineName, listed, points, pointsRange } from "./format";
import { rateFigure, summaryOf, type Summary } from "./sentences";

type Rate = { runs_mentioning: number; visibility_interval: readonly [number, number] };

/** What the summary reads of an opportunity list (OpportunityAnalysis's fields of these names). */
export type OpportunityFacts = {
  brand: string;
  brand_domains: readonly string[];
  totals: { runs: number; prompts: number; lost_runs: number; target_runs: number; own_runs_citing: number; own_cited_not_mentioned: number };
  lost_prompts: ReadonlyArray<{ prompt: string; n: number; brand: Rate; competitor: Rate & { name: string }; diff: number; diff_interval: readonly [number, number] }>;
  citation_targets: ReadonlyArray<{ url: string; owner?: string | null; runs_citing: number; n: number; competitors: ReadonlyArray<{ name: string }> }>;
  query_gaps: ReadonlyArray<{ query: string; engine: string; runs: number; n: number }>;
};

/** A prompt as a sentence quotes it: its first 80 characters. */
export function quotedPrompt(prompt: string): string {
  const text = prompt.replace(/\[\[sim:[^\]]*\]\]/g, "").replace(/\s+/g, " ").trim();
  return `“${text.length > 80 ? `${text.slice(0, 79).trimEnd()}…` : text}”`;
}

type LostPrompt = OpportunityFacts["lost_prompts"][number];
type CitationTarget = OpportunityFacts["citation_targets"][number];

/** A lost prompt in one sentence: the competitor's rate and the brand's on it, the gap with its interval. */
export function lostPromptSentence(brand: string, l: LostPrompt): string {
  return (
    `On ${quotedPrompt(l.prompt)}, ${l.competitor.name} is named in ${countOf(l.competitor.runs_mentioning, l.n, "answer")} ` +
    `(${rateFigure({ k: l.competitor.runs_mentioning, n: l.n, interval: l.competitor.visibility_interval })}) and ${brand} in ${l.brand.runs_mentioning} ` +
    `(${rateFigure({ k: l.brand.runs_mentioning, n: l.n, interval: l.brand.visibility_interval }, false)}): ${points(l.diff)} (95% interval ${pointsRange(l.diff_interval)}).`
  );
}

/** A citation target in one sentence: the page, how many of the answers that name a competitor and not the brand cite it, and who they name. */
export function citationTargetSentence(brand: string, t: CitationTarget): string {
  const named = t.competitors.map((c) => c.name).slice(0, 3);
  return `${t.url}${t.owner ? ` (${t.owner}'s own page)` : ""} is cited in ${countOf(t.runs_citing, t.n, "answer")} of the lost prompts that name a competitor and not ${brand}${named.length ? ` (with ${listed(named)} named)` : ""}.`;
}

/** The lead sentence: on how many prompts competitors are named more often than the brand beyond chance. */
export function lostPromptsLead(a: Pick<OpportunityFacts, "brand" | "totals" | "lost_prompts">): string {
  const t = a.totals;
  return a.lost_prompts.length === 0
    ? `No competitor is named more often than ${a.brand} on any of the ${counted(t.prompts, "prompt")} beyond what chance explains (${counted(t.runs, "answer")}).`
    : `Competitors are named more often than ${a.brand}, beyond what chance explains, on ${countOf(a.lost_prompts.length, t.prompts, "prompt")} (${counted(t.lost_runs, "answer")}).`;
}

export function opportunitySummary(a: OpportunityFacts): Summary {
  const t = a.totals;
  if (t.runs === 0) return summaryOf("No answer of the visibility analysis could be counted, so there is nothing to compare.");
  const top = a.lost_prompts[0];
  const lead = lostPromptsLead(a);
  const widest = top && lostPromptSentence(a.brand, top);
  // The page to seek a citation on: the most cited one that no competitor owns (a competitor's own
  // page is said as such only when every target is one).
  const target = a.citation_targets.find((c) => !c.owner) ?? a.citation_targets[0];
  const where = target?.owner ? `${target.url}, ${target.owner}'s own page` : target?.url;
  const targets =
    target &&
    `In the ${counted(t.target_runs, "answer")} of those prompts that name a competitor and not ${a.brand}, the page cited most${target.owner || target === a.citation_targets[0] ? "" : " that no competitor owns"} is ${where} ` +
      `(${count(target.runs_citing, target.n)}, with ${target.competitors.map((c) => c.name).slice(0, 3).join(", ")} named).`;
  const own =
    a.brand_domains.length === 0
      ? `${a.brand} has no domain tracked, so its own pages cannot be told apart: give its domains to the visibility analysis.`
      : t.own_runs_citing === 0
        ? `${t.runs === 1 ? "The one answer cites no" : `None of the ${t.runs} answers cites a`} page of ${a.brand}'s own (${a.brand_domains.join(", ")}).`
        : `${a.brand}'s own pages are cited in ${countOf(t.own_runs_citing, t.runs, "answer")}; ` +
          `${t.own_cited_not_mentioned} of those ${t.own_runs_citing === 1 ? "does" : "do"} not name ${a.brand}.`;
  const gap = a.query_gaps[0];
  const queries = gap && `On the prompts lost, the search run most often is “${gap.query}” (${engineName(gap.engine)}, ${countOf(gap.runs, gap.n, "answer")}).`;
  return summaryOf(lead, widest, targets, own, queries);
}
