// The statements on monitors and their ticks that other domains call: the monitor an alert is
// raised for, locked (lib/alerts/raise.ts), when a monitor's last completed tick closed (its
// alerts' once-per-cause rule), the ticks a weekly digest reads (lib/digests), and the entities of
// a monitor version's latest analysed tick (lib/monitors/analysis.ts, through lib/analyses/store.ts).
// A leaf: it imports no other module of lib/monitors, so alerts and digests call it without a cycle.
import { bool, date, defineStatement, json, text } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import type { Entity } from "../visibility/entities";

/** The monitor an alert belongs to (by its tick, or by its id for a ping), locked: raises of one monitor go one after the other. */
const LOCK_MONITOR = defineStatement({
  label: "alert_monitor_lock",
  params: ["tick", "monitor"],
  columns: {
    id: text("m.id"),
    workspaceId: text("m.workspace_id"),
    name: text("m.name"),
    webhookUrl: text("m.alerts->>'webhook_url'").nullable,
    email: bool("COALESCE((m.alerts->>'email')::boolean, false)"),
    creatorEmail: text("u.email").nullable,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitors m LEFT JOIN users u ON u.id = m.created_by_user_id WHERE ` +
    (given.tick ? `m.id = (SELECT t.monitor_id FROM monitor_ticks t WHERE t.id = ${p.tick})` : `m.id = ${p.monitor}`) +
    ` FOR UPDATE OF m`,
});

/**
 * The monitor of the tick (or the monitor itself, for a ping) with what its alerts need (its
 * webhook URL, whether alerts are emailed, its creator's email), its row locked in the caller's
 * transaction; undefined when there is none.
 */
export function lockAlertMonitor(session: SqlSession, target: { tickId: string } | { monitorId: string }) {
  return LOCK_MONITOR.first(session, "tickId" in target ? { tick: target.tickId } : { monitor: target.monitorId });
}

/**
 * When the monitor (its id expression `monitorId`) last had a tick close completed or partial, as
 * a scalar subquery (alias t); null when none has.
 */
export const lastCompletedTickAtSql = (monitorId: string) =>
  `(SELECT max(t.completed_at) FROM monitor_ticks t WHERE t.monitor_id = ${monitorId} AND t.status IN ('completed', 'partial'))`;

/**
 * Monitors (alias `m`) each with its scheduled ticks that have ended (alias `t`), as a FROM clause:
 * what the weekly digests' check reads (lib/digests/claim.ts).
 */
export const endedScheduledTicksSql = (m: string, t: string) =>
  `monitors ${m} JOIN monitor_ticks ${t} ON ${t}.monitor_id = ${m}.id AND ${t}.trigger = 'schedule' AND ${t}.completed_at IS NOT NULL`;

/** The monitor's latest tick that completed (or partly did). */
const LATEST_COMPLETED = defineStatement({
  label: "digest_latest_completed_tick",
  params: ["monitor"],
  columns: { id: text("t.id") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t WHERE t.monitor_id = ${p.monitor} AND t.status IN ('completed', 'partial') AND t.completed_at IS NOT NULL
    ORDER BY t.scheduled_for DESC, t.id DESC LIMIT 1`,
});

/** The id of the monitor's latest tick that completed (or partly did), or undefined when none has. */
export async function latestCompletedTickId(session: SqlSession, monitorId: string): Promise<string | undefined> {
  return (await LATEST_COMPLETED.first(session, { monitor: monitorId }))?.id;
}

/** A monitor's ticks with an analysis that completed (or partly did), scheduled after `from` and up to `to`, in time order. */
const TICKS_ANALYSED_BETWEEN = defineStatement({
  label: "digest_week_ticks",
  params: ["monitor", "from", "to"],
  columns: { id: text("t.id"), scheduledFor: date("t.scheduled_for") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t WHERE t.monitor_id = ${p.monitor} AND t.analysis_id IS NOT NULL AND t.status IN ('completed', 'partial')
      AND t.scheduled_for > ${p.from}::timestamptz AT TIME ZONE 'UTC' AND t.scheduled_for <= ${p.to}::timestamptz AT TIME ZONE 'UTC'
    ORDER BY t.scheduled_for`,
});

/** The monitor's ticks with an analysis that completed (or partly did), scheduled in (from, to], in time order (a digest's week). */
export function ticksAnalysedBetween(session: SqlSession, monitorId: string, from: Date, to: Date) {
  return TICKS_ANALYSED_BETWEEN.query(session, { monitor: monitorId, from, to });
}

/**
 * The entities a tick of a version its monitor has moved on from is analysed with: those kept with
 * the tick when it was made, or (a tick made before they were kept) those of its version's latest
 * analysed tick.
 */
const VERSION_ENTITIES = defineStatement({
  label: "monitor_version_entities",
  params: ["tick", "monitor", "version"],
  columns: { entities: json<Entity[]>("e.entities").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM (SELECT COALESCE((SELECT t.entities FROM monitor_ticks t WHERE t.id = ${p.tick}),
      (SELECT a.result->'entities' FROM monitor_ticks t JOIN analyses a ON a.id = t.analysis_id WHERE t.monitor_id = ${p.monitor} AND t.version = ${p.version}::int
        AND a.result IS NOT NULL ORDER BY t.scheduled_for DESC LIMIT 1)) AS entities) e`,
});

/** The entities to analyse a tick of an earlier version of its monitor with; null when none is known. */
export async function versionTickEntities(tickId: string, monitorId: string, version: number): Promise<Entity[] | null> {
  return (await VERSION_ENTITIES.first(standalone(), { tick: tickId, monitor: monitorId, version }))?.entities ?? null;
}
