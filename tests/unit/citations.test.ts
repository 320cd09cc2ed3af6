// The citation analysis as a pure function: a hand-computed fixture with every figure asserted,
// and properties that must hold for any set of results.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeCitationAnalysis, countMentions, hostCovered, type ObservedSource, type RunObservation } from "@/lib/analyses/citations";

const P1 = "best crm for startups";
const P2 = "crm pricing";

function src(url: string, domain: string | null, cited: boolean | null, extra: Partial<ObservedSource> = {}): ObservedSource {
  return { url, domain, cited, search_query_observed: null, retrieval_observed: null, citation_count: cited ? 1 : 0, resolution: "direct", ...extra };
}

function run(run_id: string, engine: string, prompt: string, answer: string, sources: ObservedSource[], extra: Partial<RunObservation> = {}): RunObservation {
  return { run_id, engine, prompt, status: "completed", kind: "prompt", citations_exposed: true, answer, sources, ...extra };
}

// 6 runs: 2 prompts × 3 engines, then a run named twice, a failed, a queued and an audit run.
const r1 = run("r1", "chatgpt", P1, "Acme is great. Acmeville is a town. acme again.", [
  src("https://www.acme.com/crm", "acme.com", true, { citation_count: 2, search_query_observed: true }),
  src("https://rival.io/", "rival.io", false, { search_query_observed: true }),
]);
const r2 = run("r2", "claude", P1, "Rival and Café Bleu.", [
  src("https://docs.acme.com/start", "acme.com", true),
  src("https://rival.io/", "rival.io", true, { citation_count: 0 }),
  src("https://notacme.com/x", "notacme.com", false, { search_query_observed: false, retrieval_observed: true }),
]);
// No citation marks; one unresolved redirect; citation status unknown; "café" written decomposed.
const r3 = run(
  "r3",
  "gemini",
  P1,
  "cafe\u0301 bleu and ACME.",
  [
    src("https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc", null, null, { resolution: "unresolved", search_query_observed: true }),
    src("https://www.acme.com/crm", "acme.com", null, { search_query_observed: true }),
  ],
  { citations_exposed: false },
);
const r4 = run("r4", "chatgpt", P2, "Pricing at rival.", [
  src("https://rival.io/pricing", "rival.io", true, { citation_count: 3 }),
  src("https://www.acme.com/pricing", "acme.com", false, { search_query_observed: true }),
]);
const r5 = run("r5", "claude", P2, "No brand here.", [src("https://rival.io/pricing", "rival.io", true)]);
const r6 = run("r6", "gemini", P2, "Acme.", [src("https://blog.acme.com/p", "acme.com", true, { resolution: "resolved" })]);
const r7 = run("r7", "chatgpt", P2, "", [], { status: "failed", citations_exposed: null });
const r8 = run("r8", "claude", P2, "", [], { status: "queued", citations_exposed: null });
const r9 = run("r9", "chatgpt", "https://acme.com/", "", [], { kind: "audit", citations_exposed: null });

describe("computeCitationAnalysis: by country", () => {
  it("groups the counted runs by their country, runs without one last, each counted once, figures by hand", () => {
    const de1 = run("d1", "chatgpt", P1, "", [src("https://www.test.de/crm", "test.de", true, { citation_count: 2 }), src("https://rival.io/", "rival.io", true)], { country: "DE" });
    const de2 = run("d2", "gemini", P2, "", [src("https://www.test.de/crm", "test.de", true), src("https://www.acme.com/", "acme.com", false)], { country: "DE" });
    const us = run("u1", "claude", P1, "", [src("https://rival.io/", "rival.io", true, { citation_count: 3 })], { country: "US" });
    const none = run("n1", "claude", P2, "", [src("https://www.acme.com/", "acme.com", true)]);
    const failedDe = run("d3", "chatgpt", P1, "", [], { status: "failed", citations_exposed: null, country: "DE" });
    const figures = computeCitationAnalysis([none, us, de1, de2, failedDe], { brands: [], domains: [] });
    expect(figures.by_country).toEqual([
      {
        country: "DE", runs: 2, prompts: 2, engines: ["chatgpt", "gemini"], citations: 4, unique_cited_domains: 2,
        domains: [{ domain: "test.de", citations: 3, runs: 2 }, { domain: "rival.io", citations: 1, runs: 1 }],
      },
      { country: "US", runs: 1, prompts: 1, engines: ["claude"], citations: 3, unique_cited_domains: 1, domains: [{ domain: "rival.io", citations: 3, runs: 1 }] },
      { country: null, runs: 1, prompts: 1, engines: ["claude"], citations: 1, unique_cited_domains: 1, domains: [{ domain: "acme.com", citations: 1, runs: 1 }] },
    ]);
    expect(figures.by_country.reduce((n, c) => n + c.runs, 0)).toBe(figures.totals.runs);
    expect(figures.by_country.reduce((n, c) => n + c.citations, 0)).toBe(figures.totals.citations);
  });
});

