// Benchmark: the targets of #44 for visibility analyses (decisions.md "Visibility analyses"), each
// the median of the rounds with its spread, each ending in one `target: ... met` or `NOT met` line
// as bench:api's do:
//   1. POST /visibility-analyses over 10,000 completed prompt runs × 5 tracked entities (10 batches
//      of 1,000 runs; answers of 1.5-3 KB like the simulator's, built by bench/lib/
//      visibility-answers.ts, each stored in a result with its searches and 15 sources, and the
//      cited ones in run_sources, as finishRun stores them), through the route handler in process,
//      beside a floor measured in the same rounds: ONE SELECT reading the same answer texts and
//      nothing else. Target: under 500 ms and within 3x the floor, on PostgreSQL. Measured twice:
//      with the runs read as they finished (each read as the prompt-run job reads it, for the
//      entities of the project's monitor, the bench's: lib/visibility/run-observations.ts), and
//      for entities nothing was read for (the same with an alias no answer contains, new each
//      time: every answer read now); the two must give the same figures.
//   2. GET /analyses/{id} of that analysis beside GET /analyses/{id} of a citation analysis of the
//      same runs: each presented from its row (the remembered bodies dropped, as another instance
//      answers it), then remembered. Target: as fast as the citation analysis (both medians within
//      1.25x of the citation's: rounds on a shared machine differ by more than that).
//   3. A monitor tick's analysis (lib/monitors/analysis.ts analyseTick: the visibility analysis of
//      the tick's 500-prompt × 3-engine × 3-run fanout with the monitor's 5 entities, and the
//      tick's series figures, in one transaction), its 4,500 runs answered like the others.
//      Target: under 100 ms. A tick's analysis is stored without a body and presented when first
//      read: that first GET is printed too (no target), and the GET served again.
// Also a page of the analysis's mentions. Prints each round, the cores and the load, and a digest
// of the analysis's figures and of its first 200 mentions (the same workload gives the same
// digest on every commit that computes the same analysis: a check that a speed-up changed nothing).
// With --cores (PostgreSQL), then the reading of a POST for new entities alone in this thread, in
// this thread and a worker thread reading its half from the database itself, and in two workers.
// Run: npm run bench:visibility [-- --pglite] [--rounds N] [--runs-per-batch N] [--cores]
import { createHash } from "node:crypto";
import { arrayParam, defineStatement, text } from "@/lib/db/statement";
import { standalone } from "@/lib/db/sql";
import { loadAverage, machine, median, spread } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment } from "./lib/setup";
import { benchPrompts, buildRuns, entities } from "./lib/visibility-answers";
import type { VisibilityRunInput } from "@/lib/visibility";

simulatedEnvironment();
const TICK = { prompts: 500, engines: ["chatgpt", "claude", "gemini"], runs: 3 };
process.env.FANOUT_MAX_EXECUTIONS = String(TICK.prompts * TICK.engines.length * TICK.runs);

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { createProject } = await import("@/lib/projects/create");
const { newId } = await import("@/lib/db/ids");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { createMonitor, runMonitor } = await import("@/lib/monitors/create");
const { analyseTick } = await import("@/lib/monitors/analysis");
const { observeFinishedRun, readingsKept } = await import("@/lib/visibility/run-observations");
const { LocalDriver, installJobs } = await import("@/lib/work/local-driver");
// The jobs a server installs at start (lib/work/start.ts).
installJobs((await import("@/lib/work/registry")).registeredJobs());
const visibilityRoute = await import("@/app/api/v1/visibility-analyses/route");
const citationsRoute = await import("@/app/api/v1/citation-analyses/route");
const analysisRoute = await import("@/app/api/v1/analyses/[analysis_id]/route");
const mentionsRoute = await import("@/app/api/v1/analyses/[analysis_id]/mentions/route");

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

const bench = await openBenchDatabase(onPostgres);
const db = bench.database.prisma;
const runs = buildRuns(BATCHES * RUNS_PER_BATCH);
const bytes = runs.reduce((s, r) => s + Buffer.byteLength(r.answer ?? ""), 0);
console.log(
  `workload: ${runs.length} runs × ${entities.length} entities in ${BATCHES} batches, answers ${(bytes / runs.length / 1024).toFixed(2)} KB on average, ${SOURCES} sources a run; ${ROUNDS} rounds, ${bench.label}`,
);
console.log(`machine: ${machine()}; load ${loadAverage()}`);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
const workspaceId = user.personalWorkspaceId;
const project = (await createProject(principal, { name: "Visibility", workspace_id: workspaceId, context: null })).id;
const key = (await issueApiKey(user.id, workspaceId, "bench")).key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

