// The runs an analysis's ids name (runs, batches, fanouts), all of one project the caller can reach,
// and what the analyses read of them (lib/analyses/citations.ts, lib/visibility): the statements
// are the runs' owner's (lib/runs/analysis-reads.ts), which this module calls.
import type { Principal } from "../auth/principal";
import { idsOf } from "../db/ids";
import { arrayParam } from "../db/statement";
import { standalone } from "../db/sql";
import { REACHABLE_FANOUTS } from "../fanouts/reach";
import { ApiError, notFound } from "../http/errors";
import { answersOfRuns, namedRuns, runsOfNamedGroups, sourcesOfRuns } from "../runs/analysis-reads";
import { REACHABLE_BATCHES } from "../runs/batches";
import { CITATION_LIMITS } from "../schemas/analyses";
import { reachOf } from "../workspaces/access";
import { type ObservedSource, type RunObservation } from "./citations";

/** What the visibility analyses and comparisons read of runs, from their owner (lib/runs/analysis-reads.ts). */

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

/** The batches or fanouts among `ids` in the caller's workspaces (their owners' statements). */
const GROUPS_FOUND = { rq: REACHABLE_BATCHES, fo: REACHABLE_FANOUTS };

/** The batches (`rq`) or fanouts (`fo`) among the ids that the caller can see, and their runs in creation order. */
async function groupsNamed(ids: readonly string[], prefix: "rq" | "fo", reach: { user: string; own: string | null }): Promise<{ found: Set<string>; runs: Map<string, NamedRun[]> }> {
  const wanted = idsOf(ids, prefix);
  if (wanted.length === 0) return { found: new Set(), runs: new Map() };
  // Which exist and their runs at once (the runs' statement checks the workspaces itself).
  const [rows, named] = await Promise.all([GROUPS_FOUND[prefix].query(standalone(), { ids: arrayParam(wanted), ...reach }), runsOfNamedGroups(prefix, wanted, reach)]);
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
  const runIds = idsOf(ids, "dr");
  const reach = reachOf(principal);
  const [runs, batches, fanouts] = await Promise.all([
    runIds.length ? namedRuns(runIds, reach) : [],
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
      Promise.all(parts.map((part) => sourcesOfRuns(part))),
      withAnswers ? answersOfRuns(counted) : [],
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
