// Benchmark: the target of #46 for comparison analyses (decisions.md "Comparison analyses"), the
// median of the rounds with its spread, ending in one `target: ... met` or `NOT met` line as the
// other benches do: POST /comparison-analyses over 10,000 completed prompt runs, half on chatgpt
// and half on chatgpt_app (the same 200 prompts on both, 25 runs of each on each engine), × 5
// tracked entities (10 batches of 1,000 runs; answers of 1.5-3 KB like the simulator's, built by
// bench/lib/visibility-answers.ts, each stored in a result with its searches and 15 sources), through
// the route handler in process, beside a floor measured in the same rounds: ONE SELECT reading the
// same answer texts and sources and nothing else. Target: under 500 ms and within 3x the floor,
// on PostgreSQL. Measured twice: with the runs read as they finished (for the entities of the
// project's monitor, as the prompt-run job reads them: lib/visibility/run-observations.ts), and for
// entities nothing was read for (the same with an alias no answer contains, new each time: every
// answer read now). Prints each round, the cores and the load, and a digest of the comparison's
// figures (the same workload gives the same digest on every commit that computes the same
// comparison: a check that a speed-up changed nothing).
// Run: npm run bench:comparison [-- --pglite] [--rounds N] [--runs-per-batch N]
import { createHash } from "node:crypto";
import { arrayParam, defineStatement, text } from "@/lib/db/statement";
import { standalone } from "@/lib/db/sql";
import { loadAverage, machine, median, spread } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment } from "./lib/setup";
import { buildRuns, entities } from "./lib/visibility-answers";
import type { VisibilityRunInput } from "@/lib/visibility";

simulatedEnvironment();

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { createProject } = await import("@/lib/projects/create");
const { newId } = await import("@/lib/db/ids");
const comparisonRoute = await import("@/app/api/v1/comparison-analyses/route");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { createMonitor } = await import("@/lib/monitors/create");
const { observeFinishedRun, readingsKept } = await import("@/lib/visibility/run-observations");

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const onPostgres = !args.includes("--pglite");
const ROUNDS = option("--rounds", 3);
const BATCHES = 10;
const RUNS_PER_BATCH = option("--runs-per-batch", 1000);
const SOURCES = 15;
const ENGINES = ["chatgpt", "chatgpt_app"] as const;

const bench = await openBenchDatabase(onPostgres);
const db = bench.database.prisma;
// Run r answers prompt r % 200 (its answer, names and order drawn anew for each run), on
// chatgpt for r in 0-199, 400-599, … and chatgpt_app for r in 200-399, …: every prompt on both
// engines (r % 2 would put the even prompts on one engine and the odd on the other). The app's
// searches differ from the API's but for the prompt itself.
const runs = buildRuns(BATCHES * RUNS_PER_BATCH).map((r, i) => {
  const engine = ENGINES[Math.floor(i / 200) % 2]!;
  return { ...r, engine, search_queries: engine === "chatgpt" ? r.search_queries : [r.search_queries[0]!, `${r.search_queries[0]} reddit`, `${r.search_queries[0]} 2026`] };
});
const bytes = runs.reduce((s, r) => s + Buffer.byteLength(r.answer ?? ""), 0);
console.log(
  `workload: ${runs.length} runs (${runs.length / 2} on each of ${ENGINES.join(" and ")}) × ${entities.length} entities in ${BATCHES} batches, answers ${(bytes / runs.length / 1024).toFixed(2)} KB on average, ${SOURCES} sources a run; ${ROUNDS} rounds, ${bench.label}`,
);
console.log(`machine: ${machine()}; load ${loadAverage()}`);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
const workspaceId = user.personalWorkspaceId;
const project = (await createProject(principal, { name: "Comparison", workspace_id: workspaceId, context: null })).id;
const key = (await issueApiKey(user.id, workspaceId, "bench")).key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

