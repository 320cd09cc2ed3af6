// The runs of fanouts as lib/fanouts and lib/monitors read and write them: a fanout's runs
// inserted in the transaction that creates it, read for its detail (with their holds) or its
// signature, counted for the list of fanouts and a monitor tick's live figures and close, and
// whether any is still unfinished. The statements and SQL pieces are the owner's (runs); the
// fanouts' part of a statement (which fanouts a credential reaches) is lib/fanouts/reach.ts's.
import { arrayParam, atUtc, defineStatement, standalone, type Columns, type SqlSession } from "../db/statement";
import { holdJoin, holdSumsSql, holdVersionSql } from "../billing/store";
import { namedFanoutIdsSql } from "../fanouts/reach";

/** One run of a new fanout: its prompt (the position in the fanout's prompts, 0-based), engine, repeat and market. */
export type NewFanoutRun = { id: string; prompt: string; promptIndex: number; engine: string; runIndex: number; location: string | null; language: string | null };

/**
 * A fanout's runs in one statement, in the caller's transaction: the values that differ per run
 * travel as five arrays (unnest), not as a thousand rows of parameters, and `input` is built by
 * the database. With createMany instead, POST /fanouts of 1,000 executions took a median 1.10 s
 * on PostgreSQL (bench:fanout, 2 cores); with this, 0.76 s.
 * `input` is `{prompt, engine, fanout_id, prompt_index, run_index, location, language}` with
 * prompt_index 1-based, as FanoutPromptObservations.index (the fanout_prompt_index column is
 * 0-based); `location` travels as JSON text, null when none.
 */
export async function insertFanoutRuns(
  sql: SqlSession,
  f: { fanoutId: string; workspaceId: string; projectId: string; createdByUserId: string | null; apiKeyId: string | null; runs: NewFanoutRun[] },
) {
  await INSERT_FANOUT_RUNS.query(sql, {
    fanout: f.fanoutId, workspace: f.workspaceId, project: f.projectId, user: f.createdByUserId, key: f.apiKeyId, now: new Date(),
    ids: arrayParam(f.runs.map((r) => r.id)), prompts: arrayParam(f.runs.map((r) => r.promptIndex)), repeats: arrayParam(f.runs.map((r) => r.runIndex)),
    engines: arrayParam(f.runs.map((r) => r.engine)), subjects: arrayParam(f.runs.map((r) => r.prompt)),
    locations: arrayParam(f.runs.map((r) => r.location)), languages: arrayParam(f.runs.map((r) => r.language)),
  });
}

const INSERT_FANOUT_RUNS = defineStatement({
  label: "fanout_insert_runs",
  params: ["fanout", "workspace", "project", "user", "key", "now", "ids", "prompts", "repeats", "engines", "subjects", "locations", "languages"],
  sql: ({ p }) => `
    INSERT INTO runs (id, kind, status, workspace_id, project_id, fanout_id, fanout_prompt_index, run_index, engine, subject, input,
                      created_by_user_id, api_key_id, created_at, updated_at)
    SELECT r.id, 'prompt', 'queued', ${p.workspace}, ${p.project}, ${p.fanout}, r.p, r.i, r.engine, r.subject,
           jsonb_build_object('prompt', r.subject, 'engine', r.engine, 'fanout_id', ${p.fanout}::text, 'prompt_index', r.p + 1, 'run_index', r.i,
                              'location', r.location::jsonb, 'language', r.language),
           ${p.user}, ${p.key}, ${atUtc(p.now)}, ${atUtc(p.now)}
    FROM unnest(${p.ids}::text[], ${p.prompts}::int[], ${p.repeats}::int[], ${p.engines}::text[], ${p.subjects}::text[],
                ${p.locations}::text[], ${p.languages}::text[]) AS r(id, p, i, engine, subject, location, language)`,
});

/**
 * A statement reading the runs (alias r) of the fanouts among `ids` in the caller's workspaces, in
 * creation order (ids are time-ordered), with the run columns the caller asks for. Made once, where
 * the caller's module is loaded.
 */