describe("computeCitationAnalysis: the hand-computed fixture", () => {
  const analysis = computeCitationAnalysis([r1, r2, r3, r4, r5, r6, r4, r7, r8, r9], {
    brands: ["Acme", "Café"],
    domains: ["acme.com", "rival.io", "notacme.com"],
  });

  it("lists every run named once and keeps out those that cannot count, with the reason", () => {
    expect(analysis.run_ids).toEqual(["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"]);
    expect(analysis.excluded_runs).toEqual([
      { run_id: "r4", reason: "duplicate" },
      { run_id: "r7", reason: "failed" },
      { run_id: "r8", reason: "unfinished" },
      { run_id: "r9", reason: "not_a_prompt_run" },
    ]);
    expect(analysis.brands).toEqual(["Acme", "Café"]);
    expect(analysis.target_domains).toEqual(["acme.com", "rival.io", "notacme.com"]);
  });

  it("totals", () => {
    expect(analysis.totals).toEqual({
      runs: 6,
      prompts: 2,
      engines: 3,
      citations: 9, // 2 + 1 + max(0, 1) + 3 + 1 + 1
      unique_cited_urls: 5,
      unique_cited_domains: 2,
      sources_observed: 11,
      retrieved_not_cited: 3,
      citation_status_unknown: 2,
      unresolved_sources: 1,
      runs_without_citation_marks: 1,
    });
  });

  it("engines", () => {
    expect(analysis.engines).toEqual([
      { engine: "chatgpt", runs: 2, runs_with_citations: 2, citations: 5, unique_cited_domains: 2, runs_without_citation_marks: 0 },
      { engine: "claude", runs: 2, runs_with_citations: 2, citations: 3, unique_cited_domains: 2, runs_without_citation_marks: 0 },
      { engine: "gemini", runs: 2, runs_with_citations: 1, citations: 1, unique_cited_domains: 1, runs_without_citation_marks: 1 },
    ]);
  });

  it("domains, by citations, then runs, then name; a domain never cited but seen is listed", () => {
    expect(analysis.domains).toEqual([
      { domain: "rival.io", citations: 5, pages: 2, runs: 3, prompts: 2, engines: ["chatgpt", "claude"], seen_not_cited: 1 },
      { domain: "acme.com", citations: 4, pages: 3, runs: 3, prompts: 2, engines: ["chatgpt", "claude", "gemini"], seen_not_cited: 1 },
      { domain: "notacme.com", citations: 0, pages: 0, runs: 0, prompts: 0, engines: [], seen_not_cited: 1 },
    ]);
  });

  it("pages", () => {
    expect(analysis.pages).toEqual([
      { url: "https://rival.io/pricing", domain: "rival.io", citations: 4, runs: 2, prompts: 1, engines: ["chatgpt", "claude"], seen_not_cited: 0 },
      { url: "https://www.acme.com/crm", domain: "acme.com", citations: 2, runs: 1, prompts: 1, engines: ["chatgpt"], seen_not_cited: 0 },
      { url: "https://blog.acme.com/p", domain: "acme.com", citations: 1, runs: 1, prompts: 1, engines: ["gemini"], seen_not_cited: 0 },
      { url: "https://docs.acme.com/start", domain: "acme.com", citations: 1, runs: 1, prompts: 1, engines: ["claude"], seen_not_cited: 0 },
      { url: "https://rival.io/", domain: "rival.io", citations: 1, runs: 1, prompts: 1, engines: ["claude"], seen_not_cited: 1 },
      { url: "https://notacme.com/x", domain: "notacme.com", citations: 0, runs: 0, prompts: 0, engines: [], seen_not_cited: 1 },
      { url: "https://www.acme.com/pricing", domain: "acme.com", citations: 0, runs: 0, prompts: 0, engines: [], seen_not_cited: 1 },
    ]);
  });

  it("retrieved_not_cited", () => {
    expect(analysis.retrieved_not_cited).toEqual([
      { url: "https://notacme.com/x", domain: "notacme.com", runs: 1, engines: ["claude"] },
      { url: "https://rival.io/", domain: "rival.io", runs: 1, engines: ["chatgpt"] },
      { url: "https://www.acme.com/pricing", domain: "acme.com", runs: 1, engines: ["chatgpt"] },
    ]);
  });

  it("textual mentions: whole words, any case, Unicode-aware; Acmeville is not Acme", () => {
    expect(analysis.textual_mentions).toEqual([
      { term: "Acme", runs_mentioning: 3, runs: 6, prompts_mentioning: 2, prompts: 2, occurrences: 4, runs_mentioning_by_engine: { chatgpt: 1, claude: 0, gemini: 2 } },
      { term: "Café", runs_mentioning: 2, runs: 6, prompts_mentioning: 1, prompts: 2, occurrences: 2, runs_mentioning_by_engine: { chatgpt: 0, claude: 1, gemini: 1 } },
    ]);
  });

  it("domain coverage: subdomains count, unknown runs, Wilson intervals, the three prompt lists", () => {
    expect(analysis.domain_coverage).toEqual([
      {
        domain: "acme.com",
        runs: 6,
        cited_runs: 3,
        unknown_runs: 1,
        cited_rate: 0.5,
        cited_rate_interval: [0.1876, 0.8124],
        prompts: 2,
        cited_prompts: 2,
        citations: 4,
        pages: ["https://www.acme.com/crm", "https://blog.acme.com/p", "https://docs.acme.com/start"],
        by_engine: [
          { engine: "chatgpt", runs: 2, cited_runs: 1, unknown_runs: 0, cited_rate: 0.5, cited_rate_interval: [0.0945, 0.9055] },
          { engine: "claude", runs: 2, cited_runs: 1, unknown_runs: 0, cited_rate: 0.5, cited_rate_interval: [0.0945, 0.9055] },
          { engine: "gemini", runs: 2, cited_runs: 1, unknown_runs: 1, cited_rate: 0.5, cited_rate_interval: [0.0945, 0.9055] },
        ],
        prompts_cited: [P1, P2],
        prompts_seen_not_cited: [],
        prompts_absent: [],
      },
      {
        domain: "rival.io",
        runs: 6,
        cited_runs: 3,
        unknown_runs: 1,
        cited_rate: 0.5,
        cited_rate_interval: [0.1876, 0.8124],
        prompts: 2,
        cited_prompts: 2,
        citations: 5,
        pages: ["https://rival.io/pricing", "https://rival.io/"],
        by_engine: [
          { engine: "chatgpt", runs: 2, cited_runs: 1, unknown_runs: 0, cited_rate: 0.5, cited_rate_interval: [0.0945, 0.9055] },
          { engine: "claude", runs: 2, cited_runs: 2, unknown_runs: 0, cited_rate: 1, cited_rate_interval: [0.3424, 1] },
          { engine: "gemini", runs: 2, cited_runs: 0, unknown_runs: 1, cited_rate: 0, cited_rate_interval: [0, 0.6576] },
        ],
        prompts_cited: [P1, P2],
        prompts_seen_not_cited: [],
        prompts_absent: [],
      },
      {
        domain: "notacme.com",
        runs: 6,
        cited_runs: 0,
        unknown_runs: 1,
        cited_rate: 0,
        cited_rate_interval: [0, 0.3903],
        prompts: 2,
        cited_prompts: 0,
        citations: 0,
        pages: [],
        by_engine: [
          { engine: "chatgpt", runs: 2, cited_runs: 0, unknown_runs: 0, cited_rate: 0, cited_rate_interval: [0, 0.6576] },
          { engine: "claude", runs: 2, cited_runs: 0, unknown_runs: 0, cited_rate: 0, cited_rate_interval: [0, 0.6576] },
          { engine: "gemini", runs: 2, cited_runs: 0, unknown_runs: 1, cited_rate: 0, cited_rate_interval: [0, 0.6576] },
        ],
        prompts_cited: [],
        prompts_seen_not_cited: [P1],
        prompts_absent: [P2],
      },
    ]);
  });

  it("overlap", () => {
    expect(analysis.overlap).toEqual({
      engines: 3,
      domains_by_engine_count: { "1": 0, "2": 1, "3": 1 },
      pages_by_engine_count: { "1": 4, "2": 1, "3": 0 },
      domains_cited_by_every_engine: ["acme.com"],
      pages_cited_by_every_engine: [],
    });
  });
});