/** A run's stored result: the answer, its searches and its sources, cited ones first. */
const resultOf = (r: VisibilityRunInput) => {
  const sources = Array.from({ length: SOURCES }, (_, i) => {
    const url = r.cited_urls[i] ?? `https://site${(i * 7 + r.prompt.length) % 200}.com/page/${i}`;
    return { url, raw_url: url, resolution: "direct", domain: new URL(url).hostname.replace(/^www\./, ""), cited: i < r.cited_urls.length, search_query_observed: true, retrieval_observed: null, domain_hint: null, title: null, citation_count: i < r.cited_urls.length ? 1 : 0 };
  });
  const searches = r.search_queries.map((query, i) => ({ query, position: i + 1, search_call: 1, provider_search_id: null }));
  return JSON.stringify({ answer: r.answer, sources, searches, citations_exposed: true, searched: true, search_calls: 1, shown: true });
};

let t = performance.now();
const batchIds: string[] = [];
const runIds: string[] = [];
for (let b = 0; b < BATCHES; b++) {
  const batchId = newId("batch");
  batchIds.push(batchId);
  await db.batch.create({ data: { id: batchId, workspaceId, projectId: project, input: { prompt: "bench", engines: [...ENGINES], project } } });
  const part = runs.slice(b * RUNS_PER_BATCH, (b + 1) * RUNS_PER_BATCH);
  const ids = part.map(() => newId("run"));
  runIds.push(...ids);
  await db.$executeRawUnsafe(
    `INSERT INTO runs (id, kind, status, workspace_id, project_id, batch_id, engine, subject, input, result, citations_exposed, query_count, source_count, cited_count, created_at, updated_at, completed_at)
     SELECT r.id, 'prompt', 'completed', $1, $2, $3, r.engine, r.prompt,
            jsonb_build_object('prompt', r.prompt, 'engine', r.engine, 'project', $2::text),
            r.result::jsonb, true, 2, ${SOURCES}, r.cited, now(), now(), now()
     FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::int[]) AS r(id, engine, prompt, result, cited)`,
    workspaceId, project, batchId, ids, part.map((r) => r.engine), part.map((r) => r.prompt), part.map(resultOf), part.map((r) => r.cited_urls.length),
  );
}
await db.$executeRawUnsafe("ANALYZE runs");
console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
// The project's monitor tracks the bench's entities; each run read as the prompt-run job reads it when it finishes, four at a time.
await db.$transaction((tx) => recordPurchase(tx, { workspaceId, amountMicros: 1_000_000_000n }));
await createMonitor(principal, {
  project, prompts: [{ text: "best crm" }], engines: ["chatgpt"] as never, runs: 1,
  entities: entities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive })),
});
t = performance.now();
for (let i = 0; i < runIds.length; i += 4) await Promise.all(runIds.slice(i, i + 4).map((id) => observeFinishedRun(id)));
await db.$executeRawUnsafe("ANALYZE run_observations");
console.log(`${runIds.length} runs read as they finished in ${((performance.now() - t) / 1000).toFixed(1)} s`);

