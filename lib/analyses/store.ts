// The owner of the `analyses` table (docs/architecture.md "One owner per table"): every
// statement on it is here, typed (lib/db/statement.ts), and every other module
// (citations, questions' reads, visibility, comparison, opportunities, judging, fanouts' sources,
// shares, monitors) calls these functions. An analysis is written once, with its runs, in the
// caller's transaction; its result is replaced only by judging (lib/visibility/judging.ts) and
// by a questions analysis's execution.
import type { Principal } from "../auth/principal";
import { allOf, arrayParam, date, defineStatement, float, int, json, optional, text, type RowOf } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { holdJoin, holdShape } from "../billing/store";
import { readableSql } from "../shares/access";
import { reachableSql, reachOf, type ReachPlaceholders } from "../workspaces/access";
import type { z } from "zod";
import type { AnalysisSummary } from "../schemas/analyses";
import type { StoredJudgement, VisibilityExclusionReason } from "../visibility/analysis";
import type { Entity } from "../visibility/entities";
import type { Verdict } from "../visibility/judge";

export type AnalysisKind = "citations" | "questions" | "visibility" | "comparison" | "opportunities";

/** An analysis's columns (alias a, its creator u): what the presenters read of it. */
export const analysisColumns = {
  id: text("a.id"),
  kind: text<AnalysisKind>("a.kind"),
  status: text<z.input<typeof AnalysisSummary>["status"]>("a.status"),
  subject: text("a.subject"),
  createdAt: date("a.created_at"),
  completedAt: date("a.completed_at").nullable,
  projectId: text("a.project_id"),
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
  input: json("a.input"),
  result: json("a.result").nullable,
  error: json("a.error").nullable,
  /** A visibility analysis's body when its result keeps the by-prompt rows there (lib/visibility/store-result.ts). */
  promptRows: text("CASE WHEN a.kind = 'visibility' AND a.result->'prompts_in_body' IS NOT NULL THEN a.body END").nullable,
};

