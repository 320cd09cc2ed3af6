// Benchmark: monitors on PostgreSQL, each figure beside a floor measured in the same run.
//   1. The due-slot check (lib/monitors/ticks.ts DUE_MONITORS) with 10,000 monitors of which 100
//      are due, as the scheduler runs it (typed statement, rows decoded), beside the bare SQL: the
//      same text sent through pg as a named statement with the rows left as arrays of text.
//      Target: within 3x the floor and under 50 ms.
//   2. Claiming those 100 slots (ticks, next slots, jobs: one transaction), beside the same three
//      statements through pg in one transaction.
//   3. Making a 500-prompt × 3-engine × 3-run tick (startTick: the fanout, 4,500 runs, holds and
//      jobs) beside POST /fanouts of the same fanout (the route handler). Target: within 2x.
//   4. Reading a 365-tick series (GET /monitors/{id}/series's service: the monitor read through the
//      caller's access, then lib/monitors/series.ts SERIES_FIGURES, points and changes computed),
//      a year of daily ticks of 3 entities on 3 engines among 20 other such monitors, beside the
//      bare SQL: the series statement sent through pg with the rows left as arrays of text.
//      Target: within 3x the floor and under 50 ms.
// Median of the rounds with their spread, and the machine.
// Run: npm run bench:monitors [-- --rounds N] [--monitors N] [--due N] [--prompts N]
//      (smoke run: npm run bench:monitors -- --monitors 200 --due 10 --prompts 5)
import { machine, loadAverage } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment, summary } from "./lib/setup";

simulatedEnvironment();
const args = process.argv.slice(2);
const numberArg = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const ROUNDS = numberArg("rounds", 3);
const MONITORS = numberArg("monitors", 10_000);
const DUE = numberArg("due", 100);
const PROMPTS = numberArg("prompts", 500);
const ENGINES = ["chatgpt", "claude", "gemini"];
const RUNS = 3;
const CHECKS_PER_ROUND = 50;
process.env.FANOUT_MAX_EXECUTIONS = String(Math.max(1000, PROMPTS * ENGINES.length * RUNS));

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { standalone } = await import("@/lib/db/sql");
const { newId } = await import("@/lib/db/ids");
const { createProject } = await import("@/lib/projects/create");
const { createMonitor } = await import("@/lib/monitors/create");
const { CLAIM_BATCH, DUE_MONITORS, claimDueSlots, startTick } = await import("@/lib/monitors/ticks");
const { LocalDriver, installJobs } = await import("@/lib/work/local-driver");
// The jobs a server installs at start (lib/work/start.ts).
installJobs((await import("@/lib/work/registry")).registeredJobs());
const { SERIES_FIGURES } = await import("@/lib/monitors/series");
const { getSeries } = await import("@/lib/monitors/read");
const fanoutsRoute = await import("@/app/api/v1/fanouts/route");

const bench = await openBenchDatabase(true);
const prisma = bench.database.prisma;
const pool = bench.database.pool!;
console.log(`workload: ${MONITORS} monitors of which ${DUE} due; a tick of ${PROMPTS} prompts × ${ENGINES.length} engines × ${RUNS} runs; ${ROUNDS} rounds; ${bench.label}`);
console.log(`machine: ${machine()}; load average ${loadAverage()}`);

// Nothing runs: the jobs the ticks and fanouts queue are accepted by a driver that starts none.
(globalThis as { __geoscopeLocalDriver?: InstanceType<typeof LocalDriver> }).__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });

