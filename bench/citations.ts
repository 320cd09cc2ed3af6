// Benchmark: POST /citation-analyses over 10,000 completed prompt runs × 15 sources each (10
// batches of 1,000 runs, 100 prompts × 3 engines, 2,000 pages on 200 domains), through the route
// handler in process, with 2 brands counted and 2 domains covered. Target: under 1 s on
// PostgreSQL. Each round also reads the analysis back (GET /analyses/{id}, its route handler).
// Prints each round, the median of the rounds with their spread, the cores and the peak memory.
// Run: npm run bench:citations [-- --pg] [--rounds N]   (BENCH_RUNS_PER_BATCH changes the 1,000 runs per batch)
import os from "node:os";
import { median } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment, summary } from "./lib/setup";

simulatedEnvironment();

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { createProject } = await import("@/lib/projects/create");
const { newId } = await import("@/lib/db/ids");
const analysesRoute = await import("@/app/api/v1/citation-analyses/route");
const analysisRoute = await import("@/app/api/v1/analyses/[analysis_id]/route");

const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const roundsArg = args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 3;
const BATCHES = 10;
const RUNS_PER_BATCH = Number(process.env.BENCH_RUNS_PER_BATCH ?? 1000);
const SOURCES = 15;
const ENGINES = ["chatgpt", "claude", "gemini"];

