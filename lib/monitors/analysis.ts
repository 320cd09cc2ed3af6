// A tick's visibility analysis (the `analysis` step of finish-tick, before the close): the
// visibility analysis of the tick's fanout, with the monitor's frozen entities, made as the
// monitor's creator, and in the analysis's own transaction the tick's analysis_id and the
// figures the series reads (monitor_tick_figures: one row per entity × engine cell, "all"
// included). The tick's row is locked first in that transaction and nothing is stored when it
// already has an analysis, so however often the step runs (a retry, a resumed job, two workers)
// the tick gets one analysis, and a crash before the commit leaves none.
import { raiseAlerts } from "../alerts/raise";
import { versionTickEntities } from "./store";
import type { Principal } from "../auth/principal";
import { defineStatement, json, text } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { ApiError } from "../http/errors";
import { log } from "../log";
import type { Entity, EntityVisibility } from "../schemas/visibility";
import type { StoredVisibilityFigures } from "../visibility/analysis";
import { analyseVisibility } from "../visibility/create";
import { analyseComparison } from "../comparison/create";
import { trackedPairs } from "../comparison/pairs";
import { releaseHold } from "../billing/holds";
import { engineConfig } from "../config/engines";
import { sentimentFigures, type JudgedRun } from "../visibility/judge";
import { finishJudgedAnalysis, judgeRuns } from "../visibility/judging";
import { tickWork } from "./read";
import type { TickComparison, TickWork } from "./rows";
import { tickChanges } from "./series";

