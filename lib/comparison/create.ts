// POST /comparison-analyses: the runs the ids name (a batch's or a fanout's all of them), the
// entities (given, or the project context's), the two engines' answers, searches and cited pages
// read in the database, the figures computed (./compute.ts) and the analysis and its runs stored in
// one transaction. Free: no hold, `charge` null.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { rememberAnalysisBody } from "../analyses/read";
import { runsOfOneProject, subjectOf, type NamedRun } from "../analyses/runs";
import { readRunFacts, readRunTexts } from "../runs/analysis-reads";
import { insertAnalysis } from "../analyses/store";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { textTransaction, type SqlSession } from "../db/sql";
import { ApiError, notFound } from "../http/errors";
import { asciiJson, JsonText } from "../http/respond";
import { parseBody } from "../http/input";
import { ComparisonAnalysisRequest as ComparisonAnalysisRequestSchema, type ComparisonAnalysis, type ComparisonAnalysisRequest } from "../schemas/comparison";
import { readProjectContext } from "../projects/read";
import { normalizeEntity } from "../visibility/entities";
import { entitiesFor } from "../visibility/request-entities";
import { keepAfter, observeWithKept, readingKey, readKept, readStructures, type KeptStructure, type Reading } from "../visibility/run-observations";
import { computeComparison, type ComparisonRunInput } from "./compute";
import { presentComparisonAnalysis } from "./present";

type Request = z.output<typeof ComparisonAnalysisRequest>;

/** `a` and `b` each have a run among those named, or 400 naming the one that has none. */
function checkEngines(body: Request, named: readonly NamedRun[]): void {
  const present = [...new Set(named.map((r) => r.engine).filter((e): e is string => e !== null))].sort();
  for (const key of ["a", "b"] as const) {
    if (!present.includes(body[key])) {
      throw new ApiError(
        "invalid_request",
        `${key}: ${body[key]} has no runs among those the ids name (their engines: ${present.join(", ") || "none"}); compare two engines that answered the same prompts`,
      );
    }
  }
}

type RunFacts = { answer: string | null; shown: boolean | null; queries: string[]; cited: string[] };

const strings = (values: (string | null)[] | null) => (values ?? []).filter((v): v is string => typeof v === "string");

/**
 * The runs of a and b that can count, and their readings kept for the entities (`key`): whether
 * shown, queries and cited pages of every one, and the answers only of those without a kept
 * reading (read in parts at once).
 */
async function runInputs(named: readonly NamedRun[], engines: readonly string[], key: string): Promise<{ inputs: ComparisonRunInput[]; kept: Map<string, Buffer> }> {
  const wanted = [...new Set(named.filter((r) => r.kind === "prompt" && r.status === "completed" && engines.includes(r.engine ?? "")).map((r) => r.id))];
  const kept = await readKept(key, wanted);
  const facts = new Map<string, RunFacts>();
  const missing = wanted.filter((id) => !kept.has(id));
  const inParts = <T>(ids: string[], read: (part: string[]) => Promise<T[]>) => {
    const n = Math.min(4, Math.ceil(ids.length / 1000));
    return Promise.all(Array.from({ length: n }, (_, i) => read(ids.slice(Math.floor((i * ids.length) / n), Math.floor(((i + 1) * ids.length) / n)))));
  };
  const [texts, known, structures] = await Promise.all([inParts(missing, readRunTexts), inParts([...kept.keys()], readRunFacts), readStructures(missing)]);
  for (const row of texts.flat()) facts.set(row.id, { answer: row.answer, shown: row.shown, queries: strings(row.queries), cited: strings(row.cited) });
  for (const row of known.flat()) facts.set(row.id, { answer: null, shown: row.shown, queries: strings(row.queries), cited: strings(row.cited) });
  const inputs = named.map((r) => {
    const t = facts.get(r.id);
    return {
      run_id: r.id,
      engine: r.engine,
      country: r.country,
      prompt: r.prompt,
      status: r.status,
      kind: r.kind,
      answer: t?.answer ?? null,
      shown: t?.shown ?? null,
      search_queries: t?.queries ?? [],
      cited_urls: t?.cited ?? [],
      structure: structures.get(r.id) ?? null,
    };
  });
  return { inputs, kept };
}

