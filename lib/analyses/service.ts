// Analyses as a service: POST /citation-analyses (computed at once from run_sources, stored),
// GET /analyses (summaries of every kind) and GET /analyses/{id} (presented by kind).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { currentDb, db } from "../db/client";
import { FilteredStatement, isoText, queryText, type Statement, type TextRow } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import type { Prisma } from "../db/generated/client";
import { isId, newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { JsonText } from "../http/respond";
import { getProjectOrThrow } from "../projects/projects";
import { loadQuestionsAnalysis, presentQuestionsAnalysis } from "../questions/present";
import { HOLD_COLUMNS, holdOf } from "../runs/read";
import { isFinished } from "../runs/status";
import { CITATION_LIMITS, type AnalysesQuery, type Analysis, type AnalysisList, type AnalysisSummary, type CitationAnalysis, type CitationAnalysisRequest } from "../schemas/analyses";
import { domainNameOf } from "../schemas/projects";
import { inReachableWorkspaceSql, reachableBy, reachableSql, reachableWorkspaceIds, requireWorkspace } from "../workspaces/access";
import { computeCitationAnalysis, type CitationFigures, type ObservedSource, type RunObservation } from "./citations";

export const CITATION_METHOD = "stored_results_v1";

/** A run an id named: what the analysis needs of it, read without its result. */
type NamedRun = {
  id: string;
  kind: RunObservation["kind"];
  status: RunObservation["status"];
  engine: string | null;
  prompt: string;
  projectId: string;
  batchId: string | null;
  citationsExposed: boolean | null;
  country: string | null;
};

const kindOfId = (id: string) => (id.startsWith("dr_") ? "run" : id.startsWith("rq_") ? "batch" : "run or batch");

// The prompt is the input's prompt, else the subject (what every prompt run's input holds).
const NAMED_COLUMNS = `"id", "kind"::text AS "kind", "status"::text AS "status", "engine", "project_id" AS "projectId",
  "batch_id" AS "batchId", "citations_exposed" AS "citationsExposed", COALESCE("input"->>'prompt', "subject") AS "prompt",
  "input"->'location'->>'country' AS "country"`;

/**
 * The runs the ids name, in the order named (a batch's runs in creation order), repeats kept for
 * `duplicate`. Any id the caller cannot see answers 404 naming the first such id given.
 */
async function runsNamed(principal: Principal, ids: readonly string[]): Promise<NamedRun[]> {
  const runIds = [...new Set(ids.filter((id) => isId(id, "dr")))];
  const batchIds = [...new Set(ids.filter((id) => isId(id, "rq")))];
  const workspaces = await reachableWorkspaceIds(principal);
  const [runs, batches] = await Promise.all([
    runIds.length
      ? db().$queryRawUnsafe<NamedRun[]>(`SELECT ${NAMED_COLUMNS} FROM "runs" WHERE "id" = ANY($1::text[]) AND "workspace_id" = ANY($2::text[])`, runIds, workspaces)
      : [],
    batchIds.length
      ? db().$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "batches" WHERE "id" = ANY($1::text[]) AND "workspace_id" = ANY($2::text[])`, batchIds, workspaces)
      : [],
  ]);
  const runById = new Map(runs.map((r) => [r.id, r]));
  const batchFound = new Set(batches.map((b) => b.id));
  for (const id of ids) {
    if (!runById.has(id) && !batchFound.has(id)) throw notFound(kindOfId(id), id);
  }
  const batchRuns = batchIds.length
    ? await db().$queryRawUnsafe<NamedRun[]>(`SELECT ${NAMED_COLUMNS} FROM "runs" WHERE "batch_id" = ANY($1::text[]) ORDER BY "id"`, batchIds)
    : [];
  const byBatch = new Map<string, NamedRun[]>();
  for (const r of batchRuns) {
    const list = byBatch.get(r.batchId!) ?? [];
    list.push(r);
    byBatch.set(r.batchId!, list);
  }
  const named = ids.flatMap((id) => (runById.has(id) ? [runById.get(id)!] : (byBatch.get(id) ?? [])));
  if (named.length > CITATION_LIMITS.runs) {
    throw new ApiError("invalid_request", `ids: name ${named.length} runs; an analysis covers at most ${CITATION_LIMITS.runs}`);
  }
  return named;
}

type ContextTerms = { brands: string[]; domains: string[] };

/** brands/domains as given win; the project context is used only when both are empty and asked for. */
async function termsFor(body: z.output<typeof CitationAnalysisRequest>, projectId: string): Promise<ContextTerms> {
  const given = {
    brands: [...new Set((body.brands ?? []).map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set((body.domains ?? []).map((d) => domainNameOf(d)!))],
  };
  if (given.brands.length || given.domains.length || !body.use_project_context) return given;
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { context: true } });
  const context = (project.context ?? {}) as { primary_domain?: string | null; domains?: string[]; brands?: string[]; competitors?: string[] };
  return {
    brands: [...new Set([...(context.brands ?? []), ...(context.competitors ?? [])].map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set([context.primary_domain, ...(context.domains ?? [])].filter((d): d is string => !!d))],
  };
}

/**
 * The observations of the named runs: each counted run's sources from run_sources as one JSON
 * array of arrays (one row per run, parsed at once, instead of 15 row objects per run), and its
 * answer text only when terms are counted (read out of the result in the database).
 */
export async function observationsOf(named: readonly NamedRun[], withAnswers: boolean): Promise<RunObservation[]> {
  const counted = [...new Set(named.filter((r) => r.kind === "prompt" && r.status === "completed").map((r) => r.id))];
  const sources = new Map<string, ObservedSource[]>();
  const answers = new Map<string, string>();
  if (counted.length) {
    // In parts read at once, so the database builds one part while the previous one is parsed here.
    const n = Math.min(4, Math.ceil(counted.length / 500));
    const parts = Array.from({ length: n }, (_, i) => counted.slice(Math.floor((i * counted.length) / n), Math.floor(((i + 1) * counted.length) / n)));
    const [sourceParts, texts] = await Promise.all([
      Promise.all(
        parts.map((part) =>
          db().$queryRawUnsafe<{ runId: string; sources: string }[]>(
            `SELECT "run_id" AS "runId",
                    json_agg(json_build_array("url", "domain", "cited", "search_query_observed", "retrieval_observed", "citation_count", "resolution")
                             ORDER BY "position")::text AS "sources"
               FROM "run_sources" WHERE "run_id" = ANY($1::text[]) GROUP BY "run_id"`,
            part,
          ),
        ),
      ),
      withAnswers
        ? db().$queryRawUnsafe<{ id: string; answer: string | null }[]>(
            `SELECT "id", "result"->>'answer' AS "answer" FROM "runs" WHERE "id" = ANY($1::text[])`,
            counted,
          )
        : [],
    ]);
    type Tuple = [string, string | null, boolean | null, boolean | null, boolean | null, number, ObservedSource["resolution"]];
    for (const row of sourceParts.flat()) {
      sources.set(
        row.runId,
        (JSON.parse(row.sources) as Tuple[]).map(([url, domain, cited, sqo, ro, citationCount, resolution]) => ({
          url, domain, cited, search_query_observed: sqo, retrieval_observed: ro, citation_count: citationCount, resolution,
        })),
      );
    }
    for (const t of texts) answers.set(t.id, t.answer ?? "");
  }
  return named.map((r) => ({
    run_id: r.id,
    engine: r.engine,
    prompt: r.prompt,
    status: r.status,
    kind: r.kind,
    citations_exposed: r.citationsExposed,
    answer: answers.get(r.id) ?? "",
    sources: sources.get(r.id) ?? [],
    country: r.country,
  }));
}

/** What the analysis is about: its first prompt, and how many others. */
function subjectOf(observations: readonly RunObservation[]): string {
  const prompts = [...new Set(observations.filter((o) => o.kind === "prompt").map((o) => o.prompt))];
  if (prompts.length === 0) return `Citations of ${observations.length} runs`;
  return prompts.length === 1 ? prompts[0]! : `${prompts[0]} (+${prompts.length - 1} more prompts)`;
}

const analysisInclude = { createdBy: { select: { email: true } } } as const;
type AnalysisRow = Prisma.AnalysisGetPayload<{ include: typeof analysisInclude }>;

export function presentCitationAnalysis(row: AnalysisRow): z.input<typeof CitationAnalysis> {
  const figures = row.result as unknown as CitationFigures;
  return {
    id: row.id,
    kind: "citations",
    status: row.status,
    subject: row.subject,
    run_ids: figures.run_ids,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as z.input<typeof CitationAnalysis>["error"],
    method: CITATION_METHOD,
    brands: figures.brands,
    target_domains: figures.target_domains,
    totals: figures.totals,
    engines: figures.engines,
    domains: figures.domains,
    pages: figures.pages,
    retrieved_not_cited: figures.retrieved_not_cited,
    textual_mentions: figures.textual_mentions,
    domain_coverage: figures.domain_coverage,
    by_country: figures.by_country,
    overlap: figures.overlap,
    excluded_runs: figures.excluded_runs,
    // Citations are free on the rate card: nothing is held or captured.
    charge: null,
  };
}

/** How each kind of analysis is presented, beside its member of the `Analysis` union (lib/schemas/analyses.ts). */
const presenters: Record<AnalysisRow["kind"], (row: AnalysisRow) => Promise<z.input<typeof Analysis>> | z.input<typeof Analysis>> = {
  questions: loadQuestionsAnalysis,
  citations: presentCitationAnalysis,
};

function presentAnalysis(row: AnalysisRow): Promise<z.input<typeof Analysis>> | z.input<typeof Analysis> {
  return presenters[row.kind](row);
}

/** POST /citation-analyses: the analysis computed, stored and presented, with the version of its row. */
async function storeCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const named = await runsNamed(principal, body.ids);
  const projects = [...new Set(named.map((r) => r.projectId))];
  if (projects.length > 1) {
    throw new ApiError(
      "invalid_request",
      `ids: the runs belong to ${projects.length} projects (${projects.join(", ")}); an analysis covers the runs of one project`,
    );
  }
  if (named.length === 0) throw new ApiError("invalid_request", "ids: name no runs (the batches are empty)");
  const projectId = projects[0]!;
  const terms = await termsFor(body, projectId);
  const observations = await observationsOf(named, terms.brands.length > 0);
  const figures = computeCitationAnalysis(observations, terms);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { workspaceId: true } });
  const now = new Date();
  const id = newId("citationAnalysis");
  const input = body;
  // Written with SQL: the figures (about 2 MiB over 10,000 runs) travel as one text parameter, and
  // the stored JSON is read back as text, so the answer is what GET /analyses/{id} will send.
  const stored = await db().$transaction(async (tx) => {
    const [created] = await tx.$queryRawUnsafe<{ result: string; version: string }[]>(
      `INSERT INTO "analyses" ("id", "kind", "status", "workspace_id", "project_id", "subject", "input", "result",
                               "created_by_user_id", "api_key_id", "created_at", "completed_at")
       VALUES ($1, 'citations', 'completed', $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8,
               ($9::timestamptz AT TIME ZONE 'UTC'), ($9::timestamptz AT TIME ZONE 'UTC'))
       RETURNING "result"::text AS "result", xmin::text AS "version"`,
      id, project.workspaceId, projectId, subjectOf(observations), JSON.stringify(input), JSON.stringify(figures),
      principal.user.id, principal.apiKeyId, now.toISOString(),
    );
    // One statement whatever the number of runs (createMany sends three parameters a row).
    await tx.$executeRawUnsafe(
      `INSERT INTO "analysis_runs" ("analysis_id", "run_id", "position")
       SELECT $1, r.id, (r.ord - 1)::integer FROM unnest($2::text[]) WITH ORDINALITY AS r(id, ord)`,
      id,
      figures.run_ids,
    );
    return created!;
  });
  const row = {
    id, kind: "citations", status: "completed", workspaceId: project.workspaceId, projectId, subject: subjectOf(observations),
    input, result: JSON.parse(stored.result), error: null, createdByUserId: principal.user.id, apiKeyId: principal.apiKeyId,
    createdAt: now, completedAt: now, createdBy: { email: principal.user.email },
  } satisfies AnalysisRow;
  return { analysis: presentCitationAnalysis(row), version: stored.version };
}

export async function createCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  return (await storeCitationAnalysis(principal, body)).analysis;
}

/**
 * POST /citation-analyses as the API sends it: the body serialised once, and remembered for
 * GET /analyses/{id} under the version the statement there will read (ANALYSIS_BY_ID).
 */
export async function createCitationAnalysisBody(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const { analysis, version } = await storeCitationAnalysis(principal, body);
  const text = JSON.stringify(analysis);
  citationBodies.set(analysis.id, { version: `${version}:${principal.user.email}`, status: analysis.status, text, size: text.length });
  return new JsonText<z.input<typeof CitationAnalysis>>(text);
}

async function getAnalysisRowOrThrow(principal: Principal, analysisId: string): Promise<AnalysisRow> {
  const row = await db().analysis.findFirst({ where: { id: analysisId, ...reachableBy(principal) }, include: analysisInclude });
  if (!row) throw notFound("analysis", analysisId);
  return row;
}

/** An analysis as an object, through Prisma (pages; what the spliced read is compared with). */
export async function getAnalysis(principal: Principal, analysisId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  let row = await getAnalysisRowOrThrow(principal, analysisId);
  if (options.wait && !isFinished(row.status)) {
    await waitUntilFinished(analysisId, { seconds: options.wait, signal: options.signal, isFinished: () => analysisFinished(analysisId) });
    row = await getAnalysisRowOrThrow(principal, analysisId);
  }
  return presentAnalysis(row);
}

/**
 * An analysis the credential can reach ($1 the analysis, $2 and $3 as reachableSql): its version
 * (the row's xmin and its creator's email), its columns, and its JSON columns unless $4 is that
 * version (the caller has the body of that version). A questions analysis also brings its run ids
 * and the hold of its run (HOLD_COLUMNS at 13), which its body shows but its version does not cover.
 */
const ANALYSIS_BY_ID: Statement = {
  name: "geoscope_analysis_by_id_v1",
  text:
    `SELECT v.version, a.id, a.kind::text, a.status::text, a.subject, ${isoText("a.created_at")}, ${isoText("a.completed_at")}, a.project_id, u.email, ` +
    `CASE WHEN v.version = $4 THEN NULL ELSE a.input::text END, CASE WHEN v.version = $4 THEN NULL ELSE a.result::text END, ` +
    `CASE WHEN v.version = $4 THEN NULL ELSE a.error::text END, ` +
    `CASE WHEN a.kind = 'questions' THEN (SELECT json_agg(ar.run_id ORDER BY ar.position)::text FROM analysis_runs ar WHERE ar.analysis_id = a.id) END, ` +
    `${HOLD_COLUMNS} ` +
    `FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id ` +
    `CROSS JOIN LATERAL (SELECT a.xmin::text || ':' || COALESCE(u.email, '') AS version) v ` +
    `LEFT JOIN LATERAL (SELECT ar.run_id FROM analysis_runs ar WHERE ar.analysis_id = a.id AND a.kind = 'questions' ORDER BY ar.position LIMIT 1) q ON true ` +
    `LEFT JOIN credit_holds h ON h.run_id = q.run_id ` +
    `WHERE a.id = $1 AND ${reachableSql("a")}`,
};

const ANALYSIS_STATUS: Statement = {
  name: "geoscope_analysis_status_v1",
  text: "SELECT a.status::text FROM analyses a WHERE a.id = $1",
};

/**
 * Bodies of citation analyses by version: insert-only, and up to megabytes of figures that would
 * otherwise be parsed and serialised on every read; 8 Mi characters at most, each up to 4 Mi (the
 * figures of 10,000 runs are some 2 Mi). A questions analysis is small, and its charge changes
 * with a row its version does not cover: it is presented on each read.
 */
const citationBodies = new VersionCache<{ version: string; status: string; text: string; size: number }>("__geoscopeAnalysisBodies", 8 * 2 ** 20, 4 * 2 ** 20);

type AnalysisText = { finished: boolean; text: string };

/** The presented analysis of an ANALYSIS_BY_ID row whose JSON columns were sent. */
function presentAnalysisRow(row: TextRow): z.input<typeof Analysis> {
  const email = row[8] ?? null;
  const analysis = {
    id: row[1]!,
    kind: row[2] as AnalysisRow["kind"],
    status: row[3] as AnalysisRow["status"],
    subject: row[4]!,
    createdAt: new Date(row[5]!),
    completedAt: row[6] == null ? null : new Date(row[6]),
    projectId: row[7]!,
    createdBy: email === null ? null : { email },
    input: JSON.parse(row[9]!),
    result: row[10] == null ? null : JSON.parse(row[10]),
    error: row[11] == null ? null : JSON.parse(row[11]),
  };
  if (analysis.kind === "questions") return presentQuestionsAnalysis(analysis, JSON.parse(row[12] ?? "[]") as string[], holdOf(row, 13));
  return presentCitationAnalysis(analysis as AnalysisRow);
}

/** GET /analyses/{id} as JSON text (byte for byte JSON.stringify(getAnalysis(…))), or null when the credential cannot reach it. */
async function readAnalysisText(principal: Principal, analysisId: string): Promise<AnalysisText | null> {
  const held = citationBodies.get(analysisId);
  const [row] = await queryText(currentDb(), ANALYSIS_BY_ID, [analysisId, principal.workspaceId, principal.user.id, held?.version ?? null]);
  if (!row) return null;
  if (held && held.version === row[0]) return { finished: isFinished(held.status as AnalysisRow["status"]), text: held.text };
  const text = JSON.stringify(presentAnalysisRow(row));
  const status = row[3]!;
  if (row[2] === "citations") citationBodies.set(analysisId, { version: row[0]!, status, text, size: text.length });
  return { finished: isFinished(status as AnalysisRow["status"]), text };
}

async function analysisFinished(analysisId: string): Promise<boolean> {
  const [row] = await queryText(currentDb(), ANALYSIS_STATUS, [analysisId]);
  return !row || isFinished(row[0] as AnalysisRow["status"]);
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

/** The analysis id a cursor points after (either prefix), or 400 naming `cursor`. */
function cursorId(cursor: string): string {
  try {
    return decodeCursor(cursor, "ca");
  } catch {
    return decodeCursor(cursor, "fa");
  }
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
  const q = new FilteredStatement();
  let inWorkspaces: (t: string) => string;
  if (query.workspace) {
    const workspace = q.param((await requireWorkspace(principal, query.workspace)).workspace.id);
    inWorkspaces = (t) => `${t}.workspace_id = ${workspace}`;
    q.where(inWorkspaces("a"), "w");
  } else {
    const user = q.param(principal.user.id);
    const own = q.param(principal.workspaceId);
    inWorkspaces = (t) => inReachableWorkspaceSql(t, user, own);
    q.where(inWorkspaces("a"));
  }
  if (query.project) q.where(`a.project_id = ${q.param((await getProjectOrThrow(principal, query.project)).id)}`, "p");
  if (query.kind) q.where(`a.kind = ${q.param(query.kind)}::"AnalysisKind"`, "k");
  const after = query.cursor ? cursorId(query.cursor) : null;
  // No row when the cursor's analysis is not one the caller can list: told apart below.
  if (after) q.where(`(a.created_at, a.id) < (SELECT c.created_at, c.id FROM analyses c WHERE c.id = ${q.param(after)} AND ${inWorkspaces("c")})`, "c");
  const limit = q.param(String(query.limit + 1));
  const statement = q.statement(
    "geoscope_analyses_v1",
    (where) =>
      `SELECT a.id, a.kind::text, a.status::text, a.subject, (SELECT count(*) FROM analysis_runs ar WHERE ar.analysis_id = a.id)::text, ` +
      `${isoText("a.created_at")}, a.project_id, u.email, ${isoText("a.completed_at")} ` +
      `FROM analyses a LEFT JOIN users u ON u.id = a.created_by_user_id WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit}::int`,
  );
  const rows = await queryText(currentDb(), statement, q.values);
  if (after && rows.length === 0) {
    const check = new FilteredStatement();
    check.where(`c.id = ${check.param(after)}`);
    if (query.workspace) check.where(`c.workspace_id = ${check.param(query.workspace)}`, "w");
    else check.where(inReachableWorkspaceSql("c", check.param(principal.user.id), check.param(principal.workspaceId)), "r");
    const found = await queryText(currentDb(), check.statement("geoscope_analysis_cursor_v1", (where) => `SELECT 1 FROM analyses c WHERE ${where}`), check.values);
    if (found.length === 0) throw new ApiError("invalid_request", CURSOR_REFUSED);
  }
  const page = pageOf(rows.map((row) => ({ id: row[0]!, row })), query.limit);
  return {
    items: page.items.map(({ row }) => ({
      id: row[0]!,
      kind: row[1] as z.input<typeof AnalysisSummary>["kind"],
      status: row[2] as z.input<typeof AnalysisSummary>["status"],
      subject: row[3]!,
      run_count: Number(row[4]),
      created_at: row[5]!,
      project_id: row[6]!,
      created_by: row[7] ?? null,
      completed_at: row[8] ?? null,
    })),
    next_cursor: page.next_cursor,
  };
}

/** An analysis by id, whoever asks: for a public share page, which has checked its token. Null when there is none. */
export async function analysisById(analysisId: string) {
  const row = await db().analysis.findUnique({ where: { id: analysisId }, include: analysisInclude });
  return row ? presentAnalysis(row) : null;
}
