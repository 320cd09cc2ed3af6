// A comparison analysis (decisions.md "Comparison analyses", method `comparison-v1`) as one pure
// function over plain run values: no database, no clock. The runs are read for mentions by the
// visibility analysis's own reader (lib/visibility: one matcher, the same guards), then the two
// engines' answers to the same prompts are set side by side. The service feeds it what it read of
// the stored runs; the tests feed it answers whose every figure is known.
import { getDomain } from "tldts";
import { hostOf, sortRuns } from "../analyses/citations";
import { ENGINE_FACTS } from "../schemas/engines";
import type { ComparisonExclusionReason } from "../schemas/comparison";
import { ONLY_DOMAINS, RBO_P } from "../schemas/comparison";
import { newcombeInterval, rankBiasedOverlap, rateOf, round4, tMeanInterval } from "../stats";
import { normalizeEntity, type Entity } from "../visibility/entities";
import { observeRange } from "../visibility/analysis";
import type { Observations, VisibilityRunInput } from "../visibility/observe";

export const COMPARISON_METHOD = "comparison-v1";

/** A run as the comparison reads it: a visibility run input, and whether the engine showed an answer at all. */
export type ComparisonRunInput = VisibilityRunInput & {
  /** false when the surface showed no answer (Google showing no AI Overview); null or absent otherwise. */
  shown?: boolean | null;
};

type Side = { runs: number; runs_mentioning: number; visibility: number; visibility_interval: [number, number] };

/** What a comparison stores as its figures: everything its API body shows but the row's own fields and the summary. */
export type StoredComparisonFigures = {
  method: typeof COMPARISON_METHOD;
  a: string;
  b: string;
  confidence: number;
  entities: Entity[];
  run_ids: string[];
  excluded_runs: { run_id: string; reason: ComparisonExclusionReason }[];
  excluded_prompts: { prompt: string; engine: string; runs: number }[];
  prompts_compared: number;
  rows: { name: string; role: Entity["role"]; a: Side; b: Side; diff: number; diff_interval: [number, number]; significant: boolean }[];
  sources: { jaccard: number | null; jaccard_interval: [number, number] | null; prompts: number; only_a: { domain: string; runs_citing: number }[]; only_b: { domain: string; runs_citing: number }[] };
  searches: { overlap: number | null; overlap_interval: [number, number] | null; prompts: number } | null;
  order: { rbo: number | null; rbo_interval: [number, number] | null; prompts: number; pairs: number };
  by_prompt: {
    prompt: string;
    runs_a: number;
    runs_b: number;
    jaccard: number | null;
    query_overlap: number | null;
    rbo: number | null;
    entities: { name: string; a: number; b: number; diff: number }[];
  }[];
};

const DIRECTIVE = /\s*\[\[sim:[^\]]*\]\]\s*/g;

/** A prompt as comparisons match it: its text less any [[sim:…]] directive (not prompt text), trimmed. */
export function comparedPrompt(prompt: string): string {
  return prompt.replace(DIRECTIVE, " ").trim();
}

/** A search query as compared: lower-cased, spaces collapsed. */
export function comparedQuery(query: string): string {
  return query.toLowerCase().replace(/\s+/gu, " ").trim();
}

/** A cited URL's registrable domain (www.g2.com and g2.com are g2.com); its host when it has none (localhost, an address). */
export function registrableDomainOf(url: string): string | null {
  const host = hostOf(url);
  if (host === "") return null;
  return getDomain(host) ?? host;
}

/** Whether an engine tells which searches it ran (GET /engines reports_queries); unknown ids do not. */
export function reportsQueries(engine: string): boolean {
  return (ENGINE_FACTS as Record<string, { reports_queries: boolean } | undefined>)[engine]?.reports_queries ?? false;
}

/** A mean of values in 0..1 with its t interval, both rounded to 4 places; null and null over none. */
function meanOf(values: readonly number[]): { value: number | null; interval: [number, number] | null } {
  if (values.length === 0) return { value: null, interval: null };
  let sum = 0;
  let squares = 0;
  for (const v of values) {
    sum += v;
    squares += v * v;
  }
  const interval = tMeanInterval(values.length, sum, squares, [0, 1])!;
  return { value: round4(sum / values.length), interval: [round4(interval[0]), round4(interval[1])] };
}

/** The domains cited most by one side and never by the other, by runs citing then name. */
function onlyOn(mine: Map<string, number>, theirs: Map<string, number>): { domain: string; runs_citing: number }[] {
  return [...mine]
    .filter(([domain]) => !theirs.has(domain))
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .slice(0, ONLY_DOMAINS)
    .map(([domain, runs_citing]) => ({ domain, runs_citing }));
}

/**
 * Every figure of a ComparisonAnalysis of engines `a` and `b` from the runs the ids named (in
 * order, repeats included) and the entities (in the order given).
 */
