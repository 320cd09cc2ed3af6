// The rows of monitors and their ticks as the reads answer them (./read.ts) and the presenters
// read them (./present.ts): their columns and types. Rows in, JSON out: neither of the two
// imports the other.
import type { z } from "zod";
import { holdJoin, holdSumsSql } from "../billing/store";
import { bool, date, group, int, json, micros, optional, text, type RowOf } from "../db/statement";
import type { MonitorPrompt, Tick } from "../schemas/monitors";
import type { Entity } from "../schemas/visibility";
import type { Every } from "./schedule";

/** One comparison of a tick's fanout, as stored (monitor_ticks.comparisons): the pair of engines (an API and its app) and the comparison's id. */
export type TickComparison = { a: string; b: string; analysis_id: string };

/** A tick's own columns (alias t), without the live figures of its fanout. */
export const tickOwnColumns = (t: string) => ({
  id: text(`${t}.id`),
  monitorId: text(`${t}.monitor_id`),
  version: int(`${t}.version`),
  scheduledFor: date(`${t}.scheduled_for`),
  trigger: text<"schedule" | "manual">(`${t}.trigger`),
  status: text<z.output<typeof Tick>["status"]>(`${t}.status`),
  skipReason: text<"insufficient_credit" | "budget_exhausted">(`${t}.skip_reason`).nullable,
  fanoutId: text(`${t}.fanout_id`).nullable,
  analysisId: text(`${t}.analysis_id`).nullable,
  comparisons: json<TickComparison[]>(`${t}.comparisons`),
  chargedMicros: micros(`${t}.charged_micros`).nullable,
  judgeEngine: text(`${t}.judge_engine`).nullable,
  judgeHoldId: text(`${t}.judge_hold_id`).nullable,
  error: json(`${t}.error`).nullable,
  createdAt: date(`${t}.created_at`),
  completedAt: date(`${t}.completed_at`).nullable,
});

/** A tick's columns (alias t) and its live figures (alias a, from read.ts's liveJoin). */
export const tickColumns = (t: string, a: string) => ({
  ...tickOwnColumns(t),
  live: group({
    queued: int(`${a}.queued`),
    running: int(`${a}.running`),
    completed: int(`${a}.completed`),
    failed: int(`${a}.failed`),
    started: bool(`${a}.started`),
    captured: micros(`${a}.captured`),
  }),
});

export type TickRow = RowOf<ReturnType<typeof tickColumns>>;

/**
 * What a monitor's ticks count against its budget this UTC month (`month`, a timestamp in SQL):
 * the charges of the ticks that finished this month, and what the open ones hold and have paid
 * this month.
 */
export const monitorSpendSql = (m: string, month: string) => {
  const sums = holdSumsSql("h", month);
  return (
    `((SELECT COALESCE(sum(ct.charged_micros), 0) FROM monitor_ticks ct WHERE ct.monitor_id = ${m}.id AND ct.completed_at >= ${month}) + ` +
    `(SELECT ${sums.held} + ${sums.capturedSince} FROM monitor_ticks ot JOIN runs r ON r.fanout_id = ot.fanout_id ${holdJoin("h", "r.id")} ` +
    `WHERE ot.monitor_id = ${m}.id AND ot.completed_at IS NULL) + ` +
    // An open tick's judge hold (judged monitors): what it holds, and what it captured this month.
    `(SELECT ${sums.held} + ${sums.capturedSince} FROM monitor_ticks jt JOIN credit_holds h ON h.id = jt.judge_hold_id ` +
    `WHERE jt.monitor_id = ${m}.id AND jt.completed_at IS NULL))`
  );
};

/**
 * A monitor's columns (alias mo, its creator u, its last tick lt with its live figures la). The
 * alias keeps clear of the access rule's own (`reach`, lib/workspaces/access.ts).
 */
export const monitorColumns = (month: string) => ({
  id: text("mo.id"),
  workspaceId: text("mo.workspace_id"),
  projectId: text("mo.project_id"),
  name: text("mo.name"),
  status: text<"active" | "paused">("mo.status"),
  version: int("mo.version"),
  promptCount: int("jsonb_array_length(mo.prompts)"),
  engines: json<string[]>("array_to_json(mo.engines)"),
  runsPerPrompt: int("mo.runs_per_prompt"),
  location: json("mo.location").nullable,
  language: text("mo.language").nullable,
  entities: json<Entity[]>("mo.entities"),
  every: text<Every>("mo.schedule_every"),
  minute: int("mo.schedule_minute"),
  weekday: int("mo.schedule_weekday").nullable,
  nextRunAt: date("mo.next_run_at"),
  budgetMicros: micros("mo.monthly_budget_micros").nullable,
  alerts: json<{ webhook_url: string | null; email: boolean; min_change: number; digest?: "off" | "weekly" }>("mo.alerts"),
  judge: json<{ engine: string; sentiment: true }>("mo.judge").nullable,
  createdAt: date("mo.created_at"),
  createdByUserId: text("mo.created_by_user_id").nullable,
  apiKeyId: text("mo.api_key_id").nullable,
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
  spendMicros: micros(monitorSpendSql("mo", month)),
  lastTick: optional(tickColumns("lt", "la"), "lt.id IS NOT NULL"),
});

export type MonitorRow = RowOf<ReturnType<typeof monitorColumns>>;

/**
 * What a tick's background steps (lib/monitors/analysis.ts) read of a tick (alias t) and its
 * monitor (alias mo, its creator u): the rows' own columns, neither the live figures of the tick's
 * fanout nor the monitor's spend (each an aggregate over the fanout's runs and holds, which the
 * steps never show).
 */
export const tickWorkColumns = {
  tick: group(tickOwnColumns("t")),
  monitor: optional(
    {
      id: text("mo.id"),
      workspaceId: text("mo.workspace_id"),
      version: int("mo.version"),
      engines: json<string[]>("array_to_json(mo.engines)"),
      entities: json<Entity[]>("mo.entities"),
      alerts: json<{ webhook_url: string | null; email: boolean; min_change: number; digest?: "off" | "weekly" }>("mo.alerts"),
      createdByUserId: text("mo.created_by_user_id").nullable,
      apiKeyId: text("mo.api_key_id").nullable,
      createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
    },
    "mo.id IS NOT NULL",
  ),
};

export type TickWork = RowOf<typeof tickWorkColumns>;

/** A prompt of a monitor as stored (monitors.prompts). */
export type StoredPrompt = { text: string; source?: z.input<typeof MonitorPrompt>["source"]; location?: z.input<typeof MonitorPrompt>["location"]; language?: string | null };