const LOCK_TICK = defineStatement({
  label: "monitor_tick_analysis_lock",
  params: ["tick"],
  columns: { analysisId: text("t.analysis_id").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM monitor_ticks t WHERE t.id = ${p.tick} FOR UPDATE`,
});

/** A tick's comparisons as linked now, its row locked until the transaction ends (compareTick). */
const LOCK_COMPARISONS = defineStatement({
  label: "monitor_tick_comparisons_lock",
  params: ["tick"],
  columns: { comparisons: json<TickComparison[]>("t.comparisons") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitor_ticks t WHERE t.id = ${p.tick} FOR UPDATE`,
});

/** A tick's comparisons, with one more linked (written under LOCK_COMPARISONS). */
const SET_COMPARISONS = defineStatement({
  label: "monitor_tick_comparisons_set",
  params: ["tick", "comparisons"],
  sql: ({ p }) => `UPDATE monitor_ticks SET comparisons = ${p.comparisons}::jsonb WHERE id = ${p.tick}`,
});

const SET_ANALYSIS = defineStatement({
  label: "monitor_tick_analysis_set",
  params: ["tick", "analysis"],
  sql: ({ p }) => `UPDATE monitor_ticks SET analysis_id = ${p.analysis} WHERE id = ${p.tick} AND analysis_id IS NULL`,
});

const INSERT_FIGURES = defineStatement({
  label: "monitor_tick_figures_insert",
  params: ["tick", "monitor", "version", "at", "rows"],
  sql: ({ p }) =>
    `INSERT INTO monitor_tick_figures (tick_id, monitor_id, version, at, entity_index, entity, engine, cells, runs, runs_mentioning, share_of_voice_n,
      runs_citing, runs_top3, position_sum, position_sum_squares, average_position, average_position_low, average_position_high)
    SELECT ${p.tick}, ${p.monitor}, ${p.version}::int, ${p.at}::timestamptz AT TIME ZONE 'UTC', r.entity_index, r.entity, r.engine, r.cells, r.runs,
      r.runs_mentioning, r.share_of_voice_n, r.runs_citing, r.runs_top3, r.position_sum, r.position_sum_squares, r.average_position,
      r.average_position_low, r.average_position_high
    FROM jsonb_to_recordset(${p.rows}::jsonb) AS r(entity_index int, entity text, engine text, cells int, runs int, runs_mentioning int, share_of_voice_n int,
      runs_citing int, runs_top3 int, position_sum int, position_sum_squares int, average_position double precision, average_position_low double precision,
      average_position_high double precision)
    ON CONFLICT DO NOTHING`,
});

/** A judged tick's sentiment counts, per entity × engine cell, written when its judge finished. */
const SET_SENTIMENT = defineStatement({
  label: "monitor_tick_figures_sentiment",
  params: ["tick", "rows"],
  sql: ({ p }) =>
    `UPDATE monitor_tick_figures f SET sentiment_runs_judged = r.runs_judged, sentiment_positive = r.positive, sentiment_neutral = r.neutral,
      sentiment_negative = r.negative
    FROM jsonb_to_recordset(${p.rows}::jsonb) AS r(entity_index int, engine text, runs_judged int, positive int, neutral int, negative int)
    WHERE f.tick_id = ${p.tick} AND f.entity_index = r.entity_index AND f.engine = r.engine`,
});

type Figures = Pick<EntityVisibility, "runs" | "runs_mentioning" | "share_of_voice_n" | "runs_citing" | "runs_top3" | "position_counts" | "average_position" | "average_position_interval">;

/** One cell's row of monitor_tick_figures. */
function cellRow(entityIndex: number, entity: string, engine: string, cells: number, f: Figures) {
  let sum = 0;
  let squares = 0;
  for (const [position, runs] of Object.entries(f.position_counts)) {
    sum += Number(position) * runs;
    squares += Number(position) ** 2 * runs;
  }
  return {
    entity_index: entityIndex,
    entity,
    engine,
    cells,
    runs: f.runs,
    runs_mentioning: f.runs_mentioning,
    share_of_voice_n: f.share_of_voice_n,
    runs_citing: f.runs_citing,
    runs_top3: f.runs_top3,
    position_sum: sum,
    position_sum_squares: squares,
    average_position: f.average_position,
    average_position_low: f.average_position_interval?.[0] ?? null,
    average_position_high: f.average_position_interval?.[1] ?? null,
  };
}

/** Every entity × engine cell of an analysis ("all" first, then each engine it has runs of), with m, the number of cells. */
export function tickFigureRows(figures: Pick<StoredVisibilityFigures, "rows">) {
  const engines = figures.rows[0]?.by_engine.length ?? 0;
  const cells = figures.rows.length * (engines + 1);
  return figures.rows.flatMap((row, e) => [
    cellRow(e, row.name, "all", cells, row),
    ...row.by_engine.map((g) => cellRow(e, row.name, g.engine, cells, g)),
  ]);
}

/** The person a tick's analysis is made as: the monitor's creator, in the monitor's workspace. */
function creatorOf(monitor: NonNullable<TickWork["monitor"]>): Principal | null {
  if (!monitor.createdByUserId || !monitor.createdBy) return null;
  return {
    user: { id: monitor.createdByUserId, email: monitor.createdBy.email },
    credential: monitor.apiKeyId ? { kind: "api_key", id: monitor.apiKeyId, name: "monitor" } : { kind: "session", id: monitor.createdByUserId, name: "monitor" },
    workspaceId: monitor.workspaceId,
    apiKeyId: monitor.apiKeyId,
  };
}

async function entitiesOf(tick: TickWork["tick"], monitor: NonNullable<TickWork["monitor"]>): Promise<Entity[] | null> {
  if (monitor.version === tick.version) return monitor.entities;
  return versionTickEntities(tick.id, monitor.id, tick.version);
}

/**
 * The tick's visibility analysis, made once: answers its id (the one made before, when the tick
 * has one), or null when there is nothing to analyse (no fanout, a monitor gone, a creator gone or
 * out of the workspace, a version whose entities are no longer known). A refusal of the analysis
 * (400, 404) is logged and leaves the tick without one, so the tick still closes.
 */
export async function analyseTick(tickId: string): Promise<string | null> {
  const work = await tickWork(standalone(), tickId);
  const fanoutId = work?.tick.fanoutId;
  if (!work || !fanoutId) return null;
  const { tick, monitor } = work;
  if (tick.analysisId) return tick.analysisId;
  const actor = monitor && creatorOf(monitor);
  const entities = monitor && (await entitiesOf(tick, monitor));
  if (!monitor || !actor || !entities || entities.length === 0) {
    log.warn("a tick's visibility analysis was not made", { tick_id: tickId, reason: !monitor ? "monitor gone" : !actor ? "creator gone" : "entities unknown" });
    return null;
  }
  let existing: string | null = null;
  const lockTick = async (sql: SqlSession) => {
    existing = (await LOCK_TICK.first(sql, { tick: tickId }))?.analysisId ?? null;
    return existing === null;
  };
  const writeTick = async (sql: SqlSession, id: string, figures: StoredVisibilityFigures) => {
    await SET_ANALYSIS.query(sql, { tick: tickId, analysis: id });
    await INSERT_FIGURES.query(sql, {
      tick: tickId, monitor: monitor.id, version: tick.version, at: tick.scheduledFor, rows: JSON.stringify(tickFigureRows(figures)),
    });
  };
  // A judged tick (its judge recorded at its start) is analysed with that judge, paid by the hold
  // placed then; a judge engine no longer enabled leaves the tick unjudged (its hold released by
  // settleTickJudge) rather than without its visibility point.
  const judge = tick.judgeEngine && (engineConfig().enabled as readonly string[]).includes(tick.judgeEngine) ? tick.judgeEngine : null;
  if (tick.judgeEngine && !judge) log.warn("a tick's judge engine is no longer enabled; the tick is not judged", { tick_id: tickId, engine: tick.judgeEngine });
  try {
    const id = await analyseVisibility(
      actor,
      {
        ids: [fanoutId],
        entities: entities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive })),
        ...(judge ? { judge: { engine: judge as never, sentiment: true } } : {}),
      },
      // Nobody waits for a tick's analysis: it is presented when first read (lib/visibility/store-result.ts).
      // Its runs were each read as they finished for the monitor's entities: their readings are asked for with them.
      { before: lockTick, after: writeTick, presentWhenRead: true, readingsKept: true, ...(judge ? { callerJudges: { holdId: tick.judgeHoldId } } : {}) },
    );
    return id ?? existing;
  } catch (error) {
    if (error instanceof ApiError && (error.code === "invalid_request" || error.code === "not_found")) {
      log.warn("a tick's visibility analysis was refused", { tick_id: tickId, error: error.message });
      return null;
    }
    throw error;
  }
}

