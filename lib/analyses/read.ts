// GET /analyses (summaries of every kind) and GET /analyses/{id}: typed statements with the access
// check folded in, the body remembered per row version.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { db } from "../db/client";
import { allOf, defineStatement, int, json, optional, text } from "../db/statement";
import { standalone } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { ApiError, notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { JsonText } from "../http/respond";
import { getProjectOrThrow } from "../projects/projects";
import { presentQuestionsAnalysis } from "../questions/present";
import { holdJoin, holdShape } from "../billing/store";
import { isFinished } from "../runs/status";
import { type AnalysesQuery, type Analysis, type AnalysisList } from "../schemas/analyses";
import { readableSql, readerOf, type Reader } from "../shares/reader";
import { reachableSql, reachOf, requireWorkspace, type ReachPlaceholders } from "../workspaces/access";
import { analysisColumns, presentAnalysis, type AnalysisRow } from "./present";

/**
 * Files a just-made analysis's body under the version the statement of GET /analyses/{id} will
 * read (its row's xmin and its creator's email), so the first GET finds it too.
 */
export function rememberAnalysisBody(analysisId: string, version: string, status: string, text: string): void {
  analysisBodies.set(analysisId, { version, status, text, size: text.length });
}

/** An analysis the credential reaches, with its columns. */
const REACHABLE_ANALYSIS = defineStatement({
  label: "analysis_reached",
  params: ["analysis", "user", "own"],
  columns: analysisColumns,
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id WHERE a.id = ${p.analysis} AND ${reachableSql("a", p)}`,
});

async function getAnalysisRowOrThrow(principal: Principal, analysisId: string): Promise<AnalysisRow> {
  const row = await REACHABLE_ANALYSIS.first(standalone(), { analysis: analysisId, ...reachOf(principal) });
  if (!row) throw notFound("analysis", analysisId);
  return row;
}

/** An analysis of one kind the credential reaches, with what its pages and the actions on it read. */
const REACHABLE_ANALYSIS_OF_KIND = defineStatement({
  label: "analysis_of_kind_reached",
  params: ["analysis", "kind", "user", "own"],
  columns: { workspaceId: text("a.workspace_id"), projectId: text("a.project_id"), input: json("a.input"), result: json("a.result").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis} AND a.kind = ${p.kind}::"AnalysisKind" AND ${reachableSql("a", p)}`,
});

/** An analysis of one kind the credential can reach, with its stored result: its workspace, project, input and result; 404 as a missing one otherwise. */
export async function reachableAnalysisOfKind(principal: Principal, analysisId: string, kind: "questions" | "citations" | "visibility" | "comparison" | "opportunities") {
  const row = await REACHABLE_ANALYSIS_OF_KIND.first(standalone(), { analysis: analysisId, kind, ...reachOf(principal) });
  if (!row || !row.result) throw notFound("analysis", analysisId);
  return { workspaceId: row.workspaceId, projectId: row.projectId, input: row.input, result: row.result };
}

/** An analysis as an object (pages; what the spliced read is compared with): its row, presented. */
export async function getAnalysis(principal: Principal, analysisId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  let row = await getAnalysisRowOrThrow(principal, analysisId);
  if (options.wait && !isFinished(row.status)) {
    await waitUntilFinished(analysisId, { seconds: options.wait, signal: options.signal, isFinished: () => analysisFinished(analysisId) });
    row = await getAnalysisRowOrThrow(principal, analysisId);
  }
  return presentAnalysis(row);
}

/**
 * An analysis the reader can read (lib/shares/reader.ts): its version (the row's xmin and its creator's email), its
 * status, its columns unless `known` is that version (the caller has the body of that version),
 * and for a questions analysis its run ids and its run's hold, which its body shows but its
 * version does not cover.
 */
const ANALYSIS_BY_ID = defineStatement({
  label: "analysis_by_id",
  params: ["analysis", "user", "own", "share", "known"],
  columns: (p) => ({
    version: text("v.version"),
    status: analysisColumns.status,
    kind: analysisColumns.kind,
    analysis: optional(analysisColumns, `v.version IS DISTINCT FROM ${p.known}`),
    runIds: json<string[]>("CASE WHEN a.kind = 'questions' THEN (SELECT json_agg(ar.run_id ORDER BY ar.position) FROM analysis_runs ar WHERE ar.analysis_id = a.id) END").nullable,
    hold: holdShape("h"),
  }),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id ` +
    `CROSS JOIN LATERAL (SELECT a.xmin::text || ':' || COALESCE(u.email, '') AS version) v ` +
    `LEFT JOIN LATERAL (SELECT ar.run_id FROM analysis_runs ar WHERE ar.analysis_id = a.id AND a.kind = 'questions' ORDER BY ar.position LIMIT 1) q ON true ` +
    `${holdJoin("h", "q.run_id")} ` +
    `WHERE a.id = ${p.analysis} AND ${readableSql("a", p, given)}`,
});

const ANALYSIS_STATUS = defineStatement({
  label: "analysis_status",
  params: ["analysis"],
  columns: { status: analysisColumns.status },
  sql: ({ select, p }) => `SELECT ${select} FROM analyses a WHERE a.id = ${p.analysis}`,
});

/**
 * Bodies of citation and visibility analyses by version: insert-only, and up to megabytes of
 * figures that would otherwise be parsed and serialised on every read; 8 Mi characters at most,
 * each up to 4 Mi (the figures of 10,000 runs are some 2 Mi). A questions analysis is small, and
 * its charge changes with a row its version does not cover: it is presented on each read.
 */
const analysisBodies = new VersionCache<{ version: string; status: string; text: string; size: number }>("__geoscopeAnalysisBodies", 8 * 2 ** 20, 4 * 2 ** 20);

type AnalysisText = { finished: boolean; text: string };

/** GET /analyses/{id} as JSON text (the presented analysis), or null when the reader cannot read it. */
export async function readAnalysisText(reader: Reader, analysisId: string): Promise<AnalysisText | null> {
  const held = analysisBodies.get(analysisId);
  const row = await ANALYSIS_BY_ID.first(standalone(), { analysis: analysisId, ...readerOf(reader), known: held?.version ?? null });
  if (!row) return null;
  // No columns: the version is the one remembered.
  if (!row.analysis) return { finished: isFinished(held!.status as AnalysisRow["status"]), text: held!.text };
  const analysis = row.analysis;
  const text = JSON.stringify(analysis.kind === "questions" ? presentQuestionsAnalysis(analysis, row.runIds ?? [], row.hold) : presentAnalysis(analysis));
  if (row.kind !== "questions") rememberAnalysisBody(analysisId, row.version, row.status, text);
  return { finished: isFinished(row.status), text };
}

async function analysisFinished(analysisId: string): Promise<boolean> {
  const row = await ANALYSIS_STATUS.first(standalone(), { analysis: analysisId });
  return !row || isFinished(row.status);
}

/**
 * GET /analyses/{id} as the API sends it: JSON text read by one prepared statement, a citation
 * analysis's remembered per version (above); with `wait`, once it finished or the wait ran out.
 */
export async function getAnalysisBody(principal: Principal, analysisId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const read = await readWaiting(analysisId, () => readAnalysisText(principal, analysisId), {
    ...options, isFinished: () => analysisFinished(analysisId), missing: () => notFound("analysis", analysisId),
  });
  return new JsonText<z.input<typeof Analysis>>(read.text);
}

/** The analysis id a cursor points after (any analysis prefix), or 400 naming `cursor`. */
function cursorId(cursor: string): string {
  for (const prefix of ["ca", "fa", "cm", "op"] as const) {
    try {
      return decodeCursor(cursor, prefix);
    } catch {
      /* the next prefix */
    }
  }
  return decodeCursor(cursor, "va");
}

const CURSOR_REFUSED = "cursor: is not a cursor this server issued; pass the next_cursor of the previous page";

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
    runCount: int("(SELECT count(*) FROM analysis_runs ar WHERE ar.analysis_id = a.id)"),
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

/**
 * GET /analyses: one prepared statement, newest first across both prefixes (by creation time,
 * then id), never reading an analysis's input or result (a citation analysis's figures can be
 * megabytes). A cursor names an analysis the caller can list; any other id (unknown, or someone
 * else's) is refused like a forged cursor, so a list never silently restarts and never tells
 * whether a foreign id exists.
 */
export async function listAnalyses(principal: Principal, query: z.output<typeof AnalysesQuery>): Promise<z.input<typeof AnalysisList>> {
  const workspace = query.workspace ? (await requireWorkspace(principal, query.workspace)).workspace.id : undefined;
  const project = query.project ? (await getProjectOrThrow(principal, query.project)).id : undefined;
  const after = query.cursor ? cursorId(query.cursor) : undefined;
  const values = { ...reachOf(principal), workspace, project, kind: query.kind, after, limit: query.limit + 1 };
  const rows = await ANALYSIS_LIST.query(standalone(), values);
  // No row when the cursor's analysis is not one the caller can list: told apart here.
  if (after && rows.length === 0 && (await ANALYSIS_LISTED.query(standalone(), values)).length === 0) {
    throw new ApiError("invalid_request", CURSOR_REFUSED);
  }
  const page = pageOf(rows, query.limit);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      subject: row.subject,
      run_count: row.runCount,
      created_at: row.createdAt.toISOString(),
      project_id: row.projectId,
      created_by: row.createdBy?.email ?? null,
      completed_at: row.completedAt?.toISOString() ?? null,
    })),
    next_cursor: page.next_cursor,
  };
}