const bench = await openBenchDatabase(onPostgres);
const db = bench.database.prisma;
console.log(`workload: ${BATCHES * RUNS_PER_BATCH} runs × ${SOURCES} sources in ${BATCHES} batches, ${ROUNDS} rounds, ${bench.label}`);
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}`);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
const workspaceId = user.personalWorkspaceId;
const project = (await createProject(principal, { name: "Citations", workspace_id: workspaceId, context: null })).id;
const key = (await issueApiKey(user.id, workspaceId, "bench")).key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

// The runs are written by the database itself (one statement per table and batch, values derived
// from a hash of the run id: the same distributions every time, not the same rows): seeding from
// JavaScript took over a minute and left ~900 MiB of heap behind, which then slowed the measured
// rounds' garbage collections. Each run's result holds its answer and all its sources, as
// finishRun stores them, and run_sources the same sources.
let t = performance.now();
const batchIds: string[] = [];
for (let b = 0; b < BATCHES; b++) {
  const batchId = newId("batch");
  batchIds.push(batchId);
  await db.batch.create({ data: { id: batchId, workspaceId, projectId: project, input: { prompt: "bench", engines: ENGINES, project } } });
  const runIds = Array.from({ length: RUNS_PER_BATCH }, () => newId("run"));
  await db.$executeRaw`
    INSERT INTO runs (id, kind, status, workspace_id, project_id, batch_id, engine, subject, input, citations_exposed, query_count, created_at, updated_at, completed_at)
    SELECT r.id, 'prompt', 'completed', ${workspaceId}, ${project}, ${batchId}, e.engine, p.prompt,
           jsonb_build_object('prompt', p.prompt, 'engine', e.engine, 'project', ${project}::text),
           e.engine <> 'gemini' OR abs(hashtext(r.id)) % 2 = 0, 1, now(), now(), now()
    FROM unnest(${runIds}::text[]) WITH ORDINALITY AS r(id, ord)
    CROSS JOIN LATERAL (SELECT (ARRAY['chatgpt', 'claude', 'gemini'])[((r.ord - 1) % 3) + 1] AS engine) e
    CROSS JOIN LATERAL (SELECT 'what is the best crm for team ' || (abs(hashtext(r.id || 'p')) % 100) || '?' AS prompt) p`;
  await db.$executeRaw`
    INSERT INTO run_sources (run_id, position, workspace_id, engine, prompt_hash, url, domain, cited, search_query_observed, retrieval_observed, citation_count, resolution)
    SELECT r.id, g.pos, r.workspace_id, r.engine, encode(sha256(convert_to(r.subject, 'UTF8')), 'hex'),
           'https://' || (ARRAY['www.', 'docs.', ''])[(h.h / 17) % 3 + 1] || d.domain || '/page' || (h.h / 19) % 10,
           d.domain, c.cited, (h.h / 11) % 10 < 8, NULL, CASE WHEN c.cited THEN 1 + (h.h / 13) % 3 ELSE 0 END, 'direct'
    FROM runs r
    CROSS JOIN generate_series(0, ${SOURCES - 1}) AS g(pos)
    CROSS JOIN LATERAL (SELECT abs(hashtext(r.id || ':' || g.pos)) AS h) h
    CROSS JOIN LATERAL (SELECT CASE WHEN g.pos = 0 AND h.h % 10 < 4 THEN 'acme.com' ELSE 'site' || (h.h / 7) % 200 || '.com' END AS domain) d
    CROSS JOIN LATERAL (SELECT CASE WHEN h.h % 10 = 0 THEN NULL ELSE (h.h / 3) % 2 = 0 END AS cited) c
    WHERE r.batch_id = ${batchId}`;
  await db.$executeRaw`
    UPDATE runs SET
      result = jsonb_build_object(
        'answer', 'For ' || subject || ' ' || (ARRAY['Acme', 'Rival', 'Acmeville'])[abs(hashtext(id || 'a')) % 3 + 1] || ' is a good choice; ' || repeat('lorem ipsum dolor sit amet ', 60),
        'sources', (SELECT jsonb_agg(jsonb_build_object('url', s.url, 'raw_url', s.url, 'resolution', s.resolution, 'domain', s.domain, 'cited', s.cited,
                                                         'search_query_observed', s.search_query_observed, 'retrieval_observed', s.retrieval_observed,
                                                         'domain_hint', NULL, 'title', NULL, 'citation_count', s.citation_count) ORDER BY s.position)
                    FROM run_sources s WHERE s.run_id = runs.id),
        'searches', jsonb_build_array(jsonb_build_object('query', subject, 'position', 1, 'search_call', 1, 'provider_search_id', NULL)),
        'citations_exposed', citations_exposed, 'searched', true, 'search_calls', 1),
      source_count = ${SOURCES},
      cited_count = (SELECT count(*)::int FROM run_sources s WHERE s.run_id = runs.id AND s.cited)
    WHERE batch_id = ${batchId}`;
}
console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

// Peak memory while analysing: the heap in use (the seeding's garbage aside) and the process's rss.
let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
(globalThis as { gc?: () => void }).gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const sampler = setInterval(sample, 5);
const times: number[] = [];
const reads: number[] = [];
const rereads: number[] = [];
const body = JSON.stringify({ ids: batchIds, brands: ["Acme", "Rival"], domains: ["acme.com", "site7.com"] });
for (let round = 1; round <= ROUNDS; round++) {
  t = performance.now();
  const response = await analysesRoute.POST(new Request("http://localhost/api/v1/citation-analyses", { method: "POST", headers, body }));
  const text = await response.text();
  const ms = performance.now() - t;
  if (response.status !== 201) throw new Error(`POST /citation-analyses answered ${response.status}: ${text.slice(0, 300)}`);
  const { id, totals } = JSON.parse(text) as { id: string; totals: { runs: number; sources_observed: number; citations: number } };
  times.push(ms);
  // Reading it back, as a client polling or a share page would: the first read (the body made
  // from the stored figures) and then 10 more (the body remembered for the row's version).
  const readTimes: number[] = [];
  for (let i = 0; i < 11; i++) {
    t = performance.now();
    const read = await analysisRoute.GET(new Request(`http://localhost/api/v1/analyses/${id}`, { headers }), { params: Promise.resolve({ analysis_id: id }) });
    const readText = await read.text();
    readTimes.push(performance.now() - t);
    if (read.status !== 200 || readText.length !== text.length) throw new Error(`GET /analyses/${id} answered ${read.status} with ${readText.length} characters, POST ${text.length}`);
  }
  const [firstRead, ...again] = readTimes;
  reads.push(firstRead!);
  rereads.push(median(again));
  console.log(
    `round ${round}: ${ms.toFixed(0)} ms (${totals.runs} runs, ${totals.sources_observed} sources, ${totals.citations} citations; ${(text.length / 1024).toFixed(0)} KiB); ` +
      `GET /analyses/{id} first ${firstRead!.toFixed(1)} ms, then median ${median(again).toFixed(1)} ms`,
  );
}
clearInterval(sampler);
console.log(`POST /citation-analyses (${BATCHES * RUNS_PER_BATCH} runs × ${SOURCES} sources), ms: ${summary(times, 0)}   target < 1000 on PostgreSQL`);
console.log(`GET /analyses/{id} of that analysis, first read, ms: ${summary(reads, 1)}`);
console.log(`GET /analyses/{id} of that analysis, the 10 reads after (median of each round), ms: ${summary(rereads, 1)}`);
sample();
console.log(
  `peak memory while analysing: heap used ${(peakHeap / 2 ** 20).toFixed(0)} MiB (${(heapBefore / 2 ** 20).toFixed(0)} MiB before the first round), rss ${(peakRss / 2 ** 20).toFixed(0)} MiB (sampled every 5 ms); process max rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB, seeding included`,
);
await bench.close();
