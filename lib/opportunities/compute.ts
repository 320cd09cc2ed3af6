// The sections of an opportunity list (decisions.md "Opportunities"; docs/decisions.md
// "Opportunities"), from a visibility analysis's counted runs: which entities each names (the
// counted mask analysis_mentions stores), what each cited and searched. Pure: create.ts reads the
// runs and adds the sentences of the evidence.
import { newcombeInterval, rateOf, round4 } from "../stats";
import { OPPORTUNITY_LIMITS } from "../schemas/opportunities";

/** One counted run of the visibility analysis, as the list reads it. */
export type OpportunityRun = {
  id: string;
  engine: string | null;
  prompt: string;
  queries: readonly string[];
  cited: readonly string[];
  /** Bit e set: the run names entity e (a counted mention). */
  mask: number;
};

export type OpportunityEntity = { name: string; domains: readonly string[] };

const has = (mask: number, e: number) => Math.floor(mask / 2 ** e) % 2 === 1;

/** A URL's host, lower-cased, without `www.`; null when it is no URL. */
export function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    return host.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

/** Whether the host is one of the domains or under one. */
const ownedBy = (host: string | null, domains: readonly string[]) =>
  host !== null && domains.some((d) => {
    const domain = d.toLowerCase().replace(/^www\./, "");
    return host === domain || host.endsWith(`.${domain}`);
  });

/** A search query as compared: lower-cased, runs of white space made one space, trimmed. */
export const normalQuery = (q: string) => q.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const firstIds = (ids: readonly string[]) => ids.slice(0, OPPORTUNITY_LIMITS.runIds);

export type LostPromptRow = {
  prompt: string;
  n: number;
  brand: { name: string; runs: number; runs_mentioning: number; visibility: number; visibility_interval: [number, number] };
  competitor: { name: string; index: number; runs_mentioning: number; visibility: number; visibility_interval: [number, number] };
  diff: number;
  diff_interval: [number, number];
  run_ids: string[];
};