export type AnalysisRow = RowOf<typeof analysisColumns>;

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * A new analysis with its runs (`runs`, or those of the analysis `source`): completed
 * (`completed_at` the creation time) or queued; answers the row's version (xmin), and with
 * `readBack` its result as stored (jsonb's text: what a GET presents).
 */
const INSERT_ANALYSIS = defineStatement({
  label: "analysis_insert",
  params: ["id", "kind", "status", "workspace", "project", "subject", "input", "result", "body", "runs", "source", "user", "key", "at", "completed", "readBack"],
  columns: (p) => ({ version: text("xmin"), result: text(`CASE WHEN ${p.readBack}::boolean THEN result::text END`).nullable }),
  sql: ({ select, p, given }) =>
    `INSERT INTO analyses (id, kind, status, workspace_id, project_id, subject, input, result, body, run_ids, run_count, created_by_user_id, api_key_id, created_at, completed_at) ` +
    `SELECT ${p.id}, ${p.kind}::text::"AnalysisKind", ${p.status}::text::"RunStatus", ${p.workspace}, ${p.project}, ${p.subject}, ${p.input}::jsonb, ${p.result}::jsonb, ${p.body}, ` +
    (given.source ? `s.run_ids, s.run_count, ` : `r.ids, cardinality(r.ids), `) +
    `${p.user}, ${p.key}, (${p.at}::timestamptz AT TIME ZONE 'UTC'), CASE WHEN ${p.completed}::boolean THEN (${p.at}::timestamptz AT TIME ZONE 'UTC') END ` +
    (given.source ? `FROM analyses s WHERE s.id = ${p.source} ` : `FROM (SELECT ${p.runs}::text[] AS ids) r `) +
    `RETURNING ${select}`,
});

const SET_RESULT = defineStatement({
  label: "analysis_set_result",
  params: ["id", "result"],
  columns: { version: text("xmin") },
  sql: ({ select, p }) => `UPDATE analyses SET result = ${p.result}::jsonb WHERE id = ${p.id} RETURNING ${select}`,
});

export type NewAnalysis = {
  id: string;
  kind: AnalysisKind;
  status: "completed" | "queued";
  workspaceId: string;
  projectId: string;
  subject: string;
  /** The request body as JSON text. */
  input: string;
  /** The figures as JSON text (serialised once by the caller). */
  result: string | null;
  /**
   * The analysis as GET /analyses/{id} answers it, when it will never change (a completed
   * visibility or comparison analysis): what a read sends instead of presenting `result` again.
   */
  body?: string | null;
  /** The runs the analysis covers, in its order: their ids, or another analysis's (an opportunity list covers its visibility analysis's). */
  runs: readonly string[] | { sameAs: string };
  userId: string | null;
  apiKeyId: string | null;
  at: Date;
};

/** Stores a new analysis with its runs in `sql`'s transaction; answers its version, and with `readBack` its result as stored. */
export async function insertAnalysis(sql: SqlSession, row: NewAnalysis, options: { readBack?: boolean } = {}): Promise<{ version: string; result: string | null }> {
  const runs = "sameAs" in row.runs ? { source: row.runs.sameAs } : { runs: arrayParam(row.runs) };
  const [created] = await INSERT_ANALYSIS.query(sql, {
    id: row.id, kind: row.kind, status: row.status, workspace: row.workspaceId, project: row.projectId, subject: row.subject,
    input: row.input, result: row.result, body: row.body ?? null, ...runs, user: row.userId, key: row.apiKeyId, at: row.at, completed: row.status === "completed", readBack: options.readBack ?? false,
  });
  // No row only when the analysis whose runs it covers is missing: its caller has read it (no analysis is ever deleted).
  if (!created) throw new Error(`analysis ${row.id}: the analysis whose runs it covers is not stored`);
  return created;
}

/** Replaces the analysis's result; answers the row's new version. */
export async function setAnalysisResult(sql: SqlSession, analysisId: string, result: string): Promise<string> {
  const [updated] = await SET_RESULT.query(sql, { id: analysisId, result });
  return updated!.version;
}

// ---------------------------------------------------------------------------------------------
// Reads

/** An analysis the credential can reach (of `kind` when given): its workspace, project, status, input and result. */
const REACHABLE = defineStatement({
  label: "analysis_reachable",
  params: ["analysis", "kind", "user", "own"],
  columns: {
    workspaceId: text("a.workspace_id"),
    projectId: text("a.project_id"),
    status: analysisColumns.status,
    input: json("a.input"),
    result: json("a.result").nullable,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM analyses a WHERE ${allOf(`a.id = ${p.analysis}`, given.kind && `a.kind = ${p.kind}::text::"AnalysisKind"`, reachableSql("a", p))}`,
});

/** Only whether the credential can reach it: its workspace and status (no input or result read). */
const REACHABLE_TARGET = defineStatement({
  label: "analysis_reachable_target",
  params: ["analysis", "user", "own"],
  columns: { workspaceId: text("a.workspace_id"), status: analysisColumns.status },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis} AND ${reachableSql("a", p)}`,
});

/** An analysis the credential can reach, of `kind` when given, with its input and result; null like a missing one otherwise. */
export async function reachableAnalysis(principal: Principal, analysisId: string, kind?: AnalysisKind) {
  return REACHABLE.first(standalone(), { analysis: analysisId, kind, ...reachOf(principal) });
}

/** An analysis's workspace and status if the credential can reach it (what sharing checks), else null. */
export async function reachableAnalysisTarget(principal: Principal, analysisId: string) {
  return REACHABLE_TARGET.first(standalone(), { analysis: analysisId, ...reachOf(principal) });
}

/** The ids of the questions of the workspace's questions analyses among `ids` (a fanout prompt's `source`). */
const QUESTION_IDS = defineStatement({
  label: "analysis_question_ids",
  params: ["ids", "workspace"],
  columns: { id: text("a.id"), questions: json<({ id?: unknown } | null)[]>("CASE WHEN jsonb_typeof(a.result->'questions') = 'array' THEN a.result->'questions' ELSE '[]'::jsonb END") },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ANY(${p.ids}::text[]) AND a.workspace_id = ${p.workspace} AND a.kind = 'questions'`,
});

/** Each of the workspace's questions analyses among `ids`, with the ids of its questions (as strings). */
export async function questionIdsOf(sql: SqlSession, workspaceId: string, ids: readonly string[]): Promise<Map<string, Set<string>>> {
  const rows = await QUESTION_IDS.query(sql, { ids: arrayParam(ids), workspace: workspaceId });
  return new Map(rows.map((r) => [r.id, new Set(r.questions.map((q) => String(q?.id)))]));
}

/**
 * An analysis a reader can read (lib/shares/access.ts): its version (the row's xmin and its creator's email), its
 * status, unless `known` is that version (the caller has the body of that version) its stored
 * body when it has one and `body` is asked for, else its columns, and for a questions analysis its
 * run ids and its run's hold, which its body shows but its version does not cover.
 */
const ANALYSIS_BY_ID = defineStatement({
  label: "analysis_by_id",
  params: ["analysis", "user", "own", "share", "known", "body"],
  columns: (p) => ({
    version: text("v.version"),
    status: analysisColumns.status,
    kind: analysisColumns.kind,
    createdBy: text("u.email").nullable,
    body: text(`CASE WHEN v.version IS DISTINCT FROM ${p.known} AND ${p.body}::boolean THEN a.body END`).nullable,
    analysis: optional(analysisColumns, `v.version IS DISTINCT FROM ${p.known} AND (a.body IS NULL OR NOT ${p.body}::boolean)`),
    runIds: json<string[]>("CASE WHEN a.kind = 'questions' THEN to_json(a.run_ids) END").nullable,
    hold: holdShape("h"),
  }),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id ` +
    `CROSS JOIN LATERAL (SELECT a.xmin::text || ':' || COALESCE(u.email, '') AS version) v ` +
    `CROSS JOIN LATERAL (SELECT CASE WHEN a.kind = 'questions' THEN a.run_ids[1] END AS run_id) q ` +
    `${holdJoin("h", "q.run_id")} ` +
    `WHERE a.id = ${p.analysis} AND ${readableSql("a", p, given)}`,
});

/** The analysis as a reader reads it (ANALYSIS_BY_ID), its columns only when `known` is not its version. */
export function analysisById(values: { user?: string; own?: string | null; share?: string; analysis: string; known: string | null; body: boolean }) {
  return ANALYSIS_BY_ID.first(standalone(), values);
}

/** An analysis the credential can reach, every column the presenters read (pages; what the spliced read is compared with). */
const ANALYSIS_ROW = defineStatement({
  label: "analysis_row",
  params: ["analysis", "user", "own"],
  columns: analysisColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id WHERE a.id = ${p.analysis} AND ${reachableSql("a", p)}`,
});

export function analysisRow(principal: Principal, analysisId: string): Promise<AnalysisRow | undefined> {
  return ANALYSIS_ROW.first(standalone(), { analysis: analysisId, ...reachOf(principal) });
}

const ANALYSIS_STATUS = defineStatement({
  label: "analysis_status",
  params: ["analysis"],
  columns: { status: analysisColumns.status },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis}`,
});

/** The analysis's status, or undefined when there is none. */
export async function analysisStatus(analysisId: string) {
  return (await ANALYSIS_STATUS.first(standalone(), { analysis: analysisId }))?.status;
}

/** The workspaces a list of analyses covers (alias `t`): the one asked for, or every one the credential can act in. */
const inListedWorkspaces = (t: string, p: ReachPlaceholders & { readonly workspace: string }, given: { readonly workspace: boolean }) =>
  given.workspace ? `${t}.workspace_id = ${p.workspace}` : reachableSql(t, p);

/** GET /analyses, newest first (by creation time, then id): one statement per combination of filters. */
const ANALYSIS_LIST = defineStatement({
  label: "analyses",
  params: ["user", "own", "workspace", "project", "kind", "after", "limit"],
  columns: {
    id: analysisColumns.id,
    kind: analysisColumns.kind,
    status: analysisColumns.status,
    subject: analysisColumns.subject,
    runCount: int("a.run_count"),
    createdAt: analysisColumns.createdAt,
    projectId: analysisColumns.projectId,
    createdBy: analysisColumns.createdBy,
    completedAt: analysisColumns.completedAt,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id WHERE ` +
    allOf(
      inListedWorkspaces("a", p, given),
      given.project && `a.project_id = ${p.project}`,
      given.kind && `a.kind = ${p.kind}::"AnalysisKind"`,
      // No row when the cursor's analysis is not one the caller can list.
      given.after && `(a.created_at, a.id) < (SELECT c.created_at, c.id FROM analyses c WHERE c.id = ${p.after} AND ${inListedWorkspaces("c", p, given)})`,
    ) +
    ` ORDER BY a.created_at DESC, a.id DESC LIMIT ${p.limit}::int`,
});

/** Whether the cursor's analysis is one the caller can list (asked only when a page after it came back empty). */
const ANALYSIS_LISTED = defineStatement({
  label: "analysis_listed",
  params: ["user", "own", "workspace", "after"],
  sql: ({ p, given }) => `SELECT 1 FROM analyses c WHERE c.id = ${p.after} AND ${inListedWorkspaces("c", p, given)}`,
});

type ListValues = { user: string; own: string | null; workspace?: string; project?: string; kind?: string; after?: string; limit: number };

/** A page of the analyses the caller can list (with their run counts), never reading an input or a result. */
export function listAnalysisRows(values: ListValues) {
  return ANALYSIS_LIST.query(standalone(), values);
}

/** Whether the cursor's analysis (`after`) is one the caller can list. */
export async function analysisListed(values: ListValues): Promise<boolean> {
  return (await ANALYSIS_LISTED.query(standalone(), values)).length > 0;
}

/** The analysis, if the credential can reach it: its kind, and a visibility analysis's entities, method, exclusions and subject. */
const OPPORTUNITY_SOURCE = defineStatement({
  label: "opportunity_source",
  params: ["analysis", "user", "own"],
  columns: {
    kind: text<AnalysisKind>("a.kind"),
    workspaceId: text("a.workspace_id"),
    projectId: text("a.project_id"),
    subject: text("a.subject"),
    entities: json<Entity[]>("CASE WHEN a.kind = 'visibility' THEN a.result->'entities' END").nullable,
    method: text("CASE WHEN a.kind = 'visibility' THEN a.result->>'method' END").nullable,
    excluded: json<{ run_id: string; reason: string }[]>("CASE WHEN a.kind = 'visibility' THEN a.result->'excluded_runs' END").nullable,
    runCount: int("a.run_count"),
  },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE ${allOf(`a.id = ${p.analysis}`, reachableSql("a", p))}`,
});

/** The analysis's runs in its order, with what each cited and searched and the entities it names (counted). */
const OPPORTUNITY_RUNS = defineStatement({
  label: "opportunity_runs",
  params: ["analysis"],
  columns: {
    id: text("r.id"),
    engine: text("r.engine").nullable,
    prompt: text("COALESCE(r.input->>'prompt', r.subject)"),
    queries: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.searches[*].query')").nullable,
    cited: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.sources[*] ? (@.cited == true).url')").nullable,
    mask: text("COALESCE(m.counted, 0)"),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analyses a CROSS JOIN LATERAL unnest(a.run_ids) WITH ORDINALITY AS ar(run_id, ord) JOIN runs r ON r.id = ar.run_id ` +
    `CROSS JOIN LATERAL (SELECT COALESCE(r.result, '{}'::jsonb) AS res OFFSET 0) x ` +
    `LEFT JOIN analysis_mentions m ON m.analysis_id = a.id AND m.run_id = ar.run_id ` +
    `WHERE a.id = ${p.analysis} ORDER BY ar.ord`,
});

/** What an opportunity list reads of the analysis it is asked for (OPPORTUNITY_SOURCE), if the credential can reach it. */
export function opportunitySource(reach: { user: string; own: string | null }, analysisId: string) {
  return OPPORTUNITY_SOURCE.first(standalone(), { analysis: analysisId, ...reach });
}

/** A visibility analysis's runs in its order, with their searches, cited pages and counted entities (OPPORTUNITY_RUNS). */
export function opportunityRunsOf(analysisId: string) {
  return OPPORTUNITY_RUNS.query(standalone(), { analysis: analysisId });
}

// ---------------------------------------------------------------------------------------------
// A judged visibility analysis (lib/visibility/judging.ts): read, marked running, its progress
// and its verdicts written into its result.

const JUDGED_ANALYSIS = defineStatement({
  label: "judge_analysis",
  params: ["analysis"],
  columns: {
    status: text("a.status"),
    workspaceId: text("a.workspace_id"),
    runIds: json<string[]>("a.result->'run_ids'"),
    excluded: json<{ run_id: string; reason: VisibilityExclusionReason }[]>("a.result->'excluded_runs'"),
    entities: json<Entity[]>("a.result->'entities'"),
    judged: json<StoredJudgement>("a.result->'judged'"),
  },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis} AND a.kind = 'visibility' AND a.result ? 'judged'`,
});

const MARK_RUNNING = defineStatement({
  label: "judge_mark_running",
  params: ["analysis"],
  sql: ({ p }) => `UPDATE analyses SET status = 'running' WHERE id = ${p.analysis} AND status = 'queued'`,
});

/** The progress shown while running: the runs with a verdict (judged or not). */
const JUDGE_PROGRESS = defineStatement({
  label: "judge_progress",
  params: ["analysis"],
  sql: ({ p }) =>
    `UPDATE analyses SET result = jsonb_set(result, '{judged,judge,runs_done}', ` +
    `to_jsonb((SELECT count(*) FROM visibility_judgements j WHERE j.analysis_id = ${p.analysis})::int)) ` +
    `WHERE id = ${p.analysis} AND status IN ('queued', 'running')`,
});

const JUDGE_FINISH = defineStatement({
  label: "judge_finish",
  params: ["analysis", "status", "judged", "error", "at"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE analyses SET status = ${p.status}::text::"RunStatus", result = jsonb_set(result, '{judged}', ${p.judged}::jsonb), ` +
    `error = ${p.error}::jsonb, completed_at = ${p.at}::timestamptz AT TIME ZONE 'UTC' ` +
    `WHERE id = ${p.analysis} AND status IN ('queued', 'running') RETURNING ${select}`,
});

/** A judged visibility analysis: its status, workspace, runs, exclusions, entities and judgement; undefined for any other. */
export function judgedAnalysis(sql: SqlSession, analysisId: string) {
  return JUDGED_ANALYSIS.first(sql, { analysis: analysisId });
}

/** A queued judged analysis is running (no change otherwise). */
export async function markJudgeRunning(analysisId: string): Promise<void> {
  await MARK_RUNNING.query(standalone(), { analysis: analysisId });
}

/** judge.runs_done of a judged analysis still running: the runs with a verdict. */
export async function writeJudgeProgress(analysisId: string): Promise<void> {
  await JUDGE_PROGRESS.query(standalone(), { analysis: analysisId });
}

/** A judged analysis finished (once: rows answered only if it was still queued or running). */
export function finishJudgement(sql: SqlSession, values: { analysis: string; status: "completed" | "failed"; judged: string; error: string | null; at: Date }) {
  return JUDGE_FINISH.query(sql, values);
}

// The verdicts of a judged visibility analysis (visibility_judgements), one per counted run,
// written once by the judge-visibility job (lib/visibility/judging.ts).

const JUDGED_IDS = defineStatement({
  label: "judge_judged_ids",
  params: ["analysis"],
  columns: { runId: text("j.run_id") },
  sql: ({ select, p }) => `SELECT ${select} FROM visibility_judgements j WHERE j.analysis_id = ${p.analysis}`,
});

const INSERT_JUDGEMENT = defineStatement({
  label: "judge_insert",
  params: ["analysis", "run", "status", "verdict", "error", "model", "attempts"],
  sql: ({ p }) =>
    `INSERT INTO visibility_judgements (analysis_id, run_id, status, verdict, error, model, attempts) ` +
    `VALUES (${p.analysis}, ${p.run}, ${p.status}, ${p.verdict}::jsonb, ${p.error}, ${p.model}, ${p.attempts}::int) ON CONFLICT DO NOTHING`,
});

const JUDGEMENTS = defineStatement({
  label: "judge_judgements",
  params: ["analysis"],
  columns: {
    runId: text("j.run_id"),
    status: text<"judged" | "not_judged">("j.status"),
    verdict: json<Verdict>("j.verdict").nullable,
    error: text("j.error").nullable,
    model: text("j.model").nullable,
    engine: text("r.engine").nullable,
  },
  sql: ({ select, p }) => `SELECT ${select} FROM visibility_judgements j JOIN runs r ON r.id = j.run_id WHERE j.analysis_id = ${p.analysis}`,
});

/** The runs of the analysis that have a verdict (judged or not). */
export async function judgedRunIds(analysisId: string): Promise<string[]> {
  return (await JUDGED_IDS.query(standalone(), { analysis: analysisId })).map((r) => r.runId);
}

/** A run's verdict (or why it was not judged), written once: a second write for the same run does nothing. */
export async function insertJudgement(values: { analysis: string; run: string; status: "judged" | "not_judged"; verdict: string | null; error: string | null; model: string | null; attempts: number }): Promise<void> {
  await INSERT_JUDGEMENT.query(standalone(), values);
}

/** The analysis's verdicts, each with its run's engine, on `sql` (the finish's transaction). */
export function judgementsOf(sql: SqlSession, analysisId: string) {
  return JUDGEMENTS.query(sql, { analysis: analysisId });
}

// ---------------------------------------------------------------------------------------------
// A questions analysis (lib/questions): its one run, its input, running, finished.

const RUN_IDS = defineStatement({
  label: "analysis_run_ids",
  params: ["analysis"],
  columns: { runIds: json<string[]>("to_json(a.run_ids)") },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis}`,
});

/** The analysis's run ids, in its order. */
export async function analysisRunIds(analysisId: string): Promise<string[]> {
  return (await RUN_IDS.first(standalone(), { analysis: analysisId }))?.runIds ?? [];
}

const ANALYSIS_INPUT = defineStatement({
  label: "analysis_input",
  params: ["analysis"],
  columns: { input: json("a.input") },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis}`,
});

/** The analysis's input (the request as stored); throws when there is no such analysis. */
export async function analysisInputOf(analysisId: string): Promise<{ input: unknown }> {
  const row = await ANALYSIS_INPUT.first(standalone(), { analysis: analysisId });
  if (!row) throw new Error(`analysis ${analysisId} not found`);
  return row;
}

const ANALYSIS_RUNNING = defineStatement({
  label: "analysis_running",
  params: ["analysis"],
  sql: ({ p }) => `UPDATE analyses SET status = 'running' WHERE id = ${p.analysis} AND status = 'queued'`,
});

/** A queued analysis is running (no change otherwise). */
export async function markAnalysisRunning(analysisId: string): Promise<void> {
  await ANALYSIS_RUNNING.query(standalone(), { analysis: analysisId });
}

/** An unfinished analysis completed with its result, or failed with its run's error. */
const FINISH_ANALYSIS = defineStatement({
  label: "analysis_finish",
  params: ["analysis", "status", "result", "error", "at"],
  sql: ({ p }) =>
    `UPDATE analyses SET status = ${p.status}::text::"RunStatus", result = COALESCE(${p.result}::jsonb, result), error = COALESCE(${p.error}::jsonb, error),
      completed_at = ${p.at}::timestamptz AT TIME ZONE 'UTC'
    WHERE id = ${p.analysis} AND status IN ('queued', 'running')`,
});

/** An unfinished analysis finished: its status, its result or error (JSON text), its completion time; nothing when already finished. */
export async function finishAnalysisOnce(sql: SqlSession, values: { analysis: string; status: "completed" | "failed"; result: string | null; error: string | null; at: Date }): Promise<void> {
  await FINISH_ANALYSIS.query(sql, values);
}

// ---------------------------------------------------------------------------------------------
// What visibility's mentions, the estimates' margins and the monitors read of a stored analysis.

/**
 * The analysis the credential can reach (any, for a share page whose token was checked: no
 * `user`): its kind, and its entities as used and matching method unless `entities` is false (the
 * caller has them).
 */
const MENTIONS_HEAD = defineStatement({
  label: "visibility_mentions_head",
  params: ["analysis", "user", "own", "entities"],
  columns: (p) => ({
    kind: text<AnalysisKind>("a.kind"),
    entities: json<Entity[]>(`CASE WHEN a.kind = 'visibility' AND ${p.entities}::boolean THEN a.result->'entities' END`).nullable,
    method: text(`CASE WHEN a.kind = 'visibility' AND ${p.entities}::boolean THEN a.result->>'method' END`).nullable,
  }),
  sql: ({ select, p, given }) => `SELECT ${select} FROM analyses a WHERE ${allOf(`a.id = ${p.analysis}`, given.user && reachableSql("a", p))}`,
});

/** MENTIONS_HEAD: with `user` (and `own`), only an analysis the credential reaches; without, any (a checked share). */
export function mentionsHead(values: { analysis: string; user?: string; own?: string | null; entities: boolean }) {
  return MENTIONS_HEAD.first(standalone(), values);
}

/**
 * A project's brand's last visibility rate: the first brand row of its newest completed visibility
 * analysis, for the estimates' margins (decisions.md "Statistics users can plan with").
 */
const LAST_BRAND_ROW = defineStatement({
  label: "visibility_last_brand_row",
  params: ["project"],
  columns: {
    analysisId: text("a.id"),
    entity: text("b.row->>'name'"),
    runs: int("b.row->>'runs'"),
    runsMentioning: int("b.row->>'runs_mentioning'"),
    visibility: float("b.row->>'visibility'"),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analyses a ` +
    `CROSS JOIN LATERAL (SELECT jsonb_path_query_first(a.result->'rows', '$[*] ? (@.role == "brand")') AS row) b ` +
    `WHERE a.project_id = ${p.project} AND a.kind = 'visibility' AND a.status = 'completed' AND b.row IS NOT NULL ` +
    `ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
});

/** The brand row of the project's newest completed visibility analysis that tracks a brand (LAST_BRAND_ROW). */
export function lastBrandRow(projectId: string) {
  return LAST_BRAND_ROW.first(standalone(), { project: projectId });
}

// The entities of a monitor version's latest analysed tick are read by lib/monitors/store.ts, the owner of monitor_ticks.