/** Each cell's sentiment counts of a judged tick: "all" (the analysis's own rows[].sentiment) and each engine's runs. */
export function sentimentRows(runs: readonly JudgedRun[], entities: number, engines: readonly string[]) {
  const cells = [
    { engine: "all", figures: sentimentFigures(runs, entities) },
    ...engines.map((engine) => ({ engine, figures: sentimentFigures(runs.filter((r) => r.engine === engine), entities) })),
  ];
  return cells.flatMap(({ engine, figures }) =>
    figures.map((f, e) => ({ entity_index: e, engine, runs_judged: f.runs_judged, positive: f.positive, neutral: f.neutral, negative: f.negative })),
  );
}

/**
 * A judged tick's judge (steps of finish-tick, after its analysis): every counted run judged
 * (verdicts written once each, so a step run again judges only the rest), then the analysis
 * finished: its sentiment figures, its hold captured per run judged (the rest released), and each
 * cell's sentiment counts in monitor_tick_figures, in one transaction. Nothing for a tick not judged.
 */
export async function judgeTick(tickId: string): Promise<"judged" | "none"> {
  const tick = (await tickWork(standalone(), tickId))?.tick;
  if (!tick?.judgeEngine || !tick.analysisId) return "none";
  const analysisId = tick.analysisId;
  if ((await judgeRuns(analysisId)) === "finished") return "judged";
  await finishJudgedAnalysis(analysisId, async (sql, judged, runs) => {
    if (!judged.sentiment) return;
    const engines = [...new Set(runs.map((r) => r.engine).filter((e): e is string => e !== null))];
    await SET_SENTIMENT.query(sql, { tick: tickId, rows: JSON.stringify(sentimentRows(runs, judged.sentiment.length, engines)) });
  });
  return "judged";
}

