// The reads of runs that analyses make (lib/analyses, lib/visibility, lib/comparison): the runs an
// analysis's ids name (runs, and the runs of the batches and fanouts it names) without their
// results, their sources (run_sources) and answers for a citation analysis, their texts and facts
// for a visibility analysis and a comparison, a run as read when it finishes, and the answers a
// judge is asked about. What the analyses make of them is theirs.
import { arrayParam, bool, defineStatement, int, json, text } from "../db/statement";
import { standalone } from "../db/sql";
import type { RunStatus } from "../schemas/runs";
import { reachableSql } from "../workspaces/access";
import { runsOfReachableBatches } from "./batches";
import { runsOfReachableFanouts } from "./fanout-runs";

type RunKind = "prompt" | "audit" | "questions";

// The prompt is the input's prompt, else the subject (what every prompt run's input holds).
const NAMED_COLUMNS = {
  id: text("r.id"),
  kind: text<RunKind>("r.kind"),
  status: text<RunStatus>("r.status"),
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

/** The runs among `ids` that the caller (user, own) reaches: what an analysis needs of each, without its result. */
export function namedRuns(ids: readonly string[], reach: { user: string; own: string | null }) {
  return RUNS_BY_ID.query(standalone(), { runs: arrayParam(ids), ...reach });
}

/**
 * The completed prompt runs among `runs` and of the batches and fanouts among `batches` and
 * `fanouts` (placeholders of text arrays), whoever's they are: a FROM item (alias `k`, its one
 * column `run_id`) for another owner's statement about them, whose answer the caller keeps only
 * for the runs it has checked the credential reaches (lib/visibility/run-observations.ts reads
 * their kept readings while the runs themselves are read).
 */
export const namedCompletedRunsSql = (p: { runs: string; batches: string; fanouts: string }) => {
  // One branch per kind of id, each able to use its own index (runs by id, by batch, by fanout).
  const completed = (where: string) => `SELECT r.id AS run_id FROM runs r WHERE ${where} AND r.kind = 'prompt' AND r.status = 'completed'`;
  return (
    `(${completed(`r.id = ANY(${p.runs}::text[])`)} UNION ALL ${completed(`r.batch_id = ANY(${p.batches}::text[])`)} ` +
    `UNION ALL ${completed(`r.fanout_id = ANY(${p.fanouts}::text[])`)}) k`
  );
};

/** The runs of the batches (`rq`) or fanouts (`fo`) among `ids` in the caller's workspaces, in creation order (ids are time-ordered). */
const GROUP_RUNS = {
  rq: runsOfReachableBatches("analysis_batch_runs", NAMED_COLUMNS),
  fo: runsOfReachableFanouts("analysis_fanout_runs", NAMED_COLUMNS),
};

/** The runs of the batches (`rq`) or fanouts (`fo`) among `ids` that the caller reaches, in creation order, with the columns namedRuns reads. */
export function runsOfNamedGroups(prefix: "rq" | "fo", ids: readonly string[], reach: { user: string; own: string | null }) {
  return GROUP_RUNS[prefix].query(standalone(), { ids: arrayParam(ids), ...reach });
}

const SOURCES_OF_RUNS = defineStatement({
  label: "analysis_sources_of_runs",
  params: ["runs"],
  columns: {
    runId: text("run_id"),
    sources: text(
      `json_agg(json_build_array(url, domain, cited, search_query_observed, retrieval_observed, citation_count, resolution) ORDER BY position)`,
    ),
  },
  sql: ({ select, p }) => `SELECT ${select} FROM run_sources WHERE run_id = ANY(${p.runs}::text[]) GROUP BY run_id`,
});

/**
 * The sources of the runs `ids` from run_sources, as one JSON array of arrays per run (url,
 * domain, cited, search_query_observed, retrieval_observed, citation_count, resolution, in
 * position order), parsed by the caller at once instead of 15 row objects per run.
 */
export function sourcesOfRuns(ids: readonly string[]) {
  return SOURCES_OF_RUNS.query(standalone(), { runs: arrayParam(ids) });
}

const ANSWERS_OF_RUNS = defineStatement({
  label: "analysis_answers_of_runs",
  params: ["runs"],
  columns: { id: text("id"), answer: text("result->>'answer'").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs WHERE id = ANY(${p.runs}::text[])`,
});

/** The answers of the runs `ids` (read out of their results in the database), in no particular order. */
export function answersOfRuns(ids: readonly string[]) {
  return ANSWERS_OF_RUNS.query(standalone(), { runs: arrayParam(ids) });
}

const CITATIONS_OF_DOMAINS = defineStatement({
  label: "analysis_domain_citations_by_engine",
  params: ["runs", "domains"],
  columns: { domain: text("domain"), engine: text("engine").nullable, citations: int("SUM(GREATEST(citation_count, 1))") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM run_sources WHERE run_id = ANY(${p.runs}::text[]) AND domain = ANY(${p.domains}::text[]) AND cited = true GROUP BY domain, engine`,
});

/**
 * The citations of each domain by engine among the cited sources of the runs `runIds`, for the
 * domains `domains` (a cited source counts its citation marks, at least 1), from run_sources.
 */
export function citationsOfDomainsByEngine(runIds: readonly string[], domains: readonly string[]) {
  return CITATIONS_OF_DOMAINS.query(standalone(), { runs: arrayParam(runIds), domains: arrayParam(domains) });
}

/** Of a run's result (`x.res`, detoasted once by ofRunResults' lateral copy): whether shown, its searches' queries, its cited pages. */
const RESULT_FACTS = {
  shown: bool("CASE WHEN jsonb_typeof(x.res->'shown') = 'boolean' THEN (x.res->'shown')::boolean END").nullable,
  queries: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.searches[*].query')").nullable,
  cited: json<(string | null)[]>("jsonb_path_query_array(x.res, '$.sources[*] ? (@.cited == true).url')").nullable,
};

/** The runs `runs` with their result as `x.res`. */
const ofRunResults = ({ select, p }: { select: string; p: { runs: string } }) =>
  `SELECT ${select} FROM runs r CROSS JOIN LATERAL (SELECT r.result || '{}'::jsonb AS res OFFSET 0) x WHERE r.id = ANY(${p.runs}::text[])`;

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
  columns: { id: text("r.id"), answer: text("x.res->>'answer'").nullable, ...RESULT_FACTS },
  sql: ofRunResults,
});