describe("matching rules", () => {
  it("mentions are whole words, case-insensitive and Unicode-aware", () => {
    expect(countMentions("Café, CAFÉ and café!", "café")).toBe(3);
    expect(countMentions("Acmeville and acme's", "Acme")).toBe(1);
    expect(countMentions("Cafés", "Café")).toBe(0);
    expect(countMentions("a.b.c and abc", "a.b.c")).toBe(1);
    expect(countMentions("anything", "  ")).toBe(0);
  });

  it("a domain covers its subdomains, not names that merely end like it", () => {
    expect(hostCovered("https://docs.acme.com/x", "acme.com")).toBe(true);
    expect(hostCovered("https://acme.com/", "acme.com")).toBe(true);
    expect(hostCovered("https://notacme.com/", "acme.com")).toBe(false);
    expect(hostCovered("https://acme.com/", "www.acme.com")).toBe(false);
  });
});

describe("computeCitationAnalysis: properties", () => {
  const engines = ["chatgpt", "claude", "gemini"];
  const hosts = ["acme.com", "www.acme.com", "docs.acme.com", "rival.io", "notacme.com", "example.org"];
  const registered = (host: string) => host.split(".").slice(-2).join(".");
  const source = fc
    .record({
      host: fc.constantFrom(...hosts),
      path: fc.constantFrom("/", "/a", "/b"),
      cited: fc.constantFrom(true, false, null),
      sqo: fc.constantFrom(true, false, null),
      ro: fc.constantFrom(true, false, null),
      count: fc.integer({ min: 0, max: 4 }),
      unresolved: fc.boolean(),
    })
    .map(({ host, path, cited, sqo, ro, count, unresolved }): ObservedSource => ({
      url: unresolved ? `https://redirect.example/${host}${path}` : `https://${host}${path}`,
      domain: unresolved ? null : registered(host),
      cited,
      search_query_observed: sqo,
      retrieval_observed: ro,
      citation_count: cited ? count : 0,
      resolution: unresolved ? "unresolved" : "direct",
    }));
  const runObs = fc.record({
    engine: fc.constantFrom(...engines),
    prompt: fc.constantFrom("p1", "p2", "p3"),
    status: fc.constantFrom("completed", "completed", "completed", "failed", "queued"),
    exposed: fc.boolean(),
    answer: fc.constantFrom("Acme rocks", "acme and Rival", "Acmeville", ""),
    sources: fc.uniqueArray(source, { maxLength: 6, selector: (s) => s.url }),
  });
  const runSet = fc.array(runObs, { maxLength: 25 }).map((list) =>
    list.map(
      (r, i): RunObservation => ({
        run_id: `r${i}`,
        engine: r.engine,
        prompt: r.prompt,
        status: r.status as RunObservation["status"],
        kind: "prompt",
        citations_exposed: r.exposed,
        answer: r.answer,
        sources: r.sources,
      }),
    ),
  );

  it("totals agree with the rows, rates lie within their intervals, coverage counts never exceed runs", () => {
    fc.assert(
      fc.property(runSet, (runs) => {
        const a = computeCitationAnalysis(runs, { brands: ["Acme", "Rival"], domains: ["acme.com", "rival.io"] });
        const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
        expect(sum(a.domains.map((d) => d.citations)) + sum(a.pages.filter((p) => p.domain === null).map((p) => p.citations))).toBe(a.totals.citations);
        expect(sum(a.pages.map((p) => p.citations))).toBe(a.totals.citations);
        expect(sum(a.engines.map((e) => e.citations))).toBe(a.totals.citations);
        expect(sum(Object.values(a.overlap.domains_by_engine_count))).toBe(a.totals.unique_cited_domains);
        expect(sum(Object.values(a.overlap.pages_by_engine_count))).toBe(a.totals.unique_cited_urls);
        expect(sum(a.engines.map((e) => e.runs))).toBe(a.totals.runs);
        expect(a.totals.runs + a.excluded_runs.length).toBe(runs.length);
        for (const c of a.domain_coverage) {
          expect(c.cited_runs + c.unknown_runs).toBeLessThanOrEqual(c.runs);
          expect(c.runs).toBe(a.totals.runs);
          expect(c.cited_prompts).toBeLessThanOrEqual(c.prompts);
          expect(c.prompts_cited.length + c.prompts_seen_not_cited.length + c.prompts_absent.length).toBe(c.prompts);
          expect(c.cited_rate).toBeGreaterThanOrEqual(c.cited_rate_interval[0]);
          expect(c.cited_rate).toBeLessThanOrEqual(c.cited_rate_interval[1]);
          for (const e of c.by_engine) {
            expect(e.cited_runs + e.unknown_runs).toBeLessThanOrEqual(e.runs);
            expect(e.cited_rate).toBeGreaterThanOrEqual(e.cited_rate_interval[0]);
            expect(e.cited_rate).toBeLessThanOrEqual(e.cited_rate_interval[1]);
          }
          expect(sum(c.by_engine.map((e) => e.cited_runs))).toBe(c.cited_runs);
        }
        for (const m of a.textual_mentions) {
          expect(m.runs_mentioning).toBeLessThanOrEqual(m.runs);
          expect(m.prompts_mentioning).toBeLessThanOrEqual(m.prompts);
          expect(sum(Object.values(m.runs_mentioning_by_engine))).toBe(m.runs_mentioning);
        }
      }),
      { numRuns: 300 },
    );
  });
});