/** A run's stored result: the answer, its searches and its sources, cited ones first. */
const resultOf = (r: VisibilityRunInput) => {
  const sources = Array.from({ length: SOURCES }, (_, i) => {
    const url = r.cited_urls[i] ?? `https://site${(i * 7 + r.prompt.length) % 200}.com/page/${i}`;
    return { url, raw_url: url, resolution: "direct", domain: new URL(url).hostname.replace(/^www\./, ""), cited: i < r.cited_urls.length, search_query_observed: true, retrieval_observed: null, domain_hint: null, title: null, citation_count: i < r.cited_urls.length ? 1 : 0 };
  });
  const searches = r.search_queries.map((query, i) => ({ query, position: i + 1, search_call: 1, provider_search_id: null }));
  return JSON.stringify({ answer: r.answer, sources, searches, citations_exposed: true, searched: true, search_calls: 1 });
};

/** run_sources of the runs of a batch or fanout, from their results' sources (as finishRun writes them). */
const insertRunSources = (column: "batch_id" | "fanout_id", id: string) =>
  db.$executeRawUnsafe(
    `INSERT INTO run_sources (run_id, position, workspace_id, engine, prompt_hash, url, domain, cited, search_query_observed, retrieval_observed, citation_count, resolution)
     SELECT r.id, (s.ord - 1)::int, r.workspace_id, r.engine, encode(sha256(convert_to(r.subject, 'UTF8')), 'hex'), s.src->>'url', s.src->>'domain',
            (s.src->>'cited')::boolean, true, NULL, (s.src->>'citation_count')::int, 'direct'
     FROM runs r CROSS JOIN LATERAL jsonb_array_elements(r.result->'sources') WITH ORDINALITY AS s(src, ord)
     WHERE r.${column} = $1`,
    id,
  );