/**
 * What a caller storing the comparison with something of its own (a monitor's tick) does in the
 * comparison's transaction: `before`, first, may refuse (false: nothing is stored, and the store
 * answers null), `after` writes what goes with the comparison (its id).
 */
export type ComparisonHooks = {
  before?: (sql: SqlSession) => Promise<boolean>;
  after?: (sql: SqlSession, id: string) => Promise<void>;
};

/** Computes and stores the comparison; answers its body, presented and serialised once, and files it for GET. */
async function storeComparison(principal: Principal, body: Request): Promise<{ id: string; text: string }>;
async function storeComparison(principal: Principal, body: Request, hooks: ComparisonHooks): Promise<{ id: string; text: string } | null>;
async function storeComparison(principal: Principal, body: Request, hooks: ComparisonHooks = {}): Promise<{ id: string; text: string } | null> {
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
  checkEngines(body, named);
  const project = await readProjectContext(projectId);
  if (!project) throw notFound("project", projectId);
  const entities = entitiesFor(body, project.context);
  const key = readingKey(entities.map(normalizeEntity));
  const { inputs, kept } = await runInputs(named, [body.a, body.b], key);
  let fresh: Reading[] = [];
  const structures: KeptStructure[] = [];
  const figures = computeComparison(inputs, {
    a: body.a,
    b: body.b,
    entities,
    answered: (run) => {
      const cells = kept.get(run.run_id);
      return cells !== undefined ? cells.length > 0 : !(run.answer === null || run.answer.trim() === "");
    },
    observe: (runs, normalized) => {
      const read = observeWithKept(runs, normalized, kept, (runId, structure) => structures.push({ runId, structure }));
      fresh = read.fresh;
      return read.obs;
    },
  });
  const id = newId("comparisonAnalysis");
  const subject = subjectOf(named, "Comparison");
  const now = new Date();
  // Presented and serialised once: the answer, the row's body (GET sends it as it is) and the
  // remembered body are the same text.
  const analysis = presentComparisonAnalysis({
    id, status: "completed", subject, createdAt: now, completedAt: now, projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
  });
  const text = asciiJson(analysis);
  const stored = await textTransaction(currentDb(), async (sql) => {
    if (hooks.before && !(await hooks.before(sql))) return null;
    const created = await insertAnalysis(sql, {
      id, kind: "comparison", status: "completed", workspaceId: project.workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify(figures), body: text,
      runs: figures.run_ids, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
    });
    await hooks.after?.(sql, id);
    return { version: created.version };
  });
  // What was read now is kept for the next analysis of these runs with these entities, once this
  // one has answered (whether or not a caller's hook refused it).
  keepAfter(key, fresh, "a comparison", structures);
  if (!stored) return null;
  rememberAnalysisBody(id, `${stored.version}:${principal.user.email}`, analysis.status, text);
  return { id, text };
}

/**
 * A comparison of the runs `ids` name for `actor`, checked as POST /comparison-analyses checks its
 * body (ApiError 400/404 alike); answers the stored comparison's id (`cm_…`). For the pages'
 * "Compare engines".
 */
export async function analyseComparison(actor: Principal, input: z.input<typeof ComparisonAnalysisRequest>): Promise<string>;
/** The same with hooks in the comparison's transaction (ComparisonHooks); null when `before` refused. */
export async function analyseComparison(actor: Principal, input: z.input<typeof ComparisonAnalysisRequest>, hooks: ComparisonHooks): Promise<string | null>;
export async function analyseComparison(actor: Principal, input: z.input<typeof ComparisonAnalysisRequest>, hooks: ComparisonHooks = {}): Promise<string | null> {
  return (await storeComparison(actor, parseBody(ComparisonAnalysisRequestSchema, input), hooks))?.id ?? null;
}

/** POST /comparison-analyses as the API sends it: the body serialised once (and remembered for GET /analyses/{id}). */
export async function createComparisonAnalysisBody(principal: Principal, body: Request) {
  const stored = await storeComparison(principal, body);
  return new JsonText<z.input<typeof ComparisonAnalysis>>(stored.text);
}