/** The answers, whether shown, queries and cited pages of the runs `ids` (RUN_TEXTS), in no particular order. */
export function readRunTexts(ids: readonly string[]) {
  return RUN_TEXTS.query(standalone(), { runs: arrayParam(ids) });
}

/** RUN_TEXTS without the answer: for the runs whose readings are kept (lib/visibility/run-observations.ts), whose answers need no reading. */
const RUN_FACTS = defineStatement({
  label: "analysis_run_facts",
  params: ["runs"],
  columns: { id: text("r.id"), ...RESULT_FACTS },
  sql: ofRunResults,
});

/** Whether shown, queries and cited pages of the runs `ids` (RUN_FACTS), in no particular order. */
export function readRunFacts(ids: readonly string[]) {
  return RUN_FACTS.query(standalone(), { runs: arrayParam(ids) });
}

/** A run as read when it finishes (lib/visibility/run-observations.ts): what an analysis names of it, without its result. */
const FINISHED_RUN = defineStatement({
  label: "analysis_finished_run",
  params: ["run"],
  columns: { id: NAMED_COLUMNS.id, kind: NAMED_COLUMNS.kind, status: NAMED_COLUMNS.status, engine: NAMED_COLUMNS.engine, projectId: NAMED_COLUMNS.projectId, prompt: NAMED_COLUMNS.prompt, country: NAMED_COLUMNS.country },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ${p.run}`,
});

/** A run by id, what an analysis names of it (no access check: for the work that finished it); its texts are readRunTexts'. */
export function readFinishedRun(id: string) {
  return FINISHED_RUN.first(standalone(), { run: id });
}

/** The runs a judged visibility analysis puts to its judge (lib/visibility/judging.ts): engine, prompt and answer. */
const JUDGE_RUNS = defineStatement({
  label: "judge_runs",
  params: ["runs"],
  columns: { id: text("r.id"), engine: text("r.engine").nullable, prompt: text("COALESCE(r.input->>'prompt', r.subject)"), answer: text("r.result->>'answer'").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[])`,
});

/** The engine, prompt and answer of the runs `ids`, in no particular order (JUDGE_RUNS). */
export function runsToJudge(ids: readonly string[]) {
  return JUDGE_RUNS.query(standalone(), { runs: arrayParam(ids) });
}