/** The floor: one statement reading the answers and the sources of the same runs, and nothing else. */
const FLOOR = defineStatement({
  label: "bench_comparison_floor",
  params: ["runs"],
  columns: { answer: text("r.result->>'answer'").nullable, sources: text("(r.result->'sources')::text").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[])`,
});
const floorOnce = async () => {
  const start = performance.now();
  const rows = await FLOOR.query(standalone(), { runs: arrayParam(runIds) });
  const ms = performance.now() - start;
  if (rows.length !== runIds.length) throw new Error(`the floor read ${rows.length} runs`);
  return ms;
};

const body = JSON.stringify({ ids: batchIds, a: ENGINES[0], b: ENGINES[1], entities });
let fresh = 0;
/** The same with an alias no answer contains, new on every call: nothing was read for these entities. */
const coldBody = () =>
  JSON.stringify({ ids: batchIds, a: ENGINES[0], b: ENGINES[1], entities: entities.map((e, i) => (i === 1 ? { ...e, aliases: [...e.aliases, `Pipedrive Edition ${++fresh} ${Date.now()}`] } : e)) });
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
type Made = { id: string; prompts_compared: number; rows: { name: string; diff: number }[]; order: { pairs: number }; sources: { jaccard: number | null } };
const post = async (request = body) => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const response = await comparisonRoute.POST(new Request("http://localhost/api/v1/comparison-analyses", { method: "POST", headers, body: request }));
  const text = await response.text();
  const ms = performance.now() - start;
  const cpuMs = cpuSince(cpu);
  if (response.status !== 201) throw new Error(`POST /comparison-analyses answered ${response.status}: ${text.slice(0, 300)}`);
  const analysis = JSON.parse(text) as Made;
  if (analysis.prompts_compared !== 200) throw new Error(`the comparison compared ${analysis.prompts_compared} prompts, not the 200 both engines answered`);
  return { ms, cpuMs, text, analysis };
};

// A warm-up of each (plans, JIT), then the rounds: the floor and the comparison alternate.
await floorOnce();
await post();
await post(coldBody());
await readingsKept();
const floors: number[] = [];
const times: number[] = [];
const cpus: number[] = [];
const coldTimes: number[] = [];
const coldCpus: number[] = [];
let size = "";
let digest = "";
for (let round = 1; round <= ROUNDS; round++) {
  const floor = await floorOnce();
  floors.push(floor);
  const { ms, cpuMs, text, analysis } = await post();
  times.push(ms);
  cpus.push(cpuMs);
  const cold = await post(coldBody());
  coldTimes.push(cold.ms);
  coldCpus.push(cold.cpuMs);
  // The readings it keeps after answering, kept before the next measure (not timed: the answer was).
  await readingsKept();
  const figures = (a: Made) => JSON.stringify([a.rows, a.sources, a.order]);
  if (figures(cold.analysis) !== figures(analysis)) throw new Error("the comparison read now differs from the one from kept readings");
  // The figures without ids or times: the same on every commit that computes the same comparison.
  if (round === 1) digest = createHash("sha256").update(figures(analysis)).digest("hex").slice(0, 16);
  size = `${analysis.prompts_compared} prompts compared, ${analysis.order.pairs} run pairs, ${(text.length / 1024).toFixed(0)} KiB`;
  console.log(`round ${round}: POST ${ms.toFixed(0)} ms, cpu ${cpuMs.toFixed(0)} ms (floor ${floor.toFixed(0)} ms, ${(ms / floor).toFixed(2)}x); for new entities ${cold.ms.toFixed(0)} ms, cpu ${cold.cpuMs.toFixed(0)} ms; ${size}; load ${loadAverage()}`);
}
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
const post500 = median(times);
const ratio = post500 / median(floors);
const coldMedian = median(coldTimes);
const coldRatio = coldMedian / median(floors);
console.log(`POST /comparison-analyses (${runs.length} runs × ${ENGINES.length} engines × ${entities.length} entities; ${size}), runs read as they finished, ms: median ${spread(times, 0)} over ${ROUNDS} rounds; CPU of this process ${spread(cpus, 0)} (the database's is apart)`);
console.log(`POST /comparison-analyses for entities nothing was read for (every answer read now), ms: median ${spread(coldTimes, 0)}; CPU ${spread(coldCpus, 0)}; ${coldRatio.toFixed(2)}x the floor`);
console.log(`floor (one SELECT of the same ${runs.length} answer texts and sources), ms: median ${spread(floors, 0)}; ratio of the medians ${ratio.toFixed(2)}x`);
console.log(`digest of the figures (rows, sources, order): ${digest}`);
console.log(`machine: ${machine()}; load ${loadAverage()}`);
const target = onPostgres ? "target: PostgreSQL" : "(not a target: PGlite)";
console.log(`${target} POST /comparison-analyses ${runs.length} runs × ${ENGINES.length} engines × ${entities.length} entities, runs read as they finished, median ${post500.toFixed(0)} ms (goal < 500 ms), ${ratio.toFixed(2)}x the floor (goal <= 3x): ${verdict(post500 < 500 && ratio <= 3)}`);
console.log(`${target} POST /comparison-analyses ${runs.length} runs × ${ENGINES.length} engines × ${entities.length} entities, for entities nothing was read for, median ${coldMedian.toFixed(0)} ms (goal < 500 ms), ${coldRatio.toFixed(2)}x the floor (goal <= 3x): ${verdict(coldMedian < 500 && coldRatio <= 3)}`);
await bench.close();