// Seeded a batch at a time, each table in one statement: the runs with their results and
// run_sources with the same sources.
let t = performance.now();
const batchIds: string[] = [];
const runIds: string[] = [];
for (let b = 0; b < BATCHES; b++) {
  const batchId = newId("batch");
  batchIds.push(batchId);
  await db.batch.create({ data: { id: batchId, workspaceId, projectId: project, input: { prompt: "bench", engines: ["chatgpt", "claude", "gemini"], project } } });
  const part = runs.slice(b * RUNS_PER_BATCH, (b + 1) * RUNS_PER_BATCH);
  const ids = part.map(() => newId("run"));
  runIds.push(...ids);
  const results = part.map(resultOf);
  await db.$executeRawUnsafe(
    `INSERT INTO runs (id, kind, status, workspace_id, project_id, batch_id, engine, subject, input, result, citations_exposed, query_count, source_count, cited_count, created_at, updated_at, completed_at)
     SELECT r.id, 'prompt', 'completed', $1, $2, $3, r.engine, r.prompt,
            jsonb_build_object('prompt', r.prompt, 'engine', r.engine, 'project', $2::text) || CASE WHEN r.country IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('location', jsonb_build_object('country', r.country)) END,
            r.result::jsonb, true, 2, ${SOURCES}, r.cited, now(), now(), now()
     FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[]) AS r(id, engine, prompt, country, result, cited)`,
    workspaceId, project, batchId, ids, part.map((r) => r.engine), part.map((r) => r.prompt), part.map((r) => r.country), results, part.map((r) => r.cited_urls.length),
  );
  await insertRunSources("batch_id", batchId);
}
// The monitor's tick: its fanout started by runMonitor (its run jobs accepted by a driver that
// starts none), then its 4,500 runs completed with answers to their own prompts, prompt i's nine
// runs answered by built runs i, i + 500, ... (buildRuns answers prompts[r % 500]).
(globalThis as { __geoscopeLocalDriver?: InstanceType<typeof LocalDriver> }).__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
await db.$transaction((tx) => recordPurchase(tx, { workspaceId, amountMicros: 1_000_000_000_000n }));
const tickPrompts = benchPrompts(TICK.prompts);
const monitor = await createMonitor(principal, {
  project, prompts: tickPrompts.map((text) => ({ text })), engines: TICK.engines as never, runs: TICK.runs,
  entities: entities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive })),
});
const tick = await runMonitor(principal, monitor.id);
const fanoutId = (await db.monitorTick.findUniqueOrThrow({ where: { id: tick.id } })).fanoutId!;
const tickRuns = await db.run.findMany({ where: { fanoutId }, select: { id: true, fanoutPromptIndex: true }, orderBy: [{ fanoutPromptIndex: "asc" }, { engine: "asc" }, { runIndex: "asc" }] });
const tickAnswers = buildRuns(tickRuns.length, tickPrompts);
const seen = new Map<number, number>();
const tickResults = tickRuns.map((r) => {
  const i = r.fanoutPromptIndex!;
  const j = seen.get(i) ?? 0;
  seen.set(i, j + 1);
  return tickAnswers[i + TICK.prompts * j]!;
});
await db.$executeRawUnsafe(
  `UPDATE runs SET status = 'completed', result = x.result::jsonb, citations_exposed = true, query_count = 2, source_count = ${SOURCES}, cited_count = x.cited, completed_at = now(), updated_at = now()
   FROM unnest($1::text[], $2::text[], $3::int[]) AS x(id, result, cited) WHERE runs.id = x.id`,
  tickRuns.map((r) => r.id), tickResults.map(resultOf), tickResults.map((r) => r.cited_urls.length),
);
await insertRunSources("fanout_id", fanoutId);
await db.$executeRawUnsafe("ANALYZE runs");
await db.$executeRawUnsafe("ANALYZE run_sources");
console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
// Each run read as the prompt-run job reads it when it finishes (lib/visibility/run-observations.ts):
// for the project's active monitor's entities, the bench's. Four at a time, as four runs finishing.
t = performance.now();
const finished = [...runIds, ...tickRuns.map((r) => r.id)];
for (let i = 0; i < finished.length; i += 4) await Promise.all(finished.slice(i, i + 4).map((id) => observeFinishedRun(id)));
await db.$executeRawUnsafe("ANALYZE run_observations");
console.log(`${finished.length} runs read as they finished in ${((performance.now() - t) / 1000).toFixed(1)} s (${(((performance.now() - t) / finished.length) * 4).toFixed(2)} ms a run, four at a time)`);

/** The floor: one statement reading the answers of the same runs, and nothing else. */
const ANSWERS = defineStatement({
  label: "bench_visibility_floor",
  params: ["runs"],
  columns: { answer: text("r.result->>'answer'").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[])`,
});
const floorOnce = async () => {
  const start = performance.now();
  const rows = await ANSWERS.query(standalone(), { runs: arrayParam(runIds) });
  const ms = performance.now() - start;
  if (rows.length !== runIds.length) throw new Error(`the floor read ${rows.length} answers`);
  return ms;
};

const body = JSON.stringify({ ids: batchIds, entities });
/**
 * The same entities with an alias no answer contains, new on every call: an analysis for entities
 * nothing was read for (every answer read now), whose figures are the same as the others'.
 */
let fresh = 0;
const coldBody = () => JSON.stringify({ ids: batchIds, entities: entities.map((e, i) => (i === 1 ? { ...e, aliases: [...e.aliases, `Pipedrive Edition ${++fresh} ${Date.now()}`] } : e)) });
/** CPU time of this process since `since`, in ms. */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const post = async (request = body) => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const response = await visibilityRoute.POST(new Request("http://localhost/api/v1/visibility-analyses", { method: "POST", headers, body: request }));
  const text = await response.text();
  const ms = performance.now() - start;
  const cpuMs = cpuSince(cpu);
  if (response.status !== 201) throw new Error(`POST /visibility-analyses answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, cpuMs, text, analysis: JSON.parse(text) as { id: string; totals: { runs: number; mentions: number }; rows: { name: string }[] } };
};

/** GET /analyses/{id}, checked to answer `length` characters (any when null): presented from its row (`fromRow`, the remembered bodies dropped) or as served again. */
const getAnalysis = async (id: string, length: number | null, fromRow: boolean) => {
  if (fromRow) delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
  const start = performance.now();
  const read = await analysisRoute.GET(new Request(`http://localhost/api/v1/analyses/${id}`, { headers }), { params: Promise.resolve({ analysis_id: id }) });
  const text = await read.text();
  const ms = performance.now() - start;
  if (read.status !== 200 || (length !== null && text.length !== length)) throw new Error(`GET /analyses/${id} answered ${read.status} with ${text.length} characters, not ${length}`);
  return ms;
};

