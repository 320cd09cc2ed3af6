// Ticks: claiming due slots (exactly once per monitor, version and slot, by a unique key), making
// a tick's fanout through the one fanout code (lib/fanouts/create.ts startFanout: holds, 402,
// 429) or skipping it when it cannot be paid, and closing it when its fanout has finished. Every
// function takes the time it acts at: the scheduler's clock is injected, never read here.
import type { z } from "zod";
import { holdCredit, priceLines } from "../billing/holds";
import { billingSettings, currentRateCard } from "../billing/settings";
import { formatUsd } from "../billing/money";
import { capturedOfHoldSql } from "../billing/store";
import { fanoutHasOpenRunSql, fanoutOfRunSql, tickClosingRunsSql } from "../runs/fanout-runs";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { atUtc, date, defineStatement, int, micros, text } from "../db/statement";
import { standalone, textTransaction, type SqlSession } from "../db/sql";
import { startFanout, type FanoutActor } from "../fanouts/create";
import { notifyChanged } from "../changes/wait";
import { ApiError } from "../http/errors";
import { log } from "../log";
import type { FanoutRequest } from "../schemas/fanouts";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, monitorTickDue, monitorTickFinished, type JobEvent } from "../work/events";
import { monitorPrompts, monitorRow, tickRow } from "./read";
import { monitorSpendSql, type MonitorRow } from "./rows";
import { latestSlot, monthStart, nextSlot } from "./schedule";

/** How many due monitors one check claims at most; the rest are claimed by the next check. */
export const CLAIM_BATCH = 500;
/** A tick with no fanout this long after it was claimed had its start lost (a send that failed): started again. */
export const UNSTARTED_AFTER_MS = 2 * 60_000;

/** Thrown under the workspace's lock when a tick would take its monitor past its monthly budget. */
export class BudgetExhausted extends Error {
  override name = "BudgetExhausted";
}

// ---------------------------------------------------------------------------
// The due-slot check and the claim
// ---------------------------------------------------------------------------

/**
 * The due-slot check: active monitors whose next slot has come, by the (status, next_run_at)
 * index; one statement, whatever the number of monitors.
 */