export function runsOfReachableFanouts<C extends Columns>(label: string, columns: C) {
  return defineStatement({
    label,
    params: ["ids", "user", "own"],
    columns,
    sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.fanout_id IN (${namedFanoutIdsSql(p)}) ORDER BY r.id`,
  });
}

/**
 * A statement reading a fanout's runs (alias r) in id order, each with its hold (alias h, joined by
 * holdJoin), with the columns the caller asks for (a fanout's detail). Made once, where the
 * caller's module is loaded.
 */
export function runsOfFanoutWithHolds<C extends Columns>(label: string, columns: C) {
  return defineStatement({
    label,
    params: ["fanout"],
    columns,
    sql: ({ select, p }) => `SELECT ${select} FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = ${p.fanout} ORDER BY r.id COLLATE "C"`,
  });
}

/**
 * A digest of the row versions of the fanout `fanout`'s runs and their holds in id order (every
 * UPDATE gives a row a new xmin), as a scalar subquery: null when it has no run.
 */
export const fanoutRunsDigestSql = (fanout: string) =>
  `(SELECT md5(string_agg(r.xmin::text || '.' || ${holdVersionSql("h")}, ',' ORDER BY r.id COLLATE "C")) ` +
  `FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = ${fanout})`;

/**
 * The runs of the fanout `fanout` counted by status, with the queries the completed ones observed,
 * whether any started and when the last one ended: a subquery for a lateral join (the list of fanouts).
 */
export const fanoutRunCountsSql = (fanout: string) =>
  `(SELECT ` +
  `count(*) FILTER (WHERE r.status = 'queued') AS queued, count(*) FILTER (WHERE r.status = 'running') AS running, ` +
  `count(*) FILTER (WHERE r.status = 'completed') AS completed, count(*) FILTER (WHERE r.status = 'failed') AS failed, ` +
  `COALESCE(sum(r.query_count) FILTER (WHERE r.status = 'completed'), 0) AS query_count, ` +
  `COALESCE(bool_or(r.status <> 'queued' OR r.started_at IS NOT NULL), false) AS any_started, max(r.completed_at) AS last_done ` +
  `FROM runs r WHERE r.fanout_id = ${fanout})`;

const FANOUT_OPEN = defineStatement({
  label: "fanout_open",
  params: ["fanout"],
  sql: ({ p }) => `SELECT 1 FROM runs r WHERE r.fanout_id = ${p.fanout} AND r.status IN ('queued', 'running') LIMIT 1`,
});

/** Whether every run of the fanout has ended (none queued or running). */
export async function fanoutRunsFinished(fanoutId: string): Promise<boolean> {
  return (await FANOUT_OPEN.query(standalone(), { fanout: fanoutId })).length === 0;
}

/**
 * A monitor tick's live figures from the runs of the fanout `fanout` and their holds, while `when`
 * holds (the tick is open): its runs counted by status, whether any started and what their holds
 * captured; a subquery for a lateral join.
 */
export const tickLiveRunsSql = (fanout: string, when: string) =>
  `(SELECT count(*) FILTER (WHERE r.status = 'queued') AS queued, count(*) FILTER (WHERE r.status = 'running') AS running, ` +
  `count(*) FILTER (WHERE r.status = 'completed') AS completed, count(*) FILTER (WHERE r.status = 'failed') AS failed, ` +
  `COALESCE(bool_or(r.status <> 'queued' OR r.started_at IS NOT NULL), false) AS started, ${holdSumsSql("h", "now()").captured} AS captured ` +
  `FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = ${fanout} AND ${when})`;

/**
 * What closing a monitor tick needs of the runs of the fanout `fanout` and their holds: how many
 * are unfinished (open), completed and failed, and what their holds captured; a subquery.
 */
export const tickClosingRunsSql = (fanout: string) => `(SELECT count(*) FILTER (WHERE r.status IN ('queued', 'running')) AS open, count(*) FILTER (WHERE r.status = 'completed') AS completed,
            count(*) FILTER (WHERE r.status = 'failed') AS failed, ${holdSumsSql("h", "now()").captured} AS captured
          FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = ${fanout})`;

/** Whether the fanout `fanout` has a run queued or running: an EXISTS condition. */
/** The fanout of the run `run` (a scalar subquery: null for a run of none), for statements outside this module. */
export const fanoutOfRunSql = (run: string) => `(SELECT r.fanout_id FROM runs r WHERE r.id = ${run})`;

export const fanoutHasOpenRunSql = (fanout: string) => `EXISTS (SELECT 1 FROM runs r WHERE r.fanout_id = ${fanout} AND r.status IN ('queued', 'running'))`;