// The citation analysis of the same runs, the GET's comparison.
const cited = await citationsRoute.POST(new Request("http://localhost/api/v1/citation-analyses", { method: "POST", headers, body: JSON.stringify({ ids: batchIds, brands: ["HubSpot"], domains: ["hubspot.com"] }) }));
const citedText = await cited.text();
if (cited.status !== 201) throw new Error(`POST /citation-analyses answered ${cited.status}: ${citedText.slice(0, 300)}`);
const citationId = (JSON.parse(citedText) as { id: string }).id;

/** The tick's analysis made again from nothing: its analysis_id and figures cleared, then analyseTick timed. */
const analyseTickOnce = async () => {
  await db.$executeRawUnsafe(`UPDATE monitor_ticks SET analysis_id = NULL WHERE id = $1`, tick.id);
  await db.$executeRawUnsafe(`DELETE FROM monitor_tick_figures WHERE tick_id = $1`, tick.id);
  const start = performance.now();
  const id = await analyseTick(tick.id);
  const ms = performance.now() - start;
  if (!id) throw new Error("the tick's analysis was not made");
  return { ms, id };
};

// A warm-up of each (plans, JIT), then the rounds: the floor and the analysis alternate.
await floorOnce();
const warm = await post();
await post(coldBody());
await readingsKept();
await getAnalysis(warm.analysis.id, warm.text.length, true);
await getAnalysis(citationId, citedText.length, true);
await analyseTickOnce();
const floors: number[] = [];
const times: number[] = [];
const cpus: number[] = [];
const coldTimes: number[] = [];
const coldCpus: number[] = [];
const reads = { visibility: [] as number[], citation: [] as number[], visibilityAgain: [] as number[], citationAgain: [] as number[] };
const pages: number[] = [];
const ticks: number[] = [];
/** The tick's analyses, one a round, read after the rounds. */
const tickIds: string[] = [];
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
  // Read now or added up from kept readings, the figures are the same.
  if (JSON.stringify([cold.analysis.totals, cold.analysis.rows]) !== JSON.stringify([analysis.totals, analysis.rows])) throw new Error("the analysis read now differs from the one from kept readings");
  if (round === 1) {
    const { totals, rows, entities: used } = JSON.parse(text) as { totals: unknown; rows: unknown; entities: unknown };
    const first = await mentionsRoute.GET(new Request(`http://localhost/api/v1/analyses/${analysis.id}/mentions?limit=200`, { headers }), { params: Promise.resolve({ analysis_id: analysis.id }) });
    // Without the run ids, new on every seeding.
    const page = (JSON.parse(await first.text()) as { items: { run_id?: string }[] }).items.map(({ run_id: _, ...m }) => m);
    digest = createHash("sha256").update(JSON.stringify({ totals, rows, used, page })).digest("hex").slice(0, 16);
  }
  size = `${analysis.totals.runs} runs, ${analysis.totals.mentions} mentions, ${(text.length / 1024).toFixed(0)} KiB against the citation analysis's ${(citedText.length / 1024).toFixed(0)} KiB`;
  reads.visibility.push(await getAnalysis(analysis.id, text.length, true));
  reads.visibilityAgain.push(await getAnalysis(analysis.id, text.length, false));
  reads.citation.push(await getAnalysis(citationId, citedText.length, true));
  reads.citationAgain.push(await getAnalysis(citationId, citedText.length, false));
  t = performance.now();
  const page = await mentionsRoute.GET(new Request(`http://localhost/api/v1/analyses/${analysis.id}/mentions?entity=Monday&limit=50`, { headers }), {
    params: Promise.resolve({ analysis_id: analysis.id }),
  });
  await page.text();
  pages.push(performance.now() - t);
  const tickAnalysis = await analyseTickOnce();
  ticks.push(tickAnalysis.ms);
  tickIds.push(tickAnalysis.id);
  console.log(
    `round ${round}: POST ${ms.toFixed(0)} ms, cpu ${cpuMs.toFixed(0)} ms (floor ${floor.toFixed(0)} ms, ${(ms / floor).toFixed(2)}x); for new entities ${cold.ms.toFixed(0)} ms, cpu ${cold.cpuMs.toFixed(0)} ms; ${size}; ` +
      `GET from the row ${reads.visibility.at(-1)!.toFixed(1)} ms (citation analysis ${reads.citation.at(-1)!.toFixed(1)} ms), again ${reads.visibilityAgain.at(-1)!.toFixed(1)} ms (${reads.citationAgain.at(-1)!.toFixed(1)} ms); ` +
      `a page of mentions ${pages.at(-1)!.toFixed(1)} ms; the tick's analysis ${ticks.at(-1)!.toFixed(0)} ms; load ${loadAverage()}`,
  );
}
// GET of each round's tick analysis, after the rounds (so that they run as they did before ticks'
// analyses were presented when read): its first read, which presents it, then served again.
const tickReads = { first: [] as number[], again: [] as number[] };
for (const id of tickIds) {
  tickReads.first.push(await getAnalysis(id, null, true));
  tickReads.again.push(await getAnalysis(id, null, false));
}
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
const post500 = median(times);
const ratio = post500 / median(floors);
const coldMedian = median(coldTimes);
const coldRatio = coldMedian / median(floors);
console.log(`POST /visibility-analyses (${runs.length} runs × ${entities.length} entities; ${size}), runs read as they finished, ms: median ${spread(times, 0)} over ${ROUNDS} rounds; CPU of this process ${spread(cpus, 0)} (the database's is apart)`);
console.log(`POST /visibility-analyses for entities nothing was read for (every answer read now, the readings kept), ms: median ${spread(coldTimes, 0)}; CPU ${spread(coldCpus, 0)}; ${coldRatio.toFixed(2)}x the floor`);
console.log(`floor (one SELECT of the same ${runs.length} answer texts), ms: median ${spread(floors, 0)}; ratio of the medians ${ratio.toFixed(2)}x`);
console.log(`GET /analyses/{id} from the row, ms: visibility ${spread(reads.visibility, 1)}, citation analysis of the same runs ${spread(reads.citation, 1)}; served again: ${spread(reads.visibilityAgain, 1)} and ${spread(reads.citationAgain, 1)}`);
console.log(`a page of 50 mentions, ms: median ${spread(pages, 1)}`);
console.log(`a monitor tick's analysis (${TICK.prompts} prompts × ${TICK.engines.length} engines × ${TICK.runs} runs, ${entities.length} entities), ms: median ${spread(ticks, 0)}`);
console.log(`GET of the tick's analysis (stored without a body, presented when first read), ms: first ${spread(tickReads.first, 0)}, served again ${spread(tickReads.again, 1)}`);
console.log(`digest of the figures and the first 200 mentions: ${digest}`);
console.log(`machine: ${machine()}; load ${loadAverage()}`);
// The targets are PostgreSQL's: on PGlite the same lines say so instead of "target:".
const target = onPostgres ? "target: PostgreSQL" : "(not a target: PGlite)";
console.log(`${target} POST /visibility-analyses ${runs.length} runs × ${entities.length} entities, runs read as they finished, median ${post500.toFixed(0)} ms (goal < 500 ms), ${ratio.toFixed(2)}x the floor (goal <= 3x): ${verdict(post500 < 500 && ratio <= 3)}`);
console.log(`${target} POST /visibility-analyses ${runs.length} runs × ${entities.length} entities, for entities nothing was read for, median ${coldMedian.toFixed(0)} ms (goal < 500 ms), ${coldRatio.toFixed(2)}x the floor (goal <= 3x): ${verdict(coldMedian < 500 && coldRatio <= 3)}`);
const readRatio = median(reads.visibility) / median(reads.citation);
const againRatio = median(reads.visibilityAgain) / median(reads.citationAgain);
console.log(
  `${target} GET /analyses/{id} as fast as a citation analysis: from the row ${median(reads.visibility).toFixed(1)} ms against ${median(reads.citation).toFixed(1)} ms (${readRatio.toFixed(2)}x), ` +
    `served again ${median(reads.visibilityAgain).toFixed(1)} ms against ${median(reads.citationAgain).toFixed(1)} ms (${againRatio.toFixed(2)}x) (goal <= 1.25x both): ${verdict(readRatio <= 1.25 && againRatio <= 1.25)}`,
);
console.log(`${target} a monitor tick's analysis of ${TICK.prompts} × ${TICK.engines.length} × ${TICK.runs} runs median ${median(ticks).toFixed(0)} ms (goal < 100 ms): ${verdict(median(ticks) < 100)}`);

