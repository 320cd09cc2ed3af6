// The runs an analysis's ids name (runs, batches, fanouts), all of one project the caller can reach,
// and what the analyses read of them (lib/analyses/citations.ts, lib/visibility).
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { isId } from "../db/ids";
import { arrayParam, bool, defineStatement, json, text } from "../db/statement";
import { standalone } from "../db/sql";
import { REACHABLE_FANOUTS, runsOfReachableFanouts } from "../fanouts/reach";
import { ApiError, notFound } from "../http/errors";
import { REACHABLE_BATCHES, runsOfReachableBatches } from "../runs/batches";
import { CITATION_LIMITS } from "../schemas/analyses";
import { reachableSql, reachOf } from "../workspaces/access";
import { type ObservedSource, type RunObservation } from "./citations";

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
  params: ["runs", "user", "own"],
  columns: NAMED_COLUMNS,
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[]) AND ${reachableSql("r", p)}`,
});

/** The batches or fanouts among `ids` in the caller's workspaces (their owners' statements). */
const GROUPS_FOUND = { rq: REACHABLE_BATCHES, fo: REACHABLE_FANOUTS };

/** The runs of the batches or fanouts among `ids` in the caller's workspaces, in creation order (ids are time-ordered). */
const GROUP_RUNS = {
  rq: runsOfReachableBatches("analysis_batch_runs", NAMED_COLUMNS),
  fo: runsOfReachableFanouts("analysis_fanout_runs", NAMED_COLUMNS),
};

/** The batches (`rq`) or fanouts (`fo`) among the ids that the caller can see, and their runs in creation order. */
async function groupsNamed(ids: readonly string[], prefix: "rq" | "fo", reach: { user: string; own: string | null }): Promise<{ found: Set<string>; runs: Map<string, NamedRun[]> }> {
  const wanted = [...new Set(ids.filter((id) => isId(id, prefix)))];
  if (wanted.length === 0) return { found: new Set(), runs: new Map() };
  const params = { ids: arrayParam(wanted), ...reach };
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
  const reach = reachOf(principal);
  const [runs, batches, fanouts] = await Promise.all([
    runIds.length
      ? RUNS_BY_ID.query(standalone(), { runs: arrayParam(runIds), ...reach })
      : [],
    groupsNamed(ids, "rq", reach),
    groupsNamed(ids, "fo", reach),
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

/**
 * What a visibility analysis and a comparison read of each counted run: the answer, whether the
 * surface showed one (a comparison's `no_answer`), the queries of its searches and the URLs of the
 * pages it cited (its result's sources marked cited, in order: the rows run_sources holds, written
 * from the same list). The result is detoasted once (the lateral copy) rather than once for each
 * expression reading it: with run_sources looked up per run, this read took twice the floor's
 * time (one SELECT of the answers); now about as long.
 */
const RUN_TEXTS = defineStatement({
  label: "analysis_run_texts",
  params: ["runs"],
  columns: {
    id: text("r.id"),
    answer: text("x.res->>'answer'").nullable,
    shown: bool("CASE WHEN jsonb_typeof(x.res->'shown') = 'boolean' THEN (x.res->'shown')::boolean END").nullable,
    queries: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.searches[*].query')").nullable,
    cited: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.sources[*] ? (@.cited == true).url')").nullable,
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM runs r CROSS JOIN LATERAL (SELECT r.result || '{}'::jsonb AS res OFFSET 0) x WHERE r.id = ANY(${p.runs}::text[])`,
});

/** The answers, whether shown, queries and cited pages of the runs `ids` (RUN_TEXTS), in no particular order. */
export function readRunTexts(ids: readonly string[]) {
  return RUN_TEXTS.query(standalone(), { runs: arrayParam(ids) });
}

/** RUN_TEXTS without the answer: for the runs whose readings are kept (lib/visibility/run-observations.ts), whose answers need no reading. */
const RUN_FACTS = defineStatement({
  label: "analysis_run_facts",
  params: ["runs"],
  columns: {
    id: text("r.id"),
    shown: bool("CASE WHEN jsonb_typeof(x.res->'shown') = 'boolean' THEN (x.res->'shown')::boolean END").nullable,
    queries: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.searches[*].query')").nullable,
    cited: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.sources[*] ? (@.cited == true).url')").nullable,
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM runs r CROSS JOIN LATERAL (SELECT r.result || '{}'::jsonb AS res OFFSET 0) x WHERE r.id = ANY(${p.runs}::text[])`,
});

/** Whether shown, queries and cited pages of the runs `ids` (RUN_FACTS), in no particular order. */
export function readRunFacts(ids: readonly string[]) {
  return RUN_FACTS.query(standalone(), { runs: arrayParam(ids) });
}

/** A run as read when it finishes (lib/visibility/run-observations.ts): what an analysis names of it, without its result. */
const FINISHED_RUN = defineStatement({
  label: "analysis_finished_run",
  params: ["run"],
  columns: {
    id: text("r.id"),
    kind: text<NamedRun["kind"]>("r.kind"),
    status: text<NamedRun["status"]>("r.status"),
    engine: text("r.engine").nullable,
    projectId: text("r.project_id"),
    prompt: text("COALESCE(r.input->>'prompt', r.subject)"),
    country: text("r.input->'location'->>'country'").nullable,
  },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ${p.run}`,
});

/** A run by id, what an analysis names of it (no access check: for the work that finished it); its texts are readRunTexts'. */
export function readFinishedRun(id: string) {
  return FINISHED_RUN.first(standalone(), { run: id });
}

/** What an analysis is about: its first prompt, and how many others; `${what} of N runs` when none is a prompt run. */
export function subjectOf(runs: readonly { kind: string; prompt: string }[], what: string): string {
  const prompts = [...new Set(runs.filter((o) => o.kind === "prompt").map((o) => o.prompt))];
  if (prompts.length === 0) return `${what} of ${runs.length} runs`;
  return prompts.length === 1 ? prompts[0]! : `${prompts[0]} (+${prompts.length - 1} more prompts)`;
}