export function computeComparison(
  named: readonly ComparisonRunInput[],
  options: {
    a: string;
    b: string;
    entities: readonly Entity[];
    /** Whether a run has an answer (default: its text has one; a kept reading knows without the text). */
    answered?: (run: ComparisonRunInput) => boolean;
    /** The runs read for the (normalised) entities (default: read now; the service adds kept readings). */
    observe?: (runs: readonly ComparisonRunInput[], entities: readonly Entity[]) => Observations;
  },
): StoredComparisonFigures {
  const { a, b } = options;
  const entities = options.entities.map(normalizeEntity);
  const E = entities.length;
  const answered = options.answered ?? ((run: ComparisonRunInput) => !(run.answer === null || run.answer.trim() === ""));
  // A run of neither engine is left out as such, whatever its answer (its answer is not read).
  const sorted = sortRuns(named, (run): ComparisonExclusionReason | null =>
    run.engine !== a && run.engine !== b ? "other_engine" : run.shown === false || !answered(run) ? "no_answer" : null,
  );
  const excluded: { run_id: string; reason: ComparisonExclusionReason }[] = [...sorted.excluded];

  // The answered runs of a and b by prompt, prompts in the order first named.
  type Prompt = { text: string; a: ComparisonRunInput[]; b: ComparisonRunInput[] };
  const prompts = new Map<string, Prompt>();
  for (const run of sorted.runs) {
    const side = run.engine === a ? "a" : "b";
    const text = comparedPrompt(run.prompt);
    let p = prompts.get(text);
    if (p === undefined) prompts.set(text, (p = { text, a: [], b: [] }));
    p[side].push(run);
  }
  const compared: Prompt[] = [];
  const excludedPrompts: StoredComparisonFigures["excluded_prompts"] = [];
  for (const p of prompts.values()) {
    if (p.a.length > 0 && p.b.length > 0) {
      compared.push(p);
      continue;
    }
    const one = p.a.length > 0 ? p.a : p.b;
    excludedPrompts.push({ prompt: p.text, engine: p.a.length > 0 ? a : b, runs: one.length });
    for (const run of one) excluded.push({ run_id: run.run_id, reason: "one_engine_only" });
  }
  const place = new Map(sorted.runIds.map((id, i) => [id, i]));
  // Each run once in run_ids; a duplicate is listed where it was named again, after its first.
  excluded.sort((x, y) => place.get(x.run_id)! - place.get(y.run_id)! || (x.reason === "duplicate" ? 1 : 0) - (y.reason === "duplicate" ? 1 : 0));

  // Every compared run read once, a's then b's of each prompt in turn.
  const runs: ComparisonRunInput[] = [];
  const spans: { aFrom: number; bFrom: number; to: number }[] = [];
  for (const p of compared) {
    const aFrom = runs.length;
    runs.push(...p.a);
    const bFrom = runs.length;
    runs.push(...p.b);
    spans.push({ aFrom, bFrom, to: runs.length });
  }
  const obs = options.observe ? options.observe(runs, entities) : observeRange(runs, entities).obs;

  // Each run's first-mention order of the entities (their indices), as a key for the pairs' cache.
  const orderOf = (r: number): number[] => {
    const named: number[] = [];
    for (let e = 0; e < E; e++) if (obs.position[r * E + e]! > 0) named.push(e);
    return named.sort((x, y) => obs.position[r * E + x]! - obs.position[r * E + y]!);
  };
  const rboCache = new Map<string, number>();
  // Answers cite the same pages and repeat the same searches: each spelling read once.
  const domainOf = new Map<string, string | null>();
  const queryOf = new Map<string, string>();

  const totalA = new Int32Array(E);
  const totalB = new Int32Array(E);
  let runsA = 0;
  let runsB = 0;
  const citedByA = new Map<string, number>();
  const citedByB = new Map<string, number>();
  const searchesCompared = reportsQueries(a) && reportsQueries(b);
  const jaccards: number[] = [];
  const overlaps: number[] = [];
  const rbos: number[] = [];
  let pairsTotal = 0;

  const byPrompt: StoredComparisonFigures["by_prompt"] = compared.map((p, i) => {
    const { aFrom, bFrom, to } = spans[i]!;
    const mentioningA = new Int32Array(E);
    const mentioningB = new Int32Array(E);
    const domainsA = new Set<string>();
    const domainsB = new Set<string>();
    const queriesA = new Set<string>();
    const queriesB = new Set<string>();
    const ordersA = new Map<string, { order: number[]; runs: number }>();
    const ordersB = new Map<string, { order: number[]; runs: number }>();
    for (let r = aFrom; r < to; r++) {
      const onA = r < bFrom;
      const mentioning = onA ? mentioningA : mentioningB;
      for (let e = 0; e < E; e++) if (obs.mentioned[r * E + e] === 1) mentioning[e]!++;
      const runDomains = new Set<string>();
      for (const url of runs[r]!.cited_urls) {
        let domain = domainOf.get(url);
        if (domain === undefined) domainOf.set(url, (domain = registrableDomainOf(url)));
        if (domain !== null) runDomains.add(domain);
      }
      const domains = onA ? domainsA : domainsB;
      const citedBy = onA ? citedByA : citedByB;
      for (const d of runDomains) {
        domains.add(d);
        citedBy.set(d, (citedBy.get(d) ?? 0) + 1);
      }
      if (searchesCompared) {
        for (const q of runs[r]!.search_queries) {
          let compared = queryOf.get(q);
          if (compared === undefined) queryOf.set(q, (compared = comparedQuery(q)));
          (onA ? queriesA : queriesB).add(compared);
        }
      }
      const order = orderOf(r);
      if (order.length > 0) {
        const orders = onA ? ordersA : ordersB;
        const key = order.join(",");
        const seen = orders.get(key);
        if (seen) seen.runs++;
        else orders.set(key, { order, runs: 1 });
      }
    }
    const nA = bFrom - aFrom;
    const nB = to - bFrom;
    runsA += nA;
    runsB += nB;
    for (let e = 0; e < E; e++) {
      totalA[e]! += mentioningA[e]!;
      totalB[e]! += mentioningB[e]!;
    }

    let union = domainsA.size;
    let both = 0;
    for (const d of domainsB) {
      if (domainsA.has(d)) both++;
      else union++;
    }
    const jaccard = union === 0 ? null : both / union;
    if (jaccard !== null) jaccards.push(jaccard);

    let queryOverlap: number | null = null;
    if (searchesCompared && queriesA.size > 0) {
      let shared = 0;
      for (const q of queriesA) if (queriesB.has(q)) shared++;
      queryOverlap = shared / queriesA.size;
      overlaps.push(queryOverlap);
    }

    // Every run of a with every run of b where both named someone: distinct orders weighted by their runs.
    let rboSum = 0;
    let pairs = 0;
    for (const [keyA, x] of ordersA) {
      for (const [keyB, y] of ordersB) {
        const key = `${keyA}|${keyB}`;
        let value = rboCache.get(key);
        if (value === undefined) rboCache.set(key, (value = rankBiasedOverlap(x.order, y.order, RBO_P)!));
        rboSum += value * x.runs * y.runs;
        pairs += x.runs * y.runs;
      }
    }
    const rbo = pairs === 0 ? null : rboSum / pairs;
    if (rbo !== null) rbos.push(rbo);
    pairsTotal += pairs;

    return {
      prompt: p.text,
      runs_a: nA,
      runs_b: nB,
      jaccard: jaccard === null ? null : round4(jaccard),
      query_overlap: queryOverlap === null ? null : round4(queryOverlap),
      rbo: rbo === null ? null : round4(rbo),
      entities: entities.map((entity, e) => {
        const va = mentioningA[e]! / nA;
        const vb = mentioningB[e]! / nB;
        return { name: entity.name, a: round4(va), b: round4(vb), diff: round4(vb - va) };
      }),
    };
  });

  const confidence = 1 - 0.05 / Math.max(1, E);
  const rows = entities.map((entity, e) => {
    const sideA = rateOf(totalA[e]!, runsA);
    const sideB = rateOf(totalB[e]!, runsB);
    const pa = runsA === 0 ? 0 : totalA[e]! / runsA;
    const pb = runsB === 0 ? 0 : totalB[e]! / runsB;
    const [low, high] = newcombeInterval(totalB[e]!, runsB, totalA[e]!, runsA, confidence);
    return {
      name: entity.name,
      role: entity.role,
      a: { runs: runsA, runs_mentioning: totalA[e]!, visibility: sideA.rate, visibility_interval: sideA.interval },
      b: { runs: runsB, runs_mentioning: totalB[e]!, visibility: sideB.rate, visibility_interval: sideB.interval },
      diff: round4(pb - pa),
      diff_interval: [round4(low), round4(high)] as [number, number],
      significant: runsA > 0 && runsB > 0 && (low > 0 || high < 0),
    };
  });

  const jaccard = meanOf(jaccards);
  const overlap = meanOf(overlaps);
  const rbo = meanOf(rbos);
  return {
    method: COMPARISON_METHOD,
    a,
    b,
    confidence: round4(confidence),
    entities,
    run_ids: sorted.runIds,
    excluded_runs: excluded,
    excluded_prompts: excludedPrompts,
    prompts_compared: compared.length,
    rows,
    sources: { jaccard: jaccard.value, jaccard_interval: jaccard.interval, prompts: jaccards.length, only_a: onlyOn(citedByA, citedByB), only_b: onlyOn(citedByB, citedByA) },
    searches: searchesCompared ? { overlap: overlap.value, overlap_interval: overlap.interval, prompts: overlaps.length } : null,
    order: { rbo: rbo.value, rbo_interval: rbo.interval, prompts: rbos.length, pairs: pairsTotal },
    by_prompt: byPrompt,
  };
}
