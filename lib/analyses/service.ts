// Analyses as a service: POST /citation-analyses (computed at once from run_sources, stored),
// GET /analyses (summaries of every kind) and GET /analyses/{id} (presented by kind).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { db } from "../db/client";
import { allOf, arrayParam, bool, date, defineStatement, int, json, optional, text, type RowOf } from "../db/statement";
import { standalone } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { isId, newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { JsonText } from "../http/respond";
import { getProjectOrThrow } from "../projects/projects";
import { loadQuestionsAnalysis, presentQuestionsAnalysis } from "../questions/present";
import { holdJoin, holdShape } from "../billing/store";
import { isFinished } from "../runs/status";
import { CITATION_LIMITS, type AnalysesQuery, type Analysis, type AnalysisList, type AnalysisSummary, type CitationAnalysis, type CitationAnalysisRequest } from "../schemas/analyses";
import { domainNameOf } from "../schemas/projects";
import { readableSql, readerOf, type Reader } from "../shares/reader";
import { presentVisibilityAnalysis } from "../visibility/present";
import { inReachableWorkspaceSql, reachableBy, reachableWorkspaceIds, reachOf, requireWorkspace, type ReachPlaceholders } from "../workspaces/access";
import { computeCitationAnalysis, type CitationFigures, type ObservedSource, type RunObservation } from "./citations";

export const CITATION_METHOD = "stored_results_v1";

/** A run an id named: what the analysis needs of it, read without its result. */
export type NamedRun = {
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

const ID_KINDS: Record<string, string> = { dr: "run", rq: "batch", fo: "fanout" };
const kindOfId = (id: string) => ID_KINDS[id.slice(0, 2)] ?? "run, batch or fanout";

// The prompt is the input's prompt, else the subject (what every prompt run's input holds).
const NAMED_COLUMNS = {
  id: text("r.id"),
  kind: text<NamedRun["kind"]>("r.kind"),
  status: text<NamedRun["status"]>("r.status"),
  engine: text("r.engine").nullable,
  projectId: text("r.project_id"),
  batchId: text("r.batch_id").nullable,
  fanoutId: text("r.fanout_id").nullable,
  citationsExposed: bool("r.citations_exposed").nullable,
  prompt: text("COALESCE(r.input->>'prompt', r.subject)"),
  country: text("r.input->'location'->>'country'").nullable,
};

/** The runs among `runs` in the caller's workspaces (read with pg statements: 20,000 rows decode far faster than through Prisma's raw queries). */
const RUNS_BY_ID = defineStatement({
  label: "analysis_named_runs",
  params: ["runs", "workspaces"],
  columns: NAMED_COLUMNS,
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[]) AND r.workspace_id = ANY(${p.workspaces}::text[])`,
});

/** The batches or fanouts among `ids` in the caller's workspaces. */
const GROUPS_FOUND = {
  rq: defineStatement({
    label: "analysis_named_batches",
    params: ["ids", "workspaces"],
    columns: { id: text("b.id") },
    sql: ({ select, p }) => `SELECT ${select} FROM batches b WHERE b.id = ANY(${p.ids}::text[]) AND b.workspace_id = ANY(${p.workspaces}::text[])`,
  }),
  fo: defineStatement({
    label: "analysis_named_fanouts",
    params: ["ids", "workspaces"],
    columns: { id: text("f.id") },
    sql: ({ select, p }) => `SELECT ${select} FROM fanouts f WHERE f.id = ANY(${p.ids}::text[]) AND f.workspace_id = ANY(${p.workspaces}::text[])`,
  }),
};

/** The runs of the batches or fanouts among `ids` in the caller's workspaces, in creation order (ids are time-ordered). */
const GROUP_RUNS = {
  rq: defineStatement({
    label: "analysis_batch_runs",
    params: ["ids", "workspaces"],
    columns: NAMED_COLUMNS,
    sql: ({ select, p }) =>
      `SELECT ${select} FROM runs r WHERE r.batch_id IN (SELECT b.id FROM batches b WHERE b.id = ANY(${p.ids}::text[]) AND b.workspace_id = ANY(${p.workspaces}::text[])) ORDER BY r.id`,
  }),
  fo: defineStatement({
    label: "analysis_fanout_runs",
    params: ["ids", "workspaces"],
    columns: NAMED_COLUMNS,
    sql: ({ select, p }) =>
      `SELECT ${select} FROM runs r WHERE r.fanout_id IN (SELECT f.id FROM fanouts f WHERE f.id = ANY(${p.ids}::text[]) AND f.workspace_id = ANY(${p.workspaces}::text[])) ORDER BY r.id`,
  }),
};

/** The batches (`rq`) or fanouts (`fo`) among the ids that the caller can see, and their runs in creation order. */
async function groupsNamed(ids: readonly string[], prefix: "rq" | "fo", workspaces: string[]): Promise<{ found: Set<string>; runs: Map<string, NamedRun[]> }> {
  const wanted = [...new Set(ids.filter((id) => isId(id, prefix)))];
  if (wanted.length === 0) return { found: new Set(), runs: new Map() };
  const params = { ids: arrayParam(wanted), workspaces: arrayParam(workspaces) };
  // Which exist and their runs at once (the runs' statement checks the workspaces itself).
  const [rows, named] = await Promise.all([GROUPS_FOUND[prefix].query(standalone(), params), GROUP_RUNS[prefix].query(standalone(), params)]);
  const found = new Set(rows.map((r) => r.id));
  const runs = new Map<string, NamedRun[]>();
  for (const { fanoutId, ...r } of named) {
    const group = (prefix === "rq" ? r.batchId : fanoutId)!;
    let list = runs.get(group);
    if (list === undefined) runs.set(group, (list = []));
    list.push(r);
  }
  return { found, runs };
}

/**
 * The runs the ids name, in the order named (a batch's or a fanout's runs in creation order),
 * repeats kept for `duplicate`. Any id the caller cannot see answers 404 naming the first such id given.
 */
async function runsNamed(principal: Principal, ids: readonly string[]): Promise<NamedRun[]> {
  const runIds = [...new Set(ids.filter((id) => isId(id, "dr")))];
  const workspaces = await reachableWorkspaceIds(principal);
  const [runs, batches, fanouts] = await Promise.all([
    runIds.length
      ? RUNS_BY_ID.query(standalone(), { runs: arrayParam(runIds), workspaces: arrayParam(workspaces) })
      : [],
    groupsNamed(ids, "rq", workspaces),
    groupsNamed(ids, "fo", workspaces),
  ]);
  const runById = new Map(runs.map(({ fanoutId: _, ...r }) => [r.id, r]));
  for (const id of ids) {
    if (!runById.has(id) && !batches.found.has(id) && !fanouts.found.has(id)) throw notFound(kindOfId(id), id);
  }
  const named = ids.flatMap((id) => (runById.has(id) ? [runById.get(id)!] : (batches.runs.get(id) ?? fanouts.runs.get(id) ?? [])));
  if (named.length > CITATION_LIMITS.runs) {
    throw new ApiError("invalid_request", `ids: name ${named.length} runs; an analysis covers at most ${CITATION_LIMITS.runs}`);
  }
  return named;
}

/**
 * The runs the ids name (runsNamed), all of one project: runs of several projects, or batches
 * and fanouts with no runs, are 400. What every analysis of stored runs starts from.
 */
export async function runsOfOneProject(principal: Principal, ids: readonly string[]): Promise<{ named: NamedRun[]; projectId: string }> {
  const named = await runsNamed(principal, ids);
  const projects = [...new Set(named.map((r) => r.projectId))];
  if (projects.length > 1) {
    throw new ApiError(
      "invalid_request",
      `ids: the runs belong to ${projects.length} projects (${projects.join(", ")}); an analysis covers the runs of one project`,
    );
  }
  if (named.length === 0) throw new ApiError("invalid_request", "ids: name no runs (the batches are empty)");
  return { named, projectId: projects[0]! };
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

/** What an analysis is about: its first prompt, and how many others; `${what} of N runs` when none is a prompt run. */
export function subjectOf(runs: readonly { kind: string; prompt: string }[], what: string): string {
  const prompts = [...new Set(runs.filter((o) => o.kind === "prompt").map((o) => o.prompt))];
  if (prompts.length === 0) return `${what} of ${runs.length} runs`;
  return prompts.length === 1 ? prompts[0]! : `${prompts[0]} (+${prompts.length - 1} more prompts)`;
}

const analysisInclude = { createdBy: { select: { email: true } } } as const;

/** An analysis's columns (alias a, its creator u): what the presenters read of it. */
const analysisColumns = {
  id: text("a.id"),
  kind: text<"citations" | "questions" | "visibility">("a.kind"),
  status: text<z.input<typeof AnalysisSummary>["status"]>("a.status"),
  subject: text("a.subject"),
  createdAt: date("a.created_at"),
  completedAt: date("a.completed_at").nullable,
  projectId: text("a.project_id"),
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
  input: json("a.input"),
  result: json("a.result").nullable,
  error: json("a.error").nullable,
};

export type AnalysisRow = RowOf<typeof analysisColumns>;

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
  visibility: presentVisibilityAnalysis,
};

function presentAnalysis(row: AnalysisRow): Promise<z.input<typeof Analysis>> | z.input<typeof Analysis> {
  return presenters[row.kind](row);
}

/** POST /citation-analyses: the analysis computed, stored and presented, with the version of its row. */
async function storeCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
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
      id, project.workspaceId, projectId, subjectOf(observations, "Citations"), JSON.stringify(input), JSON.stringify(figures),
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
  const row: AnalysisRow = {
    id, kind: "citations", status: "completed", projectId, subject: subjectOf(observations, "Citations"),
    input, result: JSON.parse(stored.result), error: null, createdAt: now, completedAt: now, createdBy: { email: principal.user.email },
  };
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
  rememberAnalysisBody(analysis.id, `${version}:${principal.user.email}`, analysis.status, text);
  return new JsonText<z.input<typeof CitationAnalysis>>(text);
}

/**
 * Files a just-made analysis's body under the version the statement of GET /analyses/{id} will
 * read (its row's xmin and its creator's email), so the first GET finds it too.
 */
export function rememberAnalysisBody(analysisId: string, version: string, status: string, text: string): void {
  analysisBodies.set(analysisId, { version, status, text, size: text.length });
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
  const text = JSON.stringify(analysis.kind === "questions" ? presentQuestionsAnalysis(analysis, row.runIds ?? [], row.hold) : presenters[analysis.kind](analysis));
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
  for (const prefix of ["ca", "fa"] as const) {
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
  given.workspace ? `${t}.workspace_id = ${p.workspace}` : inReachableWorkspaceSql(t, p);

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