export function computeOpportunities(runs: readonly OpportunityRun[], entities: readonly OpportunityEntity[], brand: number, competitors: readonly number[]) {
  const brandEntity = entities[brand]!;
  const prompts = new Map<string, OpportunityRun[]>();
  for (const run of runs) {
    const list = prompts.get(run.prompt);
    if (list) list.push(run);
    else prompts.set(run.prompt, [run]);
  }

  // Lost prompts: the competitor whose visibility exceeds the brand's most, Newcombe's interval above 0.
  const lost: LostPromptRow[] = [];
  for (const [prompt, group] of prompts) {
    const n = group.length;
    const b = group.filter((r) => has(r.mask, brand)).length;
    let best: { index: number; k: number; diff: number; interval: [number, number] } | null = null;
    for (const c of competitors) {
      const k = group.filter((r) => has(r.mask, c)).length;
      if (k <= b) continue;
      const interval = newcombeInterval(k, n, b, n);
      if (!(interval[0] > 0)) continue;
      const diff = (k - b) / n;
      if (!best || diff > best.diff || (diff === best.diff && interval[0] > best.interval[0])) best = { index: c, k, diff, interval };
    }
    if (!best) continue;
    const br = rateOf(b, n);
    const cr = rateOf(best.k, n);
    lost.push({
      prompt,
      n,
      brand: { name: brandEntity.name, runs: n, runs_mentioning: b, visibility: br.rate, visibility_interval: br.interval },
      competitor: { name: entities[best.index]!.name, index: best.index, runs_mentioning: best.k, visibility: cr.rate, visibility_interval: cr.interval },
      diff: round4(best.diff),
      diff_interval: [round4(best.interval[0]), round4(best.interval[1])],
      run_ids: group.filter((r) => has(r.mask, best.index) && !has(r.mask, brand)).map((r) => r.id),
    });
  }
  lost.sort((x, y) => y.diff_interval[0] - x.diff_interval[0] || y.diff - x.diff || byText(x.prompt, y.prompt));

  const lostSet = new Set(lost.map((l) => l.prompt));
  const lostRuns = runs.filter((r) => lostSet.has(r.prompt));

  // Citation targets: pages cited where a competitor is named and the brand is not.
  const targetRuns = lostRuns.filter((r) => !has(r.mask, brand) && competitors.some((c) => has(r.mask, c)));
  const targets = new Map<string, { url: string; domain: string; runs: OpportunityRun[] }>();
  for (const run of targetRuns) {
    for (const url of new Set(run.cited)) {
      const host = hostOf(url);
      if (ownedBy(host, brandEntity.domains)) continue;
      const t = targets.get(url) ?? { url, domain: host ?? url, runs: [] };
      t.runs.push(run);
      targets.set(url, t);
    }
  }
  const citation_targets = [...targets.values()]
    .sort((x, y) => y.runs.length - x.runs.length || byText(x.url, y.url))
    .slice(0, OPPORTUNITY_LIMITS.rows)
    .map((t) => ({
      url: t.url,
      domain: t.domain,
      owner: competitors.map((c) => entities[c]!).find((e) => ownedBy(hostOf(t.url), e.domains))?.name ?? null,
      runs_citing: t.runs.length,
      n: targetRuns.length,
      competitors: competitors
        .map((c) => ({ name: entities[c]!.name, runs: t.runs.filter((r) => has(r.mask, c)).length, c }))
        .filter((c) => c.runs > 0)
        .sort((x, y) => y.runs - x.runs || x.c - y.c)
        .map(({ name, runs: k }) => ({ name, runs: k })),
      run_ids: firstIds(t.runs.map((r) => r.id)),
    }));

  // Own pages: the brand's pages cited in any counted run.
  const own = new Map<string, { url: string; domain: string; runs: OpportunityRun[] }>();
  const ownRuns = new Set<OpportunityRun>();
  for (const run of runs) {
    for (const url of new Set(run.cited)) {
      const host = hostOf(url);
      if (!ownedBy(host, brandEntity.domains)) continue;
      ownRuns.add(run);
      const o = own.get(url) ?? { url, domain: host!, runs: [] };
      o.runs.push(run);
      own.set(url, o);
    }
  }
  const tally = (list: readonly OpportunityRun[]) => ({ runs_citing: list.length, cited_not_mentioned: list.filter((r) => !has(r.mask, brand)).length });
  const grouped = <K extends string>(list: readonly OpportunityRun[], key: (r: OpportunityRun) => string) => {
    const groups = new Map<string, OpportunityRun[]>();
    for (const r of list) {
      const k = key(r);
      const group = groups.get(k);
      if (group) group.push(r);
      else groups.set(k, [r]);
    }
    return [...groups.entries()].sort((x, y) => y[1].length - x[1].length || byText(x[0], y[0])) as [K, OpportunityRun[]][];
  };
  const own_pages = [...own.values()]
    .sort((x, y) => y.runs.length - x.runs.length || byText(x.url, y.url))
    .slice(0, OPPORTUNITY_LIMITS.rows)
    .map((o) => ({
      url: o.url,
      domain: o.domain,
      n: runs.length,
      ...tally(o.runs),
      by_engine: grouped(o.runs, (r) => r.engine ?? "").map(([engine, list]) => ({ engine, ...tally(list) })),
      by_prompt: grouped(o.runs, (r) => r.prompt).map(([prompt, list]) => ({ prompt, ...tally(list) })),
      run_ids: firstIds(o.runs.map((r) => r.id)),
    }));

  // Query gaps: the searches engines ran on lost prompts, per engine.
  const perEngine = new Map<string, number>();
  for (const r of lostRuns) perEngine.set(r.engine ?? "", (perEngine.get(r.engine ?? "") ?? 0) + 1);
  const gaps = new Map<string, { query: string; engine: string; runs: OpportunityRun[] }>();
  for (const run of lostRuns) {
    const engine = run.engine ?? "";
    for (const query of new Set(run.queries.map(normalQuery).filter((q) => q !== ""))) {
      const key = `${engine}\u0000${query}`;
      const g = gaps.get(key) ?? { query, engine, runs: [] };
      g.runs.push(run);
      gaps.set(key, g);
    }
  }
  const query_gaps = [...gaps.values()]
    .sort((x, y) => y.runs.length - x.runs.length || byText(x.engine, y.engine) || byText(x.query, y.query))
    .slice(0, OPPORTUNITY_LIMITS.rows)
    .map((g) => ({
      query: g.query,
      engine: g.engine,
      runs: g.runs.length,
      n: perEngine.get(g.engine)!,
      prompts: [...new Set(g.runs.map((r) => r.prompt))],
      run_ids: firstIds(g.runs.map((r) => r.id)),
    }));

  const ownList = [...ownRuns];
  return {
    totals: {
      runs: runs.length,
      prompts: prompts.size,
      lost_prompts: lost.length,
      lost_runs: lostRuns.length,
      target_runs: targetRuns.length,
      own_runs_citing: ownList.length,
      own_cited_not_mentioned: ownList.filter((r) => !has(r.mask, brand)).length,
    },
    lost,
    citation_targets,
    own_pages,
    query_gaps,
  };
}
