// The citation analysis (spec 2.6, decisions.md "Citation analyses") as one pure function over
// run observations: no database, no clock. The API feeds it rows read from run_sources; the unit
// tests feed it hand-made runs, so the figures a team reports upward are checked by hand.
import { getHostname } from "tldts";
import { rateOf } from "../stats/rate";

export { rateOf };

export type ObservedSource = {
  url: string;
  /** Registered domain (Public Suffix List), null when unresolved. */
  domain: string | null;
  cited: boolean | null;
  search_query_observed: boolean | null;
  retrieval_observed: boolean | null;
  citation_count: number;
  resolution: "direct" | "resolved" | "unresolved";
};

export type RunObservation = {
  run_id: string;
  engine: string | null;
  prompt: string;
  status: "queued" | "running" | "completed" | "failed";
  kind: "prompt" | "audit" | "questions";
  /** Null for a run without a result (unfinished, failed, not a prompt run). */
  citations_exposed: boolean | null;
  answer: string;
  sources: readonly ObservedSource[];
  /** The searcher's country the run was made for (its input's location.country); null or absent: none. */
  country?: string | null;
};

export type ExclusionReason = "unfinished" | "failed" | "not_a_prompt_run" | "duplicate";

export type CitationFigures = ReturnType<typeof computeCitationAnalysis>;

/** A source the engine showed (search results or retrieval) that the answer did not cite. */
export function seenNotCited(s: ObservedSource): boolean {
  return s.cited === false && (s.search_query_observed === true || s.retrieval_observed === true);
}

/** Citations a cited source counts for: its citation marks, at least 1. */
const weight = (s: ObservedSource) => Math.max(s.citation_count, 1);

/** Whether a URL's host is `domain` or one of its subdomains (`acme.com` covers `docs.acme.com`, not `notacme.com`). */
export function hostCovered(url: string, domain: string): boolean {
  return coveredBy(hostOf(url), domain);
}

/** A URL's host, lower-cased, without a final dot; "" when it has none. */
export function hostOf(url: string): string {
  return (getHostname(url) ?? "").replace(/\.$/, "").toLowerCase();
}

