// Benchmark: POST /citation-analyses over 10,000 completed prompt runs × 15 sources each (10
// batches of 1,000 runs, 100 prompts × 3 engines, 2,000 pages on 200 domains), through the route
// handler in process, with 2 brands counted and 2 domains covered. Target: under 1 s on
// PostgreSQL. Runs are written as finishRun writes them (result JSON, run_sources rows).
// Prints each round, the median of the rounds with their spread, the cores and the peak memory.
// Run: npm run bench:citations [-- --pg] [--rounds N]   (BENCH_RUNS_PER_BATCH changes the 1,000 runs per batch)
import os from "node:os";
import { openBenchDatabase, simulatedEnvironment, summary } from "./lib/setup";

simulatedEnvironment();

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { createProject } = await import("@/lib/projects/projects");
const { newId } = await import("@/lib/db/ids");
const { runSourceRows } = await import("@/lib/runs/execute");
const analysesRoute = await import("@/app/api/v1/citation-analyses/route");

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

// Deterministic pseudo-random choices, so every run of the benchmark analyses the same data.
let seed = 42;
const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;

let t = performance.now();
const batchIds: string[] = [];
for (let b = 0; b < BATCHES; b++) {
  const batchId = newId("batch");
  batchIds.push(batchId);
  await db.batch.create({ data: { id: batchId, workspaceId, projectId: project, input: { prompt: "bench", engines: ENGINES, project } } });
  const runs = [];
  const sources = [];
  for (let i = 0; i < RUNS_PER_BATCH; i++) {
    const id = newId("run");
    const engine = ENGINES[i % ENGINES.length]!;
    const prompt = `what is the best crm for team ${Math.floor(next() * 100)}?`;
    const observed = Array.from({ length: SOURCES }, (_, position) => {
      const domain = position === 0 && next() < 0.4 ? "acme.com" : `site${Math.floor(next() * 200)}.com`;
      const cited = next() < 0.1 ? null : next() < 0.5;
      return {
        url: `https://${pick(["www.", "docs.", ""])}${domain}/page${Math.floor(next() * 10)}`,
        raw_url: `https://${domain}/`,
        resolution: "direct" as const,
        domain,
        cited,
        search_query_observed: next() < 0.8,
        retrieval_observed: null,
        domain_hint: null,
        title: null,
        citation_count: cited ? 1 + Math.floor(next() * 3) : 0,
      };
    });
    const result = {
      answer: `For ${prompt} ${pick(["Acme", "Rival", "Acmeville"])} is a good choice; ${"lorem ipsum dolor sit amet ".repeat(60)}`,
      sources: observed,
      searches: [{ query: prompt, position: 1, search_call: 1, provider_search_id: null }],
      citations_exposed: engine !== "gemini" || next() < 0.5,
      searched: true,
      search_calls: 1,
    };
    runs.push({
      id, kind: "prompt" as const, status: "completed" as const, workspaceId, projectId: project, batchId, engine, subject: prompt,
      input: { prompt, engine, project }, result, sourceCount: SOURCES, citedCount: observed.filter((s) => s.cited).length,
      queryCount: 1, citationsExposed: result.citations_exposed, completedAt: new Date(),
    });
    sources.push(...runSourceRows({ id, workspaceId, engine, prompt }, observed));
  }
  await db.run.createMany({ data: runs });
  await db.runSource.createMany({ data: sources });
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
const body = JSON.stringify({ ids: batchIds, brands: ["Acme", "Rival"], domains: ["acme.com", "site7.com"] });
for (let round = 1; round <= ROUNDS; round++) {
  t = performance.now();
  const response = await analysesRoute.POST(new Request("http://localhost/api/v1/citation-analyses", { method: "POST", headers, body }));
  const text = await response.text();
  const ms = performance.now() - t;
  if (response.status !== 201) throw new Error(`POST /citation-analyses answered ${response.status}: ${text.slice(0, 300)}`);
  const totals = (JSON.parse(text) as { totals: { runs: number; sources_observed: number; citations: number } }).totals;
  times.push(ms);
  console.log(
    `round ${round}: ${ms.toFixed(0)} ms (${totals.runs} runs, ${totals.sources_observed} sources, ${totals.citations} citations; ${(text.length / 1024).toFixed(0)} KiB)`,
  );
}
clearInterval(sampler);
console.log(`POST /citation-analyses (${BATCHES * RUNS_PER_BATCH} runs × ${SOURCES} sources), ms: ${summary(times, 0)}   target < 1000 on PostgreSQL`);
sample();
console.log(
  `peak memory while analysing: heap used ${(peakHeap / 2 ** 20).toFixed(0)} MiB (${(heapBefore / 2 ** 20).toFixed(0)} MiB before the first round), rss ${(peakRss / 2 ** 20).toFixed(0)} MiB (sampled every 5 ms); process max rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB, seeding included`,
);
await bench.close();