const user = await ensureUser("bench-monitors@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
await prisma.$transaction((tx) => recordPurchase(tx, { workspaceId: user.personalWorkspaceId, amountMicros: 1_000_000_000_000n }));
const project = (await createProject(principal, { name: "Monitors", workspace_id: user.personalWorkspaceId, context: { brands: ["Acme"], competitors: ["Globex"] } })).id;
const key = (await issueApiKey(user.id, user.personalWorkspaceId, "bench")).key;

// 1 and 2: the monitors, inserted in bulk as the service would store them; the first DUE due.
const template = await createMonitor(principal, { project, prompts: [{ text: "best crm" }], engines: ["gemini"], runs: 1 });
await pool.query(
  `INSERT INTO monitors (id, workspace_id, project_id, name, status, version, prompts, engines, runs_per_prompt, entities, schedule_every, schedule_minute,
     next_run_at, alerts, webhook_secret, created_by_user_id, created_at, updated_at)
   SELECT $1 || lpad(n::text, 8, '0'), m.workspace_id, m.project_id, m.name, 'active', 1, m.prompts, m.engines, 1, m.entities, 'day', 360,
     (now() AT TIME ZONE 'UTC') + interval '1 hour' + n * interval '1 second', m.alerts, m.webhook_secret, m.created_by_user_id, m.created_at, m.updated_at
   FROM monitors m, generate_series(1, $2::int - 1) n WHERE m.id = $3`,
  [`mo_01BENCH${"0".repeat(11)}`, MONITORS, template.id],
);
const makeDue = () =>
  pool.query(
    `UPDATE monitors SET next_run_at = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE id IN (SELECT id FROM monitors ORDER BY id LIMIT $1)`,
    [DUE],
  );
const reset = async () => {
  await pool.query(`DELETE FROM jobs WHERE job = 'start-tick'`);
  await pool.query(`DELETE FROM monitor_ticks`);
  await makeDue();
};
await reset();
await pool.query("ANALYZE monitors");

const dueText = DUE_MONITORS.render({ now: true, limit: true });
// The check's plan: an index scan of (status, next_run_at) that stops at the due ones.
const plan = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${dueText.text}`.replace("$1", `'${new Date().toISOString()}'`).replace("$2", String(CLAIM_BATCH)));
console.log(`due-slot check plan: ${plan.rows.map((r) => r["QUERY PLAN"].trim()).join(" / ")}`);
const checkMs: number[] = [];
const checkFloorMs: number[] = [];
const claimMs: number[] = [];
const claimFloorMs: number[] = [];
const timed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (let round = 1; round <= ROUNDS; round++) {
  const now = new Date();
  const ours: number[] = [];
  const floor: number[] = [];
  let found = 0;
  for (let i = 0; i < CHECKS_PER_ROUND; i++) {
    ours.push(await timed(async () => (found = (await DUE_MONITORS.query(standalone(), { now, limit: CLAIM_BATCH })).length)));
    floor.push(await timed(() => pool.query({ name: `bare_${dueText.name}`, text: dueText.text, values: [now.toISOString(), String(CLAIM_BATCH)], rowMode: "array" })));
  }
  if (found !== DUE) throw new Error(`the check found ${found} due monitors, not ${DUE}`);
  checkMs.push(medianOf(ours));
  checkFloorMs.push(medianOf(floor));

  // The claim: ours, then (after putting things back) the same statements by hand in one transaction.
  claimMs.push(await timed(() => claimDueSlots(now)));
  await reset();
  const due = (await pool.query<{ id: string }>(`SELECT id FROM monitors WHERE status = 'active' AND next_run_at <= (now() AT TIME ZONE 'UTC') ORDER BY next_run_at LIMIT $1`, [CLAIM_BATCH])).rows;
  const rows = due.map((m) => ({ id: newId("monitorTick"), monitor: m.id, version: 1, slot: now.toISOString(), next: new Date(now.getTime() + 86_400_000).toISOString() }));
  claimFloorMs.push(
    await timed(async () => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(`SELECT id FROM monitors WHERE status = 'active' AND next_run_at <= $1::timestamptz AT TIME ZONE 'UTC' ORDER BY next_run_at LIMIT $2`, [now.toISOString(), CLAIM_BATCH]);
        await client.query(
          `INSERT INTO monitor_ticks (id, monitor_id, workspace_id, version, scheduled_for, trigger, status, created_at)
           SELECT c.id, c.monitor, m.workspace_id, c.version, c.slot AT TIME ZONE 'UTC', 'schedule', 'queued', now()
           FROM jsonb_to_recordset($1::jsonb) AS c(id text, monitor text, version int, slot timestamptz) JOIN monitors m ON m.id = c.monitor
           ON CONFLICT (monitor_id, version, trigger, scheduled_for) DO NOTHING`,
          [JSON.stringify(rows)],
        );
        await client.query(
          `UPDATE monitors m SET next_run_at = c.next AT TIME ZONE 'UTC' FROM jsonb_to_recordset($1::jsonb) AS c(monitor text, next timestamptz) WHERE m.id = c.monitor`,
          [JSON.stringify(rows)],
        );
        await client.query(
          `INSERT INTO jobs (id, job, payload, status, updated_at) SELECT c.id, 'start-tick', jsonb_build_object('tick_id', c.id), 'queued', now()
           FROM jsonb_to_recordset($1::jsonb) AS c(id text) ON CONFLICT DO NOTHING`,
          [JSON.stringify(rows)],
        );
        await client.query("COMMIT");
      } finally {
        client.release();
      }
    }),
  );
  await reset();
  console.log(
    `round ${round}: due-slot check ${checkMs.at(-1)!.toFixed(2)} ms (bare SQL ${checkFloorMs.at(-1)!.toFixed(2)} ms, median of ${CHECKS_PER_ROUND}); ` +
      `claiming ${DUE} slots ${claimMs.at(-1)!.toFixed(1)} ms (bare SQL ${claimFloorMs.at(-1)!.toFixed(1)} ms)`,
  );
}

// 3. A large tick beside POST /fanouts of the same fanout.
const prompts = Array.from({ length: PROMPTS }, (_, i) => ({ text: `what is the best crm for team ${i}?` }));
const big = await createMonitor(principal, { project, prompts, engines: ENGINES as never, runs: RUNS });
await pool.query(`UPDATE monitors SET status = 'paused' WHERE id <> $1`, [big.id]);
const tickMs: number[] = [];
const postMs: number[] = [];
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
for (let round = 1; round <= ROUNDS; round++) {
  const body = JSON.stringify({ prompts, engines: ENGINES, runs: RUNS, project, name: `round ${round}` });
  let status = 0;
  postMs.push(await timed(async () => (status = (await fanoutsRoute.POST(new Request("http://localhost/api/v1/fanouts", { method: "POST", headers, body }))).status)));
  if (status !== 202) throw new Error(`POST /fanouts answered ${status}`);
  // The next slot of the big monitor, claimed at an injected time; its start timed alone.
  const slot = new Date(Date.parse(big.next_run_at) + (round - 1) * 86_400_000 + 1000);
  const [claimed] = (await claimDueSlots(slot)).filter((t) => t.monitorId === big.id);
  if (!claimed) throw new Error("the big monitor's slot was not claimed");
  let outcome = "";
  tickMs.push(await timed(async () => (outcome = (await startTick(claimed.tickId)).kind)));
  if (outcome !== "started") throw new Error(`the tick was ${outcome}`);
  console.log(`round ${round}: tick ${tickMs.at(-1)!.toFixed(0)} ms; POST /fanouts ${postMs.at(-1)!.toFixed(0)} ms (${PROMPTS * ENGINES.length * RUNS} executions each)`);
}

// 4. A year of daily ticks: 365 completed ticks of one monitor (and of 20 others), each with the
// figures its analysis step stores: 3 entities x (3 engines + all).
const SERIES_TICKS = 365;
const READS_PER_ROUND = 20;
const seriesMonitors = await Promise.all(
  Array.from({ length: 21 }, (_, i) =>
    createMonitor(principal, {
      project, name: `series ${i}`, prompts: [{ text: "best crm" }], engines: ENGINES as never, runs: 3,
      entities: [{ name: "Acme", role: "brand" }, { name: "Globex", role: "competitor" }, { name: "Initech", role: "competitor" }],
    }),
  ),
);
await pool.query(`UPDATE monitors SET status = 'paused'`);
for (const m of seriesMonitors) {
  await pool.query(
    `INSERT INTO monitor_ticks (id, monitor_id, workspace_id, version, scheduled_for, trigger, status, created_at, completed_at)
     SELECT $1 || lpad(d::text, 6, '0'), m.id, m.workspace_id, 1, timestamp '2025-11-26 06:00' + d * interval '1 day', 'schedule', 'completed',
       timestamp '2025-11-26 06:00' + d * interval '1 day', timestamp '2025-11-26 06:05' + d * interval '1 day'
     FROM monitors m, generate_series(0, $2::int - 1) d WHERE m.id = $3`,
    [`mt_${m.id.slice(3)}_`, SERIES_TICKS, m.id],
  );
  await pool.query(
    `INSERT INTO monitor_tick_figures (tick_id, monitor_id, version, at, entity_index, entity, engine, cells, runs, runs_mentioning, share_of_voice_n,
       runs_citing, runs_top3, position_sum, position_sum_squares, average_position, average_position_low, average_position_high, counted)
     SELECT t.id, t.monitor_id, 1, t.scheduled_for, e.i, e.name, g.engine, 12, g.runs, r.m, g.runs, r.m / 2, r.m, r.m * (e.i + 1), r.m * (e.i + 1) * (e.i + 1),
       CASE WHEN r.m > 0 THEN e.i + 1 END, CASE WHEN r.m > 0 THEN e.i + 0.8 END, CASE WHEN r.m > 0 THEN e.i + 1.2 END, true
     FROM monitor_ticks t
     CROSS JOIN (VALUES (0, 'Acme'), (1, 'Globex'), (2, 'Initech')) e(i, name)
     CROSS JOIN (VALUES ('all', 9), ('chatgpt', 3), ('claude', 3), ('gemini', 3)) g(engine, runs)
     CROSS JOIN LATERAL (SELECT floor(random() * (g.runs + 1))::int AS m) r
     WHERE t.monitor_id = $1`,
    [m.id],
  );
}
await pool.query("ANALYZE monitor_ticks");
await pool.query("ANALYZE monitor_tick_figures");
const target = seriesMonitors[10]!;
const seriesText = SERIES_FIGURES.render({ monitor: true, version: true, entity: true, engine: true });
const seriesParams: Record<string, string> = { monitor: target.id, version: "1", entity: "Globex", engine: "all" };
const seriesValues = () => seriesText.params.map((p) => seriesParams[p]!);
const seriesPlan = await pool.query<{ "QUERY PLAN": string }>({ text: `EXPLAIN ${seriesText.text}`, values: seriesValues() });
console.log(`series read plan: ${seriesPlan.rows.map((r) => r["QUERY PLAN"].trim()).join(" / ")}`);
const seriesMs: number[] = [];
const seriesFloorMs: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const ours: number[] = [];
  const floor: number[] = [];
  let points = 0;
  let rows = 0;
  for (let i = 0; i < READS_PER_ROUND; i++) {
    ours.push(await timed(async () => (points = (await getSeries(principal, target.id, { metric: "visibility", entity: "Globex", engine: "all" })).points.length)));
    floor.push(await timed(async () => (rows = (await pool.query({ name: `bare_${seriesText.name}`, text: seriesText.text, values: seriesValues(), rowMode: "array" })).rows.length)));
  }
  if (points !== SERIES_TICKS || rows !== SERIES_TICKS) throw new Error(`the series read ${points} points (${rows} rows), not ${SERIES_TICKS}`);
  seriesMs.push(medianOf(ours));
  seriesFloorMs.push(medianOf(floor));
  console.log(`round ${round}: a ${SERIES_TICKS}-tick series ${seriesMs.at(-1)!.toFixed(2)} ms (bare SQL ${seriesFloorMs.at(-1)!.toFixed(2)} ms, median of ${READS_PER_ROUND})`);
}

const ratio = (a: number[], b: number[]) => a.map((v, i) => v / b[i]!);
console.log(`due-slot check, ms: ${summary(checkMs)}; bare SQL ${summary(checkFloorMs)}; ratio ${summary(ratio(checkMs, checkFloorMs))}   target <= 3x and < 50 ms`);
console.log(`claiming ${DUE} due slots, ms: ${summary(claimMs, 1)}; bare SQL ${summary(claimFloorMs, 1)}; ratio ${summary(ratio(claimMs, claimFloorMs))}`);
console.log(`a ${PROMPTS}x${ENGINES.length}x${RUNS} tick, ms: ${summary(tickMs, 0)}; POST /fanouts ${summary(postMs, 0)}; ratio ${summary(ratio(tickMs, postMs))}   target <= 2x`);
console.log(`a ${SERIES_TICKS}-tick series read, ms: ${summary(seriesMs)}; bare SQL ${summary(seriesFloorMs)}; ratio ${summary(ratio(seriesMs, seriesFloorMs))}   target <= 3x and < 50 ms`);
await bench.close();