/** Whether `host` is `domain` or one of its subdomains. */
export function coveredBy(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Occurrences of `term` in `text` as a whole word: case-insensitive, Unicode-aware ("Café" matches
 * "café"), not inside a longer word ("Acme" is not in "Acmeville"). Both sides in NFC.
 */
export function countMentions(text: string, term: string): number {
  return mentionCounter(term)(text.normalize("NFC"));
}

/** countMentions for one term, its pattern compiled once; the text must already be in NFC. */
function mentionCounter(term: string): (nfcText: string) => number {
  const wanted = term.normalize("NFC").trim();
  if (wanted === "") return () => 0;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${escapeRegExp(wanted)}(?![\\p{L}\\p{N}\\p{M}_])`, "giu");
  return (nfcText) => nfcText.match(pattern)?.length ?? 0;
}

/** Sort: citations, then runs, descending, then by name (decisions.md). */
function byCitationsRunsName<T extends { citations: number; runs: number }>(name: (t: T) => string) {
  return (a: T, b: T) => b.citations - a.citations || b.runs - a.runs || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
}

const sorted = (values: Iterable<string>) => [...values].sort();

// Runs are visited in order, so a page's or domain's runs are counted with the last run that
// touched it instead of a set of run ids, and its prompts and engines are added once per run;
// prompts and pages are held by index. seen_not_cited = runs where it was seen − runs where it was
// both seen and cited.
type Tally = {
  citations: number;
  runs: number;
  lastCitedRun: number;
  seenRuns: number;
  lastSeenRun: number;
  seenAndCitedRuns: number;
  prompts: Set<number>;
  engines: Set<string>;
  pages: Set<number>;
};
const newTally = (): Tally => ({ citations: 0, runs: 0, lastCitedRun: -1, seenRuns: 0, lastSeenRun: -1, seenAndCitedRuns: 0, prompts: new Set(), engines: new Set(), pages: new Set() });

function markCited(t: Tally, run: number, prompt: number, engine: string) {
  if (t.lastCitedRun === run) return;
  t.lastCitedRun = run;
  t.runs++;
  if (t.lastSeenRun === run) t.seenAndCitedRuns++;
  t.prompts.add(prompt);
  t.engines.add(engine);
}

function markSeen(t: Tally, run: number) {
  if (t.lastSeenRun === run) return;
  t.lastSeenRun = run;
  t.seenRuns++;
  if (t.lastCitedRun === run) t.seenAndCitedRuns++;
}

/**
 * The runs an analysis counts, of those the ids named (in order, repeats included): `runIds` every
 * run once in the order named; `excluded` each repeat as `duplicate`, then, for a run's first
 * naming, `not_a_prompt_run`, `unfinished` (queued or running), `failed`, or the reason `more`
 * gives (a visibility analysis's `no_answer`), in that order of precedence; `runs` the others.
 */
export function sortRuns<R extends { run_id: string; kind: string; status: string }, M extends string = never>(
  named: readonly R[],
  more: (run: R) => M | null = () => null,
): { runIds: string[]; runs: R[]; excluded: { run_id: string; reason: ExclusionReason | M }[] } {
  const excluded: { run_id: string; reason: ExclusionReason | M }[] = [];
  const seen = new Set<string>();
  const runIds: string[] = [];
  const runs: R[] = [];
  for (const run of named) {
    if (seen.has(run.run_id)) {
      excluded.push({ run_id: run.run_id, reason: "duplicate" });
      continue;
    }
    seen.add(run.run_id);
    runIds.push(run.run_id);
    const reason: ExclusionReason | M | null =
      run.kind !== "prompt" ? "not_a_prompt_run" : run.status === "queued" || run.status === "running" ? "unfinished" : run.status === "failed" ? "failed" : more(run);
    if (reason === null) runs.push(run);
    else excluded.push({ run_id: run.run_id, reason });
  }
  return { runIds, runs, excluded };
}

/**
 * Every figure of a CitationAnalysis from the runs the ids named (in order, repeats included) and
 * the terms and domains to report on. Runs that cannot count are listed in `excluded_runs`.
 */
export function computeCitationAnalysis(named: readonly RunObservation[], options: { brands: readonly string[]; domains: readonly string[] }) {
  const { runIds, runs, excluded } = sortRuns(named);

  const engineOf = (r: RunObservation) => r.engine ?? "unknown";
  const engineNames = sorted(new Set(runs.map(engineOf)));
  const promptOrder: string[] = [];
  const promptIndex = new Map<string, number>();
  const promptOf = runs.map((r) => {
    let i = promptIndex.get(r.prompt);
    if (i === undefined) {
      i = promptOrder.push(r.prompt) - 1;
      promptIndex.set(r.prompt, i);
    }
    return i;
  });

  const totals = {
    runs: runs.length,
    prompts: promptOrder.length,
    engines: engineNames.length,
    citations: 0,
    unique_cited_urls: 0,
    unique_cited_domains: 0,
    sources_observed: 0,
    retrieved_not_cited: 0,
    citation_status_unknown: 0,
    unresolved_sources: 0,
    runs_without_citation_marks: 0,
  };
  const engineRows = new Map(
    engineNames.map((e) => [e, { engine: e, runs: 0, runs_with_citations: 0, citations: 0, domains: new Set<string>(), runs_without_citation_marks: 0 }]),
  );
  const domains = new Map<string, Tally>();
  const pages = new Map<string, Tally & { index: number; domain: string | null }>();
  type CountryTally = { runs: number; prompts: Set<number>; engines: Set<string>; citations: number; domains: Map<string, { citations: number; runs: number; lastRun: number }> };
  const countries = new Map<string | null, CountryTally>();
  const unseen = new Map<string, { url: string; domain: string | null; runs: Set<number>; engines: Set<string> }>();

  for (const [r, run] of runs.entries()) {
    const prompt = promptOf[r]!;
    const engine = engineOf(run);
    const row = engineRows.get(engine)!;
    row.runs++;
    const country = run.country ?? null;
    let place = countries.get(country);
    if (!place) countries.set(country, (place = { runs: 0, prompts: new Set(), engines: new Set(), citations: 0, domains: new Map() }));
    place.runs++;
    place.prompts.add(prompt);
    place.engines.add(engine);
    if (run.citations_exposed === false) {
      row.runs_without_citation_marks++;
      totals.runs_without_citation_marks++;
    }
    let runCited = false;
    for (const s of run.sources) {
      totals.sources_observed++;
      if (s.cited === null) totals.citation_status_unknown++;
      if (s.resolution === "unresolved") totals.unresolved_sources++;
      let page = pages.get(s.url);
      if (page === undefined) pages.set(s.url, (page = { ...newTally(), index: pages.size, domain: s.domain }));
      const domain = s.domain === null ? null : (domains.get(s.domain) ?? newTally());
      if (s.domain !== null) domains.set(s.domain, domain!);
      if (s.cited === true) {
        runCited = true;
        const w = weight(s);
        totals.citations += w;
        row.citations += w;
        page.citations += w;
        markCited(page, r, prompt, engine);
        if (domain) {
          domain.citations += w;
          markCited(domain, r, prompt, engine);
          domain.pages.add(page.index);
        }
        if (s.domain !== null) row.domains.add(s.domain);
        place.citations += w;
        if (s.domain !== null) {
          const d = place.domains.get(s.domain) ?? { citations: 0, runs: 0, lastRun: -1 };
          d.citations += w;
          if (d.lastRun !== r) d.runs++;
          d.lastRun = r;
          place.domains.set(s.domain, d);
        }
      } else if (seenNotCited(s)) {
        totals.retrieved_not_cited++;
        markSeen(page, r);
        if (domain) markSeen(domain, r);
        const u = unseen.get(s.url) ?? { url: s.url, domain: s.domain, runs: new Set(), engines: new Set() };
        u.runs.add(r);
        u.engines.add(engine);
        unseen.set(s.url, u);
      }
    }
    if (runCited) row.runs_with_citations++;
  }

  // Seen without being cited: runs where it was shown and nothing of it was cited in that run.
  const seenNotCitedRuns = (t: Tally) => t.seenRuns - t.seenAndCitedRuns;
  const citedPages = [...pages.entries()].filter(([, t]) => t.citations > 0);
  const citedDomains = [...domains.entries()].filter(([, t]) => t.citations > 0);
  totals.unique_cited_urls = citedPages.length;
  totals.unique_cited_domains = citedDomains.length;

  const domainRows = [...domains.entries()]
    .filter(([, t]) => t.citations > 0 || seenNotCitedRuns(t) > 0)
    .map(([domain, t]) => ({
      domain,
      citations: t.citations,
      pages: t.pages.size,
      runs: t.runs,
      prompts: t.prompts.size,
      engines: sorted(t.engines),
      seen_not_cited: seenNotCitedRuns(t),
    }))
    .sort(byCitationsRunsName((r) => r.domain));

  const pageRows = [...pages.entries()]
    .filter(([, t]) => t.citations > 0 || seenNotCitedRuns(t) > 0)
    .map(([url, t]) => ({
      url,
      domain: t.domain,
      citations: t.citations,
      runs: t.runs,
      prompts: t.prompts.size,
      engines: sorted(t.engines),
      seen_not_cited: seenNotCitedRuns(t),
    }))
    .sort(byCitationsRunsName((r) => r.url));

  const retrievedNotCited = [...unseen.values()]
    .map((u) => ({ url: u.url, domain: u.domain, runs: u.runs.size, engines: sorted(u.engines) }))
    .sort((a, b) => b.runs - a.runs || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));

  const brands = [...new Set(options.brands.map((b) => b.trim()).filter((b) => b !== ""))];
  const answers = brands.length ? runs.map((r) => r.answer.normalize("NFC")) : [];
  const textualMentions = brands.map((term) => {
    const count = mentionCounter(term);
    const byEngine = Object.fromEntries(engineNames.map((e) => [e, 0]));
    const prompts = new Set<number>();
    let runsMentioning = 0;
    let occurrences = 0;
    for (const [i, run] of runs.entries()) {
      const n = count(answers[i]!);
      if (n === 0) continue;
      occurrences += n;
      runsMentioning++;
      byEngine[engineOf(run)]!++;
      prompts.add(promptOf[i]!);
    }
    return {
      term,
      runs_mentioning: runsMentioning,
      runs: runs.length,
      prompts_mentioning: prompts.size,
      prompts: promptOrder.length,
      occurrences,
      runs_mentioning_by_engine: byEngine,
    };
  });

  const targets = [...new Set(options.domains)];
  // Each page's host once, not once per target.
  const hosts = new Map<string, string>();
  const hostOfUrl = (url: string) => {
    let host = hosts.get(url);
    if (host === undefined) hosts.set(url, (host = hostOf(url)));
    return host;
  };
  const domainCoverage = targets.map((target) => {
    let citations = 0;
    const pageCitations = new Map<string, number>();
    const citedRuns = new Set<number>();
    const unknownRuns = new Set<number>();
    const citedPrompts = new Set<string>();
    const seenPrompts = new Set<string>();
    const perEngine = new Map(engineNames.map((e) => [e, { runs: 0, cited: 0, unknown: 0 }]));
    for (const [r, run] of runs.entries()) {
      const e = perEngine.get(engineOf(run))!;
      e.runs++;
      let cited = false;
      for (const s of run.sources) {
        if (!coveredBy(hostOfUrl(s.url), target)) continue;
        if (s.cited === true) {
          cited = true;
          citations += weight(s);
          pageCitations.set(s.url, (pageCitations.get(s.url) ?? 0) + weight(s));
        } else if (seenNotCited(s)) seenPrompts.add(run.prompt);
      }
      if (cited) {
        citedRuns.add(r);
        citedPrompts.add(run.prompt);
        e.cited++;
      } else if (run.citations_exposed === false || run.sources.some((s) => s.cited === null)) {
        unknownRuns.add(r);
        e.unknown++;
      }
    }
    const { rate, interval } = rateOf(citedRuns.size, runs.length);
    return {
      domain: target,
      runs: runs.length,
      cited_runs: citedRuns.size,
      unknown_runs: unknownRuns.size,
      cited_rate: rate,
      cited_rate_interval: interval,
      prompts: promptOrder.length,
      cited_prompts: citedPrompts.size,
      citations,
      pages: [...pageCitations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([url]) => url),
      by_engine: engineNames.map((engine) => {
        const c = perEngine.get(engine)!;
        const r = rateOf(c.cited, c.runs);
        return { engine, runs: c.runs, cited_runs: c.cited, unknown_runs: c.unknown, cited_rate: r.rate, cited_rate_interval: r.interval };
      }),
      prompts_cited: promptOrder.filter((p) => citedPrompts.has(p)),
      prompts_seen_not_cited: promptOrder.filter((p) => !citedPrompts.has(p) && seenPrompts.has(p)),
      prompts_absent: promptOrder.filter((p) => !citedPrompts.has(p) && !seenPrompts.has(p)),
    };
  });

  const engineCount = engineNames.length;
  const histogram = (entries: [string, Tally][]) => {
    const counts: Record<string, number> = Object.fromEntries(Array.from({ length: engineCount }, (_, i) => [String(i + 1), 0]));
    for (const [, t] of entries) counts[String(t.engines.size)] = (counts[String(t.engines.size)] ?? 0) + 1;
    return counts;
  };
  const everyEngine = (entries: [string, Tally][]) =>
    engineCount === 0 ? [] : sorted(entries.filter(([, t]) => t.engines.size === engineCount).map(([k]) => k));

  // Countries by code, runs without a location last: each counted run in exactly one row.
  const byCountry = [...countries.entries()]
    .sort(([a], [b]) => (a === null ? 1 : 0) - (b === null ? 1 : 0) || (a ?? "").localeCompare(b ?? ""))
    .map(([country, t]) => {
      const cited = [...t.domains.entries()]
        .map(([domain, d]) => ({ domain, citations: d.citations, runs: d.runs }))
        .sort(byCitationsRunsName((d) => d.domain));
      return {
        country,
        runs: t.runs,
        prompts: t.prompts.size,
        engines: sorted(t.engines),
        citations: t.citations,
        unique_cited_domains: cited.length,
        domains: cited,
      };
    });

  return {
    run_ids: runIds,
    brands,
    target_domains: targets,
    totals,
    engines: [...engineRows.values()].map(({ domains: d, ...row }) => ({ ...row, unique_cited_domains: d.size })),
    domains: domainRows,
    pages: pageRows,
    retrieved_not_cited: retrievedNotCited,
    textual_mentions: textualMentions,
    domain_coverage: domainCoverage,
    by_country: byCountry,
    overlap: {
      engines: engineCount,
      domains_by_engine_count: histogram(citedDomains),
      pages_by_engine_count: histogram(citedPages),
      domains_cited_by_every_engine: everyEngine(citedDomains),
      pages_cited_by_every_engine: everyEngine(citedPages),
    },
    excluded_runs: excluded,
  };
}
