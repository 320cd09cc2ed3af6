// Benchmark: POST /visibility-analyses over 10,000 completed prompt runs × 5 tracked entities (10
// batches of 1,000 runs; answers of 1.5-3 KB like the simulator's, built by bench/lib/
// visibility-answers.ts, each stored in a result with its searches and 15 sources, and the cited
// ones in run_sources, as finishRun stores them), through the route handler in process, beside a
// floor measured in the same rounds: ONE SELECT reading the same answer texts and nothing else.
// Target (decisions.md "Visibility analyses"): within 2x the floor and under 1 s, on PostgreSQL.
// Each round also reads the analysis back (GET /analyses/{id}) and a page of its mentions.
// Prints each round, the median of the rounds with their spread, the cores and the load.
// Run: npm run bench:visibility [-- --pglite] [--rounds N] [--runs-per-batch N]
import { arrayParam, defineStatement, text } from "@/lib/db/statement";
import { standalone } from "@/lib/db/sql";
import { loadAverage, machine, median, spread } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment } from "./lib/setup";
import { buildRuns, entities } from "./lib/visibility-answers";

simulatedEnvironment();

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { createProject } = await import("@/lib/projects/projects");
const { newId } = await import("@/lib/db/ids");
const visibilityRoute = await import("@/app/api/v1/visibility-analyses/route");
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

// Seeded a batch at a time, each table in one statement: the runs with their results (the answer,
// its searches and its sources, cited ones first) and run_sources with the same sources.
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
  const sourcesOf = (r: (typeof part)[number]) =>
    Array.from({ length: SOURCES }, (_, i) => {
      const url = r.cited_urls[i] ?? `https://site${(i * 7 + r.prompt.length) % 200}.com/page/${i}`;
      return { url, raw_url: url, resolution: "direct", domain: new URL(url).hostname.replace(/^www\./, ""), cited: i < r.cited_urls.length, search_query_observed: true, retrieval_observed: null, domain_hint: null, title: null, citation_count: i < r.cited_urls.length ? 1 : 0 };
    });
  const results = part.map((r) =>
    JSON.stringify({
      answer: r.answer,
      sources: sourcesOf(r),
      searches: r.search_queries.map((query, i) => ({ query, position: i + 1, search_call: 1, provider_search_id: null })),
      citations_exposed: true,
      searched: true,
      search_calls: 1,
    }),
  );
  await db.$executeRawUnsafe(
    `INSERT INTO runs (id, kind, status, workspace_id, project_id, batch_id, engine, subject, input, result, citations_exposed, query_count, source_count, cited_count, created_at, updated_at, completed_at)
     SELECT r.id, 'prompt', 'completed', $1, $2, $3, r.engine, r.prompt,
            jsonb_build_object('prompt', r.prompt, 'engine', r.engine, 'project', $2::text) || CASE WHEN r.country IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('location', jsonb_build_object('country', r.country)) END,
            r.result::jsonb, true, 2, ${SOURCES}, r.cited, now(), now(), now()
     FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[]) AS r(id, engine, prompt, country, result, cited)`,
    workspaceId, project, batchId, ids, part.map((r) => r.engine), part.map((r) => r.prompt), part.map((r) => r.country), results, part.map((r) => r.cited_urls.length),
  );
  await db.$executeRawUnsafe(
    `INSERT INTO run_sources (run_id, position, workspace_id, engine, prompt_hash, url, domain, cited, search_query_observed, retrieval_observed, citation_count, resolution)
     SELECT r.id, (s.ord - 1)::int, r.workspace_id, r.engine, encode(sha256(convert_to(r.subject, 'UTF8')), 'hex'), s.src->>'url', s.src->>'domain',
            (s.src->>'cited')::boolean, true, NULL, (s.src->>'citation_count')::int, 'direct'
     FROM runs r CROSS JOIN LATERAL jsonb_array_elements(r.result->'sources') WITH ORDINALITY AS s(src, ord)
     WHERE r.batch_id = $1`,
    batchId,
  );
}
await db.$executeRawUnsafe("ANALYZE runs");
await db.$executeRawUnsafe("ANALYZE run_sources");
console.log(`seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

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
/** CPU time of this process (every thread: the request thread and the two visibility workers) since `since`, in ms. */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const post = async () => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const response = await visibilityRoute.POST(new Request("http://localhost/api/v1/visibility-analyses", { method: "POST", headers, body }));
  const text = await response.text();
  const ms = performance.now() - start;
  const cpuMs = cpuSince(cpu);
  if (response.status !== 201) throw new Error(`POST /visibility-analyses answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms, cpuMs, text, analysis: JSON.parse(text) as { id: string; totals: { runs: number; mentions: number } } };
};

// A warm-up of each (plans, JIT), then the rounds: the floor and the analysis alternate.
await floorOnce();
await post();
const floors: number[] = [];
const times: number[] = [];
const cpus: number[] = [];
const reads: number[] = [];
const pages: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const floor = await floorOnce();
  floors.push(floor);
  const { ms, cpuMs, text, analysis } = await post();
  times.push(ms);
  cpus.push(cpuMs);
  t = performance.now();
  const read = await analysisRoute.GET(new Request(`http://localhost/api/v1/analyses/${analysis.id}`, { headers }), { params: Promise.resolve({ analysis_id: analysis.id }) });
  const readText = await read.text();
  reads.push(performance.now() - t);
  if (readText.length !== text.length) throw new Error("GET /analyses/{id} answered another body");
  t = performance.now();
  const page = await mentionsRoute.GET(new Request(`http://localhost/api/v1/analyses/${analysis.id}/mentions?entity=Monday&limit=50`, { headers }), {
    params: Promise.resolve({ analysis_id: analysis.id }),
  });
  await page.text();
  pages.push(performance.now() - t);
  console.log(
    `round ${round}: POST ${ms.toFixed(0)} ms, cpu ${cpuMs.toFixed(0)} ms in this process's threads (floor ${floor.toFixed(0)} ms, ${(ms / floor).toFixed(2)}x); ${analysis.totals.runs} runs, ${analysis.totals.mentions} mentions, ${(text.length / 1024).toFixed(0)} KiB; ` +
      `GET /analyses/{id} ${reads.at(-1)!.toFixed(1)} ms; a page of mentions ${pages.at(-1)!.toFixed(1)} ms; load ${loadAverage()}`,
  );
}
console.log(`POST /visibility-analyses (${runs.length} runs × ${entities.length} entities), ms: median ${spread(times, 0)} over ${ROUNDS} rounds   target < 1000 and < 2x the floor`);
console.log(`POST's CPU time in this process (the request thread and the two workers; the database's is apart), ms: median ${spread(cpus, 0)}`);
console.log(`floor (one SELECT of the same ${runs.length} answer texts), ms: median ${spread(floors, 0)}`);
console.log(`ratio of the medians: ${(median(times) / median(floors)).toFixed(2)}x the floor`);
console.log(`GET /analyses/{id} of that analysis, ms: median ${spread(reads, 1)}; a page of 50 mentions, ms: median ${spread(pages, 1)}`);
console.log(`machine: ${machine()}; load ${loadAverage()}`);
await bench.close();