export const DUE_MONITORS = defineStatement({
  label: "monitors_due",
  params: ["now", "limit"],
  columns: {
    id: text("m.id"),
    version: int("m.version"),
    every: text<"day" | "week">("m.schedule_every"),
    minute: int("m.schedule_minute"),
    weekday: int("m.schedule_weekday").nullable,
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitors m WHERE m.status = 'active' AND m.next_run_at <= ${atUtc(p.now)} ORDER BY m.next_run_at LIMIT ${p.limit}::int`,
});

/**
 * One tick per (monitor, version, slot): the unique key settles any number of instances claiming
 * the same slot, and a monitor paused, changed or advanced since it was read is not claimed.
 */
const CLAIM_TICKS = defineStatement({
  label: "monitor_ticks_claim",
  params: ["rows", "now"],
  columns: { id: text("t.id"), monitorId: text("t.monitor_id") },
  sql: ({ select, p }) =>
    `WITH t AS (INSERT INTO monitor_ticks (id, monitor_id, workspace_id, version, scheduled_for, trigger, status, created_at, entities)
      SELECT c.id, c.monitor, m.workspace_id, c.version, c.slot AT TIME ZONE 'UTC', 'schedule', 'queued', ${atUtc(p.now)}, m.entities
      FROM jsonb_to_recordset(${p.rows}::jsonb) AS c(id text, monitor text, version int, slot timestamptz, next timestamptz)
      JOIN monitors m ON m.id = c.monitor AND m.version = c.version AND m.status = 'active' AND m.next_run_at <= ${atUtc(p.now)}
      ON CONFLICT (monitor_id, version, trigger, scheduled_for) DO NOTHING
      RETURNING id, monitor_id)
    SELECT ${select} FROM t`,
});

/** The next slot of each claimed monitor (never moved back: another instance may have advanced it already). */
const ADVANCE = defineStatement({
  label: "monitors_advance",
  params: ["rows", "now"],
  sql: ({ p }) =>
    `UPDATE monitors m SET next_run_at = c.next AT TIME ZONE 'UTC'
    FROM jsonb_to_recordset(${p.rows}::jsonb) AS c(monitor text, next timestamptz)
    WHERE m.id = c.monitor AND m.next_run_at < c.next AT TIME ZONE 'UTC'`,
});

/**
 * Claims every due slot at `now`: for each active monitor whose next slot has come, one tick for
 * the latest slot at or before `now` (after downtime, the slots missed before it are not run), its
 * next slot after `now`, and the job that makes its fanout, in one transaction; then the jobs go
 * to the work driver. Answers the ticks this call claimed (another instance's are not among them).
 */
export async function claimDueSlots(now: Date): Promise<{ tickId: string; monitorId: string }[]> {
  const due = await DUE_MONITORS.query(standalone(), { now, limit: CLAIM_BATCH });
  if (due.length === 0) return [];
  const rows = due.map((m) => {
    const schedule = { every: m.every, minute: m.minute, weekday: m.weekday };
    return { id: newId("monitorTick"), monitor: m.id, version: m.version, slot: latestSlot(schedule, now).toISOString(), next: nextSlot(schedule, now).toISOString() };
  });
  const { claimed, events } = await textTransaction(currentDb(), async (sql) => {
    const claimed = await CLAIM_TICKS.query(sql, { rows: JSON.stringify(rows), now });
    await ADVANCE.query(sql, { rows: JSON.stringify(rows.map((r) => ({ monitor: r.monitor, next: r.next }))), now });
    const events = claimed.map((t) => jobEvent(monitorTickDue, t.id, { tick_id: t.id }));
    await queueJobs(sql, events);
    return { claimed, events };
  });
  await dispatch(events);
  return claimed.map((t) => ({ tickId: t.id, monitorId: t.monitorId }));
}

// ---------------------------------------------------------------------------
// Making a tick's fanout, or skipping it
// ---------------------------------------------------------------------------

const LOCK_TICK = defineStatement({
  label: "monitor_tick_lock",
  params: ["tick"],
  columns: { open: text("CASE WHEN t.fanout_id IS NULL AND t.completed_at IS NULL THEN 't' ELSE 'f' END") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitor_ticks t WHERE t.id = ${p.tick} FOR UPDATE`,
});

const SET_FANOUT = defineStatement({
  label: "monitor_tick_fanout",
  params: ["tick", "fanout"],
  sql: ({ p }) => `UPDATE monitor_ticks SET fanout_id = ${p.fanout} WHERE id = ${p.tick} AND fanout_id IS NULL AND completed_at IS NULL`,
});

/** A tick closed without a fanout: skipped (with its reason) or failed (with its error). Only while it has none. */
const CLOSE_UNSTARTED = defineStatement({
  label: "monitor_tick_unstarted",
  params: ["tick", "status", "reason", "charged", "error", "now"],
  sql: ({ p }) =>
    `UPDATE monitor_ticks SET status = ${p.status}::"TickStatus", skip_reason = ${p.reason}::"TickSkipReason", charged_micros = ${p.charged}::bigint,
      error = ${p.error}::jsonb, completed_at = ${atUtc(p.now)}
    WHERE id = ${p.tick} AND fanout_id IS NULL AND completed_at IS NULL`,
});

/**
 * A manual tick's row. Its scheduled_for is the moment it was asked for, made unique among the
 * monitor's manual ticks of its version: a run now in the same millisecond as another takes the
 * next free millisecond.
 */
const INSERT_MANUAL_TICK = defineStatement({
  label: "monitor_tick_manual",
  params: ["tick", "monitor", "workspace", "version", "fanout", "status", "reason", "charged", "now"],
  columns: { id: text("t.id") },
  sql: ({ select, p }) =>
    `WITH t AS (INSERT INTO monitor_ticks (id, monitor_id, workspace_id, version, scheduled_for, trigger, status, skip_reason, fanout_id, charged_micros, created_at, completed_at, entities)
    SELECT ${p.tick}, ${p.monitor}, ${p.workspace}, ${p.version}::int, s.at, 'manual', ${p.status}::"TickStatus",
      ${p.reason}::"TickSkipReason", ${p.fanout}, ${p.charged}::bigint, ${atUtc(p.now)}, CASE WHEN ${p.status}::text = 'skipped' THEN ${atUtc(p.now)} END,
      (SELECT m.entities FROM monitors m WHERE m.id = ${p.monitor} AND m.version = ${p.version}::int)
    FROM (SELECT ${atUtc(p.now)} + n * interval '1 millisecond' AS at FROM generate_series(0, 999) n
          WHERE NOT EXISTS (SELECT 1 FROM monitor_ticks x WHERE x.monitor_id = ${p.monitor} AND x.version = ${p.version}::int AND x.trigger = 'manual'
            AND x.scheduled_for = ${atUtc(p.now)} + n * interval '1 millisecond')
          ORDER BY n LIMIT 1) s
    ON CONFLICT (monitor_id, version, trigger, scheduled_for) DO NOTHING
    RETURNING id)
    SELECT ${select} FROM t`,
});

const SPEND = defineStatement({
  label: "monitor_spend",
  params: ["monitor", "month"],
  columns: (p) => ({ micros: micros(monitorSpendSql("m", atUtc(p.month))) }),
  sql: ({ select, p }) => `SELECT ${select} FROM monitors m WHERE m.id = ${p.monitor}`,
});

/** What the monitor's ticks count against its budget in `now`'s UTC month. */
export async function spendThisMonth(session: SqlSession, monitorId: string, now: Date): Promise<bigint> {
  return (await SPEND.first(session, { monitor: monitorId, month: monthStart(now) }))?.micros ?? 0n;
}

/**
 * Refuses (BudgetExhausted) a tick whose price would take the monitor's spend this UTC month past
 * its budget. Called under the workspace's lock (startFanout's underLock), so two ticks of one
 * monitor are decided one after the other. With billing off nothing is charged: no budget applies.
 */
async function checkBudget(sql: SqlSession, monitor: MonitorRow, priceMicros: bigint, now: Date): Promise<void> {
  if (monitor.budgetMicros === null || !billingSettings().enabled) return;
  const spent = await spendThisMonth(sql, monitor.id, now);
  if (spent + priceMicros > monitor.budgetMicros) {
    throw new BudgetExhausted(
      `This tick costs ${formatUsd(priceMicros)} USD; the monitor has spent ${formatUsd(spent)} USD this month of its ${formatUsd(monitor.budgetMicros)} USD budget.`,
    );
  }
}

// ---------------------------------------------------------------------------
// A judged monitor's tick (decisions.md "Sentiment over time on monitors"): a judge hold for
// every run, placed in the fanout's transaction, and the judge's price in the budget's check
// ---------------------------------------------------------------------------

/** The runs a tick of this monitor makes: the judge holds one unit for each. */
const runsPerTick = (monitor: MonitorRow) => monitor.promptCount * monitor.engines.length * monitor.runsPerPrompt;

/** What a tick's judge would hold at the current rate card (0 without a judge, or with billing off). */
function judgePriceOf(monitor: MonitorRow): bigint {
  if (!monitor.judge || !billingSettings().enabled) return 0n;
  return priceLines([{ product: "judge", engine: monitor.judge.engine, units: runsPerTick(monitor) }], currentRateCard()).totalMicros;
}

const SET_JUDGE = defineStatement({
  label: "monitor_tick_judge",
  params: ["tick", "engine", "hold"],
  sql: ({ p }) => `UPDATE monitor_ticks SET judge_engine = ${p.engine}, judge_hold_id = ${p.hold} WHERE id = ${p.tick}`,
});

/**
 * In the tick's fanout transaction, after its runs' holds: a judged monitor's tick holds its
 * judge for every run (product judge, operation the fanout, so the ledger shows both under one
 * operation) and records the judge on the tick. 402 rolls the whole tick back (skipped, as a
 * fanout without credit is).
 */
async function holdJudge(sql: SqlSession, monitor: MonitorRow, actor: { userId: string | null; apiKeyId: string | null }, tickId: string, fanoutId: string): Promise<void> {
  if (!monitor.judge) return;
  const held = await holdCredit(sql, {
    workspaceId: monitor.workspaceId,
    operationId: fanoutId,
    actor,
    lines: [{ product: "judge", engine: monitor.judge.engine, units: runsPerTick(monitor) }],
  });
  await SET_JUDGE.query(sql, { tick: tickId, engine: monitor.judge.engine, hold: held.holds[0]?.id ?? null });
}

/** The fanout a tick of this monitor runs: its prompts, engines, repeats and market, named after the monitor and the slot. */
export async function fanoutRequestOf(monitor: MonitorRow, slot: Date, session: SqlSession = standalone()): Promise<z.output<typeof FanoutRequest>> {
  const prompts = (await monitorPrompts(session, monitor.id)) as z.output<typeof FanoutRequest>["prompts"];
  const when = `${slot.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return {
    project: monitor.projectId,
    prompts,
    engines: monitor.engines as z.output<typeof FanoutRequest>["engines"],
    runs: monitor.runsPerPrompt,
    name: `${[...monitor.name].slice(0, 170).join("")} · ${when}`,
    ...(monitor.location ? { location: monitor.location as z.output<typeof FanoutRequest>["location"] } : {}),
    ...(monitor.language ? { language: monitor.language } : {}),
  };
}

export type TickOutcome = { kind: "started"; fanoutId: string } | { kind: "skipped"; reason: "insufficient_credit" | "budget_exhausted" } | { kind: "failed" } | { kind: "done" };

/** An error a retry cannot cure: the tick fails at once (a 400: an engine no longer enabled, a limit lowered). */
function isPermanent(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code === "invalid_request" || error.code === "not_found");
}

const errorOf = (error: ApiError) => JSON.stringify({ code: error.code, message: error.message, engine: null, retryable: error.retryable });

/**
 * Makes the fanout of a claimed tick (the job of `geoscope/monitor.tick-due`), as the monitor's
 * creator: in startFanout's one transaction the tick's row is locked first, and its fanout id is
 * written last, so however often this runs (a retry, a resumed job, two workers) the tick gets one
 * fanout. A tick that cannot be paid (402, or the budget) is skipped and started nothing; one that
 * cannot start at all (400) is failed; anything else (429, the database) is thrown to be retried.
 */
export async function startTick(tickId: string, now = new Date()): Promise<TickOutcome> {
  const tick = await tickRow(standalone(), tickId);
  if (!tick || tick.fanoutId || tick.completedAt) return { kind: "done" };
  const monitor = await monitorRow(standalone(), tick.monitorId, now);
  if (!monitor) return { kind: "done" };
  if (monitor.version !== tick.version) {
    await closeUnstarted(tickId, "failed", null, now, new ApiError("conflict", `The monitor changed (version ${tick.version} to ${monitor.version}) before this tick started; the next tick runs version ${monitor.version}.`));
    return { kind: "failed" };
  }
  const actor: FanoutActor = { workspaceId: monitor.workspaceId, projectId: monitor.projectId, userId: monitor.createdByUserId, apiKeyId: monitor.apiKeyId };
  try {
    const fanout = await startFanout(actor, await fanoutRequestOf(monitor, tick.scheduledFor), {
      before: async (sql) => (await LOCK_TICK.first(sql, { tick: tickId }))?.open === "t",
      underLock: (sql, price) => checkBudget(sql, monitor, price + judgePriceOf(monitor), now),
      after: async (sql, fanoutId) => {
        await SET_FANOUT.query(sql, { tick: tickId, fanout: fanoutId });
        await holdJudge(sql, monitor, { userId: actor.userId, apiKeyId: actor.apiKeyId }, tickId, fanoutId);
      },
    });
    return fanout ? { kind: "started", fanoutId: fanout.id } : { kind: "done" };
  } catch (error) {
    const reason = skipReasonOf(error);
    if (reason) {
      await closeUnstarted(tickId, "skipped", reason, now);
      return { kind: "skipped", reason };
    }
    if (isPermanent(error)) {
      await closeUnstarted(tickId, "failed", null, now, error);
      return { kind: "failed" };
    }
    throw error;
  }
}

function skipReasonOf(error: unknown): "insufficient_credit" | "budget_exhausted" | null {
  if (error instanceof BudgetExhausted) return "budget_exhausted";
  if (error instanceof ApiError && error.code === "insufficient_credit") return "insufficient_credit";
  return null;
}

async function closeUnstarted(tickId: string, status: "skipped" | "failed", reason: "insufficient_credit" | "budget_exhausted" | null, now: Date, error?: ApiError) {
  await CLOSE_UNSTARTED.query(standalone(), { tick: tickId, status, reason, charged: status === "skipped" ? 0n : null, error: error ? errorOf(error) : null, now });
  // A GET of the tick with `wait` returns now.
  notifyChanged(tickId);
}

/** The tick job's last word: a tick whose start failed for good (retries spent) fails, naming why. */
export async function failUnstartedTick(tickId: string, error: Error, now = new Date()): Promise<void> {
  const apiError = error instanceof ApiError ? error : new ApiError("internal_error", "The tick's fanout could not be started.");
  await closeUnstarted(tickId, "failed", null, now, apiError);
}

/**
 * POST /monitors/{id}/run: a tick now, made in the request through the same code as a scheduled
 * one, in the caller's name. Its row is written in the fanout's transaction, or as a skipped tick
 * when credit or the budget cannot pay it; 429 and 400 create nothing.
 */
export async function runTickNow(monitor: MonitorRow, actor: { userId: string; apiKeyId: string | null }, now = new Date()): Promise<string> {
  const tickId = newId("monitorTick");
  const base = { tick: tickId, monitor: monitor.id, workspace: monitor.workspaceId, version: monitor.version, now };
  const insert = async (session: SqlSession, values: { fanout: string | null; status: "queued" | "skipped"; reason: string | null; charged: bigint | null }) => {
    // A run now committed meanwhile at the moment this one picked: each try reads the ticks anew.
    for (let attempt = 0; attempt < 5; attempt++) if ((await INSERT_MANUAL_TICK.query(session, { ...base, ...values })).length > 0) return;
    throw new ApiError("conflict", "Too many ticks were asked for at once; ask again.", { retryable: true });
  };
  try {
    await startFanout({ workspaceId: monitor.workspaceId, projectId: monitor.projectId, ...actor }, await fanoutRequestOf(monitor, now), {
      underLock: (sql, price) => checkBudget(sql, monitor, price + judgePriceOf(monitor), now),
      // Under the workspace's lock, like the budget: run-nows of one monitor are made one after the other.
      after: async (sql, fanoutId) => {
        await insert(sql, { fanout: fanoutId, status: "queued", reason: null, charged: null });
        await holdJudge(sql, monitor, actor, tickId, fanoutId);
      },
    });
  } catch (error) {
    const reason = skipReasonOf(error);
    if (!reason) throw error;
    await insert(standalone(), { fanout: null, status: "skipped", reason, charged: 0n });
  }
  return tickId;
}

// ---------------------------------------------------------------------------
// Closing a tick once its fanout finished
// ---------------------------------------------------------------------------

/**
 * Closes an open tick whose fanout has finished: its status is the fanout's (completed, partial or
 * failed), its charge what the runs paid. Conditional, so only the first call closes it.
 */
const CLOSE_TICK = defineStatement({
  label: "monitor_tick_close",
  params: ["tick", "fanout", "now"],
  columns: { id: text("t.id"), status: text("t.status") },
  sql: ({ select, p }) => {
    // The tick's series figures (written by its analysis step, before) become points with the close, in the same statement.
    return `WITH t AS (UPDATE monitor_ticks t SET
      status = (CASE WHEN a.failed = 0 THEN 'completed' WHEN a.completed = 0 THEN 'failed' ELSE 'partial' END)::"TickStatus",
      charged_micros = a.captured + COALESCE(${capturedOfHoldSql("jh", "t.judge_hold_id")}, 0),
      completed_at = ${atUtc(p.now)}
    FROM ${tickClosingRunsSql(p.fanout)} a
    WHERE t.id = ${p.tick} AND t.fanout_id = ${p.fanout} AND t.completed_at IS NULL AND a.open = 0 AND a.completed + a.failed > 0
    RETURNING t.id, t.status),
    f AS (UPDATE monitor_tick_figures f SET counted = true FROM t WHERE f.tick_id = t.id AND t.status IN ('completed', 'partial'))
    SELECT ${select} FROM t`;
  },
});

/**
 * Closes a tick whose fanout has finished (the job of `geoscope/monitor.tick-finished`); true when
 * this call closed it. Nothing when it is open (runs unfinished) or already closed.
 */
export async function closeTick(tickId: string, now = new Date()): Promise<boolean> {
  const tick = await tickRow(standalone(), tickId);
  if (!tick || !tick.fanoutId || tick.completedAt) return false;
  const closed = (await CLOSE_TICK.query(standalone(), { tick: tickId, fanout: tick.fanoutId, now })).length > 0;
  // A GET of the tick with `wait` returns now.
  if (closed) notifyChanged(tickId);
  return closed;
}

// ---------------------------------------------------------------------------
// The sweep: finished fanouts to close, lost starts to send again
// ---------------------------------------------------------------------------

/** Open ticks that need their job: a fanout with no unfinished run (to close), or no fanout long after being claimed (to start). */
const OPEN_TICKS = defineStatement({
  label: "monitor_ticks_open",
  params: ["stale", "limit"],
  columns: { id: text("t.id"), started: text("CASE WHEN t.fanout_id IS NULL THEN 'f' ELSE 't' END"), createdAt: date("t.created_at") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t WHERE t.completed_at IS NULL AND (
      (t.fanout_id IS NULL AND t.created_at < ${atUtc(p.stale)})
      OR (t.fanout_id IS NOT NULL AND NOT ${fanoutHasOpenRunSql("t.fanout_id")}))
    ORDER BY t.id LIMIT ${p.limit}::int`,
});

