// Benchmark: a project's monitor overview (GET /projects/{id}/monitor-overview's service,
// lib/monitors/read.ts) on PostgreSQL: a project of 10 monitors, each a year of daily ticks of
// 5 entities on 3 engines (figures for "all" and each engine), among 20 other projects' monitors
// of the same size, read through the caller's access (the project, its monitors, every cell's
// figures: three statements), beside the bare figures statement sent through pg with its rows
// left as arrays of text. Median of the rounds with their spread, and the machine.
// Run: npm run bench:overview [-- --rounds N] [--monitors N] [--ticks N]
import { loadAverage, machine } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment, summary } from "./lib/setup";

simulatedEnvironment();
const args = process.argv.slice(2);
const numberArg = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROUNDS = numberArg("rounds", 3);
const MONITORS = numberArg("monitors", 10);
const TICKS = numberArg("ticks", 365);
const OTHERS = 20;
const READS_PER_ROUND = 20;
const ENTITIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"];

const { ensureUser } = await import("@/lib/accounts/users");
const { createProject } = await import("@/lib/projects/create");
const { createMonitor } = await import("@/lib/monitors/create");
const { monitorOverview, OVERVIEW_FIGURES } = await import("@/lib/monitors/read");

const bench = await openBenchDatabase(true);
const pool = bench.database.pool!;
console.log(`workload: ${MONITORS} monitors in the project read (${OTHERS} in other projects), each ${TICKS} daily ticks of ${ENTITIES.length} entities × (3 engines + all); ${ROUNDS} rounds of ${READS_PER_ROUND} reads; ${bench.label}`);
console.log(`machine: ${machine()}; load average ${loadAverage()}`);

const user = await ensureUser("bench-overview@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
const entities = ENTITIES.map((name, i) => ({ name, role: i === 0 ? ("brand" as const) : ("competitor" as const) }));
const projectOf = async (name: string) => (await createProject(principal, { name, workspace_id: user.personalWorkspaceId, context: null })).id;
const target = await projectOf("Overview");
const other = await projectOf("Other");

async function monitorWithYear(project: string, i: number) {
  const m = await createMonitor(principal, { project, name: `monitor ${i}`, prompts: [{ text: "best crm" }], engines: ["chatgpt", "claude", "gemini"], runs: 3, entities });
  await pool.query(
    `INSERT INTO monitor_ticks (id, monitor_id, workspace_id, version, scheduled_for, trigger, status, created_at, completed_at)
     SELECT $1 || lpad(d::text, 6, '0'), m.id, m.workspace_id, 1, timestamp '2025-11-26 06:00' + d * interval '1 day', 'schedule', 'completed',
       timestamp '2025-11-26 06:00' + d * interval '1 day', timestamp '2025-11-26 06:05' + d * interval '1 day'
     FROM monitors m, generate_series(0, $2::int - 1) d WHERE m.id = $3`,
    [`mt_${m.id.slice(3)}_`, TICKS, m.id],
  );
  await pool.query(
    `INSERT INTO monitor_tick_figures (tick_id, monitor_id, version, at, entity_index, entity, engine, cells, runs, runs_mentioning, share_of_voice_n,
       runs_citing, runs_top3, position_sum, position_sum_squares, average_position, average_position_low, average_position_high, counted)
     SELECT t.id, t.monitor_id, 1, t.scheduled_for, e.i - 1, e.name, g.engine, ${ENTITIES.length * 4}, g.runs, r.m, g.runs, r.m / 2, r.m, r.m * e.i, r.m * e.i * e.i,
       CASE WHEN r.m > 0 THEN e.i END, CASE WHEN r.m > 0 THEN e.i - 0.2 END, CASE WHEN r.m > 0 THEN e.i + 0.2 END, true
     FROM monitor_ticks t
     CROSS JOIN unnest($2::text[]) WITH ORDINALITY e(name, i)
     CROSS JOIN (VALUES ('all', 9), ('chatgpt', 3), ('claude', 3), ('gemini', 3)) g(engine, runs)
     CROSS JOIN LATERAL (SELECT floor(random() * (g.runs + 1))::int AS m) r
     WHERE t.monitor_id = $1`,
    [m.id, `{${ENTITIES.join(",")}}`],
  );
}
for (let i = 0; i < MONITORS; i++) await monitorWithYear(target, i);
for (let i = 0; i < OTHERS; i++) await monitorWithYear(other, i);
await pool.query("ANALYZE monitor_ticks");
await pool.query("ANALYZE monitor_tick_figures");

const figuresText = OVERVIEW_FIGURES.render({ project: true });
const plan = await pool.query<{ "QUERY PLAN": string }>({ text: `EXPLAIN ${figuresText.text}`, values: [target] });
console.log(`figures read plan: ${plan.rows.map((r) => r["QUERY PLAN"].trim()).join(" / ")}`);

const timed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const oursMs: number[] = [];
const floorMs: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const ours: number[] = [];
  const floor: number[] = [];
  let monitors = 0;
  let rows = 0;
  for (let i = 0; i < READS_PER_ROUND; i++) {
    ours.push(await timed(async () => (monitors = (await monitorOverview(principal, target)).monitors.length)));
    floor.push(await timed(async () => (rows = (await pool.query({ name: `bare_${figuresText.name}`, text: figuresText.text, values: [target], rowMode: "array" })).rows.length)));
  }
  if (monitors !== MONITORS || rows !== MONITORS * ENTITIES.length * 14) throw new Error(`the overview read ${monitors} monitors (${rows} figure rows)`);
  oursMs.push(medianOf(ours));
  floorMs.push(medianOf(floor));
  console.log(`round ${round}: the overview ${oursMs.at(-1)!.toFixed(2)} ms (bare figures SQL ${floorMs.at(-1)!.toFixed(2)} ms, median of ${READS_PER_ROUND}; ${rows} figure rows)`);
}
console.log(`a ${MONITORS}-monitor overview, ms: ${summary(oursMs)}; bare figures SQL ${summary(floorMs)}; ratio ${summary(oursMs.map((v, i) => v / floorMs[i]!))}`);
console.log(`load average after: ${loadAverage()}`);
await bench.close();
