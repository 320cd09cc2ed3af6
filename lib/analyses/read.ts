// GET /analyses (summaries of every kind) and GET /analyses/{id}: typed statements with the access
// check folded in, the body remembered per row version.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { VersionCache } from "../db/version-cache";
import { ApiError, notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { asciiJson, JsonText } from "../http/respond";
import { getProjectOrThrow } from "../projects/read";
import { presentQuestionsAnalysis } from "../questions/present";
import { loadQuestionsAnalysis } from "../questions/read";
import { isFinished } from "../runs/status";
import { type AnalysesQuery, type Analysis, type AnalysisList } from "../schemas/analyses";
import { readerOf, type Reader } from "../shares/access";
import { reachOf, requireWorkspace } from "../workspaces/access";
import { presentAnalysis } from "./present";
import { analysisById, analysisListed, analysisRow, analysisStatus, listAnalysisRows, reachableAnalysis, type AnalysisKind, type AnalysisRow } from "./store";

/**
 * Files a just-made analysis's body under the version the statement of GET /analyses/{id} will
 * read (its row's xmin and its creator's email), so the first GET finds it too.
 */
export function rememberAnalysisBody(analysisId: string, version: string, status: string, text: string): void {
  analysisBodies.set(analysisId, { version, status, text, size: text.length });
}

async function getAnalysisRowOrThrow(principal: Principal, analysisId: string): Promise<AnalysisRow> {
  const row = await analysisRow(principal, analysisId);
  if (!row) throw notFound("analysis", analysisId);
  return row;
}

/** An analysis of one kind the credential can reach, with its stored result: its workspace, project and result; 404 as a missing one otherwise. */
export async function reachableAnalysisOfKind(principal: Principal, analysisId: string, kind: AnalysisKind) {
  const row = await reachableAnalysis(principal, analysisId, kind);
  if (!row || !row.result) throw notFound("analysis", analysisId);
  return { workspaceId: row.workspaceId, projectId: row.projectId, input: row.input, result: row.result };
}

/** An analysis as an object (pages; what the spliced read is compared with). */
export async function getAnalysis(principal: Principal, analysisId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  let row = await getAnalysisRowOrThrow(principal, analysisId);
  if (options.wait && !isFinished(row.status)) {
    await waitUntilFinished(analysisId, { seconds: options.wait, signal: options.signal, isFinished: () => analysisFinished(analysisId) });
    row = await getAnalysisRowOrThrow(principal, analysisId);
  }
  return row.kind === "questions" ? loadQuestionsAnalysis(row) : presentAnalysis({ ...row, kind: row.kind });
}

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
  const values = { analysis: analysisId, ...readerOf(reader), known: held?.version ?? null };
  let row = await analysisById({ ...values, body: true });
  if (!row) return null;
  // No columns: the version is the one remembered.
  if (!row.analysis && row.body === null) return { finished: isFinished(held!.status as AnalysisRow["status"]), text: held!.text };
  // The body stored with the analysis, as its creator was then: sent as it is while that is so
  // (an email is never changed; checked all the same, as the version covers it).
  if (row.body !== null && !storedBodyFits(row.body, row.status, row.createdBy)) row = (await analysisById({ ...values, body: false }))!;
  if (row.body !== null) {
    rememberAnalysisBody(analysisId, row.version, row.status, row.body);
    return { finished: isFinished(row.status), text: row.body };
  }
  const analysis = row.analysis!;
  // A questions analysis as POST answered it; the others in ASCII, as POST answered and kept them.
  const text = analysis.kind === "questions" ? JSON.stringify(presentQuestionsAnalysis(analysis, row.runIds ?? [], row.hold)) : asciiJson(presentAnalysis({ ...analysis, kind: analysis.kind }));
  if (row.kind !== "questions") rememberAnalysisBody(analysisId, row.version, row.status, text);
  return { finished: isFinished(row.status), text };
}

/**
 * A stored body says the row's status and creator: its first `"status":` and `"created_by":` keys
 * (the analysis's own, before any figure; a key inside a JSON string would have its quotes escaped).
 */
function storedBodyFits(body: string, status: string, createdBy: string | null): boolean {
  const says = (key: string, value: string | null) => {
    const at = body.indexOf(`,"${key}":`);
    return at >= 0 && body.startsWith(`,"${key}":${asciiJson(value)},`, at);
  };
  return says("status", status) && says("created_by", createdBy);
}

async function analysisFinished(analysisId: string): Promise<boolean> {
  const status = await analysisStatus(analysisId);
  return !status || isFinished(status);
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
  const rows = await listAnalysisRows(values);
  // No row when the cursor's analysis is not one the caller can list: told apart here.
  if (after && rows.length === 0 && !(await analysisListed(values))) {
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