/**
 * Hands every open tick that needs it its job again: the close of a finished fanout, or the start
 * of a tick whose start was lost. Each event's id is the job's, so a job already queued, running or
 * done is not started twice.
 */
export async function sweepOpenTicks(now: Date): Promise<number> {
  const open = await OPEN_TICKS.query(standalone(), { stale: new Date(now.getTime() - UNSTARTED_AFTER_MS), limit: CLAIM_BATCH });
  if (open.length === 0) return 0;
  const events: JobEvent[] = open.map((t) =>
    t.started === "t" ? finishEvent(t.id) : jobEvent(monitorTickDue, t.id, { tick_id: t.id }),
  );
  await queueJobs(standalone(), events);
  await dispatch(events);
  return events.length;
}

/** The open tick whose fanout holds the run `run` and has no unfinished run left (none otherwise). */
const TICK_OF_LAST_RUN = defineStatement({
  label: "monitor_tick_of_last_run",
  params: ["run"],
  columns: { id: text("t.id") },
  // The run's fanout as a value (an InitPlan), so that its open runs are one probe of
  // runs_open_by_fanout (a partial index): a tick's 4,500 runs each asking costs 4,500 probes, not
  // walks of the fanout's finished runs or of every open run.
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t
    WHERE t.fanout_id = ${fanoutOfRunSql(p.run)} AND t.completed_at IS NULL AND NOT ${fanoutHasOpenRunSql("t.fanout_id")}`,
});

/**
 * When the run `runId` was the last of a tick's fanout to finish, queues the tick's close at once
 * (the same job, under the same id, as the sweep's), so that a tick closes as soon as its answers
 * are in rather than at the scheduler's next look (up to MONITOR_CHECK_SECONDS later; a minute on
 * Inngest). Best effort: the sweep still closes any tick this misses. Answers whether it queued.
 */
export async function closeTickIfLastRun(runId: string): Promise<boolean> {
  try {
    const [tick] = await TICK_OF_LAST_RUN.query(standalone(), { run: runId });
    if (!tick) return false;
    const events = [finishEvent(tick.id)];
    await queueJobs(standalone(), events);
    await dispatch(events);
    return true;
  } catch (error) {
    log.warn("queueing the close of a tick whose last run finished failed; the scheduler's sweep closes it", { run_id: runId, error });
    return false;
  }
}

/** The close job's id: one per tick. */
export const finishEventId = (tickId: string) => `${tickId}.finished`;

/** The close job's event: the sweep's and a tick's last run's are the same, so the close runs once. */
const finishEvent = (tickId: string): JobEvent => jobEvent(monitorTickFinished, finishEventId(tickId), { tick_id: tickId });

/**
 * The scheduler's one check, every MONITOR_CHECK_SECONDS on the local driver and every minute from
 * Inngest's cron, on every instance: claim the due slots, then hand open ticks their jobs.
 */
export async function checkMonitors(now: Date): Promise<{ claimed: number; swept: number }> {
  const claimed = await claimDueSlots(now);
  const swept = await sweepOpenTicks(now);
  if (claimed.length > 0) log.info("monitor ticks claimed", { ticks: claimed.map((t) => t.tickId) });
  return { claimed: claimed.length, swept };
}