/**
 * A judged tick's judge hold, released when it is still held after the judge (no analysis was
 * made, or it was not judged): a tick pays only for runs judged. Settling a settled hold changes nothing.
 */
export async function settleTickJudge(tickId: string): Promise<void> {
  const tick = (await tickWork(standalone(), tickId))?.tick;
  if (!tick?.judgeHoldId) return;
  await releaseHold({ holdId: tick.judgeHoldId });
}

/**
 * The tick's comparisons (decisions.md "Comparison analyses": a monitor that tracks both engines of
 * a pair links each tick to its comparison): one comparison analysis of its fanout for each API and
 * app pair among the monitor's engines (lib/comparison/pairs.ts), with the monitor's entities, made
 * as its creator. Each is linked to the tick in its own transaction, the tick's row locked first,
 * and not stored when the tick already links one of that pair: however often the step runs (a
 * retry after a crash between two pairs, two workers at once) a pair gets one comparison. A refused
 * comparison (no prompt both engines answered still makes one; an engine with no run at all is
 * 400) is logged and left out. A tick of an earlier version (its engines no longer known) gets none
 * beyond those it links. Answers the tick's comparisons, in the pairs' order.
 */
export async function compareTick(tickId: string): Promise<TickComparison[]> {
  const work = await tickWork(standalone(), tickId);
  const fanoutId = work?.tick.fanoutId;
  if (!work || !fanoutId) return [];
  const { tick, monitor } = work;
  if (!monitor || monitor.version !== tick.version) return tick.comparisons;
  const pairs = trackedPairs(monitor.engines);
  const actor = creatorOf(monitor);
  if (pairs.length === 0 || !actor || monitor.entities.length === 0) return tick.comparisons;
  const entities = monitor.entities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive }));
  const order = (list: readonly TickComparison[]) =>
    [...list].sort((x, y) => pairs.findIndex(([a, b]) => a === x.a && b === x.b) - pairs.findIndex(([a, b]) => a === y.a && b === y.b));
  const linksPair = (list: readonly TickComparison[], a: string, b: string) => list.some((c) => c.a === a && c.b === b);
  let linked: readonly TickComparison[] = tick.comparisons;
  for (const [a, b] of pairs) {
    if (linksPair(linked, a, b)) continue;
    try {
      await analyseComparison(
        actor,
        { ids: [fanoutId], a: a as never, b: b as never, entities },
        {
          // The tick's links as they are now, under its lock: a pair linked meanwhile is not made
          // twice, and nothing is stored for a tick gone meanwhile.
          before: async (sql) => {
            const row = await LOCK_COMPARISONS.first(sql, { tick: tickId });
            if (!row) return false;
            linked = row.comparisons;
            return !linksPair(linked, a, b);
          },
          after: async (sql, id) => {
            linked = order([...linked, { a, b, analysis_id: id }]);
            await SET_COMPARISONS.query(sql, { tick: tickId, comparisons: JSON.stringify(linked) });
          },
        },
      );
    } catch (error) {
      if (error instanceof ApiError && (error.code === "invalid_request" || error.code === "not_found")) {
        log.warn("a tick's comparison was refused", { tick_id: tickId, a, b, error: error.message });
        continue;
      }
      throw error;
    }
  }
  return order(linked);
}

/**
 * The `significant_change` alerts of a closed, completed or partial tick: every entity × engine
 * cell whose visibility changed significantly from the previous completed or partial tick of its
 * version (the series' test: Newcombe at 1 - 0.05/m and the monitor's min_change). raiseAlerts
 * keys each by (tick, cell), so running this again raises nothing twice. Answers the alerts made.
 */
export async function alertTickChanges(tickId: string, now = new Date()): Promise<string[]> {
  const work = await tickWork(standalone(), tickId);
  if (!work) return [];
  const { tick, monitor } = work;
  if (!tick.completedAt || !tick.analysisId || (tick.status !== "completed" && tick.status !== "partial")) return [];
  if (!monitor) return [];
  const changes = await tickChanges(tickId, monitor.alerts.min_change ?? 10);
  return changes.length === 0 ? [] : raiseAlerts(tickId, changes, now);
}