if (args.includes("--cores") && bench.url === null) console.log("--cores: on PostgreSQL only (a worker thread opens the database itself); skipped on PGlite");
if (args.includes("--cores") && bench.url !== null) {
  // Both cores, without copying the answers between threads (#44): the reading of a POST for new
  // entities alone (every answer read from the database in parts and matched as it arrives:
  // bench/lib/read-share.ts), in this thread for all the runs (and once read without the
  // matching), in this thread for half while a worker thread started beforehand reads the other
  // half from the database itself, and in two such workers; each beside the floor, with fresh
  // entities every time (nothing remembered).
  const { Worker } = await import("node:worker_threads");
  const { readShare } = await import("./lib/read-share");
  const { normalizeEntity } = await import("@/lib/visibility");
  // The batches' runs as the POST names them (what it reads before the answers, not timed here).
  const { runsOfOneProject } = await import("@/lib/analyses/runs");
  const { named } = await runsOfOneProject(principal, batchIds);
  let alias = 0;
  const freshEntities = () => entities.map((e, i) => normalizeEntity(i === 1 ? { ...e, aliases: [...e.aliases, `Pipedrive Cores ${++alias} ${Date.now()}`] } : e));
  let started = performance.now();
  const workers = [0, 1].map(() => new Worker(new URL("./lib/read-worker.mjs", import.meta.url), { workerData: { url: bench.url } }));
  const inWorker = (w: InstanceType<typeof Worker>, part: typeof named) =>
    new Promise<number>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      w.once("error", fail);
      w.once("message", (m: { length: number }) => {
        w.off("error", fail);
        resolve(m.length);
      });
      w.postMessage({ runs: part, entities: freshEntities() });
    });
  const half = Math.floor(named.length / 2);
  const halves = [named.slice(0, half), named.slice(half)] as const;
  const ways: Record<string, () => Promise<number | null>> = {
    "this thread, read and not matched": async () => {
      await readShare(named, freshEntities(), { match: false });
      return null;
    },
    "this thread": async () => (await readShare(named, freshEntities())).store.length,
    "this thread and a worker": async () => {
      const [a, b] = await Promise.all([readShare(halves[0], freshEntities()), inWorker(workers[0]!, halves[1])]);
      return a.store.length + b;
    },
    "two workers": async () => (await Promise.all([inWorker(workers[0]!, halves[0]), inWorker(workers[1]!, halves[1])])).reduce((x, y) => x + y, 0),
  };
  // The workers started: each has opened its connection and read a first 100 runs.
  await Promise.all(workers.map((w) => inWorker(w, named.slice(0, 100))));
  const startMs = performance.now() - started;
  // A warm-up of each way (every thread's compiler).
  for (const way of Object.values(ways)) await way();
  const timesOf = new Map(Object.keys(ways).map((k) => [k, [] as number[]]));
  const cpuOf = new Map(Object.keys(ways).map((k) => [k, [] as number[]]));
  const coreFloors: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    coreFloors.push(await floorOnce());
    for (const [name, way] of Object.entries(ways)) {
      started = performance.now();
      const cpu = process.cpuUsage();
      const mentions = await way();
      timesOf.get(name)!.push(performance.now() - started);
      cpuOf.get(name)!.push(cpuSince(cpu));
      if (mentions !== null && mentions !== warm.analysis.totals.mentions) throw new Error(`${name} found ${mentions} mentions, not ${warm.analysis.totals.mentions}`);
    }
  }
  await Promise.all(workers.map((w) => w.terminate()));
  console.log(`both cores? the reading of a POST for new entities alone (${named.length} answers read and matched), ms, median of ${ROUNDS} rounds (floor ${spread(coreFloors, 0)}; the two workers started, connected and through a first 100 runs in ${startMs.toFixed(0)} ms):`);
  for (const name of Object.keys(ways)) console.log(`  ${name}: ${spread(timesOf.get(name)!, 0)}, CPU of this process's threads ${spread(cpuOf.get(name)!, 0)}`);
}
await bench.close();
