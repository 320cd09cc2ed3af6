// POST /visibility-analyses: the runs the ids name (a batch's or a fanout's all of them), the
// entities (given, or the project context's), their answers, search queries and cited pages read
// in the database, the figures and every mention computed (./analysis.ts), and the analysis, its
// runs and its mentions stored in one transaction. Free: no hold, `charge` null.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { rememberAnalysisBody } from "../analyses/read";
import { runsOfOneProject, subjectOf, type NamedRun } from "../analyses/runs";
import { readRunTexts } from "../runs/analysis-reads";
import { insertAnalysis, setAnalysisResult } from "../analyses/store";
import { actorOf, holdCredit } from "../billing/holds";
import { presentRunCharge } from "../billing/present";
import { findHold } from "../billing/store";
import { engineConfig } from "../config/engines";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { textTransaction, type SqlSession } from "../db/sql";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, visibilityJudgeQueued } from "../work/events";
import { JUDGE_PROMPT_SHA, JUDGE_PROMPT_VERSION } from "./judge";
import type { StoredJudgement } from "./analysis";
import { ApiError, notFound } from "../http/errors";
import { parseBody } from "../http/input";
import { asciiJson, JsonText } from "../http/respond";
import { readProjectContext } from "../projects/read";
import { VisibilityAnalysisRequest, type VisibilityAnalysis } from "../schemas/visibility";
import { assembleVisibility, combineVisibility, hasAnswer, prepareVisibility, visibilityReader, type ObservedRange, type ObservedVisibility, type StoredVisibilityFigures } from "./analysis";
import { normalizeEntity, type Entity } from "./entities";
import { MentionStore, type VisibilityRunInput } from "./observe";
import { entitiesFor, entityOf } from "./request-entities";
import { keepAfter, observationsOf, readingKey, readingOf, readKept, readKeptOfNamed, readStructures, storeMentions, unanswered, type KeptStructure, type Reading } from "./run-observations";
import { presentVisibilityAnalysis } from "./present";
import { resultBesideBody, resultWithPromptSums } from "./store-result";

type Request = z.output<typeof VisibilityAnalysisRequest>;

export { entitiesFor, entityOf };

type RunText = { answer: string | null; queries: string[]; cited: string[]; structure: Buffer | null };

/** Parts of the texts asked for ahead of the one being matched. */
const AHEAD = 2;

/**
 * The counted runs' answers, queries and cited pages, asked for in parts at once (the database
 * builds the next while the last is read), each part handed to `read` as it arrives, in order:
 * the runs are matched while the database still sends the rest, not after all of it is loaded.
 * `read` gets the part's runs (consecutive among the counted ones) and their texts, which are not
 * kept after it: the 20 MB of a 10,000-run analysis's answers die young instead of being carried
 * through every collection to the end (most of the garbage collector's time when they were kept).
 */
export async function streamRunTexts(named: readonly NamedRun[], read: (part: readonly NamedRun[], texts: ReadonlyMap<string, RunText>) => void): Promise<void> {
  const seen = new Set<string>();
  const counted = named.filter((r) => r.kind === "prompt" && r.status === "completed" && !seen.has(r.id) && seen.add(r.id));
  // Parts of at least 500 runs, at most 8; AHEAD of them asked for at a time, so the first arrives
  // soon (statements all asked at once share the database's CPU and arrive together at the end).
  const n = Math.min(8, Math.ceil(counted.length / 500));
  const parts = Array.from({ length: n }, (_, i) => counted.slice(Math.floor((i * counted.length) / n), Math.floor(((i + 1) * counted.length) / n)));
  const queries: Promise<[Awaited<ReturnType<typeof readRunTexts>>, Map<string, Buffer>]>[] = [];
  const ask = (k: number) => {
    if (k >= n) return;
    // The part's texts and its answers' kept structures side by side.
    const ids = parts[k]!.map((r) => r.id);
    const q = Promise.all([readRunTexts(ids), readStructures(ids)]);
    // Each is awaited below in turn; one failing before its turn is not an unhandled rejection.
    q.catch(() => undefined);
    queries.push(q);
  };
  for (let k = 0; k < AHEAD; k++) ask(k);
  for (let k = 0; k < n; k++) {
    const [rows, structures] = await queries[k]!;
    queries[k] = undefined as never;
    ask(k + AHEAD);
    const texts = new Map<string, RunText>();
    for (const row of rows) {
      texts.set(row.id, {
        answer: row.answer,
        queries: (row.queries ?? []).filter((q): q is string => typeof q === "string"),
        cited: (row.cited ?? []).filter((u): u is string => typeof u === "string"),
        structure: structures.get(row.id) ?? null,
      });
    }
    read(parts[k]!, texts);
  }
}

/** No texts: the runs as the figures need them (their answers were read and let go). */
const NO_TEXTS: ReadonlyMap<string, RunText> = new Map();

export function inputsOf(named: readonly NamedRun[], texts: ReadonlyMap<string, RunText>): VisibilityRunInput[] {
  return named.map((r) => {
    const t = texts.get(r.id);
    return {
      run_id: r.id,
      engine: r.engine,
      country: r.country,
      prompt: r.prompt,
      status: r.status,
      kind: r.kind,
      answer: t?.answer ?? null,
      search_queries: t?.queries ?? [],
      cited_urls: t?.cited ?? [],
      structure: t?.structure ?? null,
    };
  });
}

/** The counted runs of an analysis read for its entities: kept readings where there are, the rest read now. */
type ReadRuns = {
  observed: ObservedVisibility;
  /** The entities' reading key (./run-observations.ts). */
  key: string;
  /** Readings made now, to keep once the analysis has answered (keepAfter). */
  fresh: Reading[];
  /** The structures of the answers read now without a kept one, to keep with them. */
  structures: KeptStructure[];
  /** The counted runs with their places in run_ids: whose mentions the analysis stores (storeMentions). */
  counted: Parameters<typeof storeMentions>[3];
};

/**
 * Every named run read for the entities: the kept readings of the counted runs (one statement,
 * no answer read), and the answers of the runs without one read as they arrive from the database
 * and matched now (their readings kept after, for the next analysis).
 */
async function readAnalysisRuns(named: readonly NamedRun[], entities: readonly Entity[], early: EarlyKept | null): Promise<ReadRuns> {
  const normalized = entities.map(normalizeEntity);
  const key = readingKey(normalized);
  const seen = new Set<string>();
  const candidates = named.filter((r) => r.kind === "prompt" && r.status === "completed" && !seen.has(r.id) && seen.add(r.id));
  const kept = early?.key === key ? await early.kept : await readKept(key, candidates.map((r) => r.id));
  const missing = candidates.filter((r) => !kept.has(r.id));
  const structures: KeptStructure[] = [];
  const reader = visibilityReader(normalized, (runId, structure) => structures.push({ runId, structure }));
  // Each run read now with an answer: its reading's range and place in it.
  const where = new Map<string, { range: ObservedRange; at: number }>();
  if (missing.length) {
    await streamRunTexts(missing, (part, texts) => {
      const inputs = inputsOf(part, texts).filter(hasAnswer);
      const range = reader.read(inputs);
      inputs.forEach((run, at) => where.set(run.run_id, { range, at }));
    });
  }
  // Answered: a kept reading with cells, or a run read now that had an answer (its text is gone).
  const answered = (run: VisibilityRunInput) => {
    const cells = kept.get(run.run_id);
    return cells !== undefined ? cells.length > 0 : where.has(run.run_id);
  };
  const prepared = prepareVisibility(inputsOf(named, NO_TEXTS), { entities }, answered);
  const obs = observationsOf(prepared.runs, prepared.entities.length, kept, where);
  const fresh = missing.map((run) => {
    const live = where.get(run.id);
    return live ? readingOf(run.id, live.range.obs, live.range.store, live.at) : unanswered(run.id);
  });
  const place = new Map(prepared.runIds.map((id, i) => [id, i]));
  const freshOf = new Map(fresh.map((f) => [f.runId, f]));
  const counted = { kept: [] as { runId: string; position: number }[], fresh: [] as { reading: Reading; position: number }[] };
  for (const run of prepared.runs) {
    const position = place.get(run.run_id)!;
    const reading = freshOf.get(run.run_id);
    if (reading) counted.fresh.push({ reading, position });
    else counted.kept.push({ runId: run.run_id, position });
  }
  const observed = combineVisibility(prepared, [{ obs, store: new MentionStore(prepared.runs.length) }]);
  return { observed, key, fresh, structures, counted };
}

/**
 * What a caller storing the analysis with something of its own (a monitor's tick) does in the
 * analysis's transaction: `before`, first, may refuse (false: nothing is stored, and the store
 * answers null), `after` writes what goes with the analysis (its id and figures).
 */
export type AnalysisHooks = {
  before?: (sql: SqlSession) => Promise<boolean>;
  /** Given the figures as stored; their rows' by_prompt are empty when `presentWhenRead`. */
  after?: (sql: SqlSession, id: string, figures: StoredVisibilityFigures) => Promise<void>;
  /**
   * Nobody waits for this analysis's body (a monitor's tick): it is stored without one, its
   * by-prompt groups as their sums (lib/visibility/store-result.ts), and presented when first read.
   * Not for a judged analysis, which keeps every figure in its result.
   */
  presentWhenRead?: boolean;
  /**
   * Every run was read as it finished for the entities given (a monitor's tick: its monitor's
   * entities): their kept readings are asked for at once with the runs (keptAhead).
   */
  readingsKept?: boolean;
  /**
   * A judged analysis the caller pays for and judges itself (a monitor's tick): its judge hold,
   * placed before (null: nothing held, billing off), is the analysis's; no hold is placed and no
   * judge job queued: the caller runs judgeRuns and finishJudgedAnalysis (./judging.ts).
   */
  callerJudges?: { holdId: string | null };
};

/** The judge engine, enabled on this server, or 400 naming judge.engine. */
function judgeEngineOf(judge: NonNullable<Request["judge"]>): string {
  const enabled = engineConfig().enabled;
  if (!enabled.includes(judge.engine)) {
    throw new ApiError("invalid_request", `judge.engine: ${judge.engine} is not enabled on this server; enabled: ${enabled.join(", ") || "none"}`);
  }
  return judge.engine;
}

/**
 * A judged analysis (decisions.md "Judged visibility"): the rule-based figures computed now and
 * stored with the analysis `queued`, credit held for every counted run (402 and nothing stored
 * when it does not cover them) and the judge job queued, in one transaction; answered 202.
 */
async function storeJudgedAnalysis(
  principal: Principal,
  body: Request & { judge: NonNullable<Request["judge"]> },
  prepared: { id: string; named: NamedRun[]; projectId: string; workspaceId: string; read: ReadRuns },
  hooks: AnalysisHooks = {},
): Promise<{ id: string; text: string } | null> {
  const { id, named, projectId, workspaceId, read } = prepared;
  const { observed } = read;
  const engine = judgeEngineOf(body.judge);
  const base = assembleVisibility(observed).figures;
  const runs = base.totals.runs;
  const judged: StoredJudgement = {
    judge: {
      engine: engine as StoredJudgement["judge"]["engine"],
      model: null,
      prompt_version: JUDGE_PROMPT_VERSION,
      prompt_sha: JUDGE_PROMPT_SHA,
      sentiment: body.judge.sentiment ?? true,
      discover: body.judge.discover ?? false,
      runs,
      runs_done: 0,
      runs_judged: 0,
      runs_not_judged: [],
      quotes_rejected: 0,
      names_dropped: 0,
    },
    sentiment: null,
    discovered: null,
    agreement: null,
    charge: null,
    hold_id: null,
  };
  const subject = subjectOf(named, "Visibility");
  const now = new Date();
  keepAfter(read.key, read.fresh, "a judged analysis", read.structures);
  const job = jobEvent(visibilityJudgeQueued, id, { analysis_id: id, engine });
  const stored = await textTransaction(currentDb(), async (sql) => {
    if (hooks.before && !(await hooks.before(sql))) return null;
    if (hooks.callerJudges) {
      // The caller's hold pays (placed before, for every run it might judge); the caller judges.
      const holdId = hooks.callerJudges.holdId;
      const hold = holdId ? await findHold(sql, { holdId }, workspaceId) : null;
      const figures: StoredVisibilityFigures = { ...base, judged: { ...judged, hold_id: holdId, charge: hold ? presentRunCharge(hold, true) : null } };
      const created = await insertAnalysis(sql, {
        id, kind: "visibility", status: "queued", workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify(figures),
        runs: observed.runIds, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
      });
      await storeMentions(sql, id, read.key, read.counted);
      await hooks.after?.(sql, id, figures);
      return { version: created.version, figures };
    }
    const held = await holdCredit(
      sql,
      { workspaceId, operationId: id, actor: actorOf(principal), lines: runs > 0 ? [{ product: "judge", engine, units: runs, analysisId: id }] : [] },
      async () => {
        await insertAnalysis(sql, {
          id, kind: "visibility", status: "queued", workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify({ ...base, judged }),
          runs: observed.runIds, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
        });
        await storeMentions(sql, id, read.key, read.counted);
      },
    );
    const hold = held.holds[0];
    const figures: StoredVisibilityFigures = hold
      ? {
          ...base,
          judged: {
            ...judged,
            hold_id: hold.id,
            charge: presentRunCharge({ ...hold, status: "held", capturedMicros: null, capturedUnits: null }, true),
          },
        }
      : { ...base, judged };
    const version = await setAnalysisResult(sql, id, JSON.stringify(figures));
    await queueJobs(sql, [job]);
    await hooks.after?.(sql, id, figures);
    return { version, figures };
  });
  if (!stored) return null;
  const { version, figures } = stored;
  if (!hooks.callerJudges) await dispatch([job]);
  const analysis = presentVisibilityAnalysis({
    id, status: "queued", subject, createdAt: now, completedAt: null, projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
  });
  const text = asciiJson(analysis);
  rememberAnalysisBody(id, `${version}:${principal.user.email}`, analysis.status, text);
  return { id, text };
}

/** The kept readings of the runs an analysis's ids name, asked for with the runs (the entities given). */
type EarlyKept = { key: string; kept: Promise<Map<string, Buffer>> };

/**
 * The kept readings of an analysis whose runs were each read as they finished for its entities (a
 * monitor's tick: `hooks.readingsKept`), asked for at once with its runs, by the ids as named, so
 * that the two statements run side by side. Their answer is used only for the runs the credential
 * reaches (readAnalysisRuns' candidates). Not for a POST: its entities may be new, with nothing
 * kept, and over 10,000 runs read as they finished it was a median 10 ms slower where a tick was
 * 15 ms faster (docs/perf/2026-11-30-run-ids.md).
 */
function keptAhead(body: Request, hooks: AnalysisHooks): EarlyKept | null {
  if (!hooks.readingsKept || !body.entities) return null;
  const key = readingKey(entitiesFor(body, null).map(normalizeEntity));
  const kept = readKeptOfNamed(key, body.ids);
  // Awaited by readAnalysisRuns; the runs' read failing first (404) leaves it unawaited.
  kept.catch(() => undefined);
  return { key, kept };
}

/** Computes and stores the analysis; answers its body, presented and serialised once, and files it for GET. */
async function storeVisibilityAnalysis(principal: Principal, body: Request): Promise<{ id: string; text: string; queued: boolean }>;
/** The same with hooks in its transaction: null when `before` refused; no body with `presentWhenRead`. */
async function storeVisibilityAnalysis(principal: Principal, body: Request, hooks: AnalysisHooks): Promise<{ id: string; text: string | null; queued: boolean } | null>;
async function storeVisibilityAnalysis(principal: Principal, body: Request, hooks: AnalysisHooks = {}): Promise<{ id: string; text: string | null; queued: boolean } | null> {
  const early = keptAhead(body, hooks);
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
  const project = await readProjectContext(projectId);
  if (!project) throw notFound("project", projectId);
  const entities = entitiesFor(body, project.context);
  if (body.judge) judgeEngineOf(body.judge);
  const read = await readAnalysisRuns(named, entities, early);
  const id = newId("visibilityAnalysis");
  if (body.judge) {
    const judgedBody = { ...body, judge: body.judge };
    const judged = await storeJudgedAnalysis(principal, judgedBody, { id, named, projectId, workspaceId: project.workspaceId, read }, hooks);
    return judged && { ...judged, queued: true };
  }
  const { observed } = read;
  const subject = subjectOf(named, "Visibility");
  const now = new Date();
  /**
   * The figures as stored (`result`) and, unless presented when read, presented and serialised
   * once: the answer, the row's body (GET sends it as it is) and the remembered body are the same text.
   */
  const make = (): { figures: StoredVisibilityFigures; result: string; text: string | null } => {
    if (hooks.presentWhenRead) {
      const { figures, promptSums } = assembleVisibility(observed, { promptsAsSums: true });
      return { figures, result: resultWithPromptSums(figures, promptSums), text: null };
    }
    const { figures } = assembleVisibility(observed);
    const analysis = presentVisibilityAnalysis({
      id, status: "completed", subject, createdAt: now, completedAt: now, projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
    });
    return { figures, result: resultBesideBody(figures), text: asciiJson(analysis) };
  };
  const stored = await textTransaction(currentDb(), async (sql) => {
    if (hooks.before && !(await hooks.before(sql))) return null;
    // The mentions are written first (no foreign key waits for the analysis's row), and the
    // figures computed while the database writes them: a tick's 4,316 take it ~20 ms.
    const mentions = storeMentions(sql, id, read.key, read.counted);
    // Awaited below; failing while the figures are computed is not an unhandled rejection.
    mentions.catch(() => undefined);
    const made = make();
    await mentions;
    const created = await insertAnalysis(sql, {
      id, kind: "visibility", status: "completed", workspaceId: project.workspaceId, projectId, subject, input: JSON.stringify(body), result: made.result, body: made.text,
      runs: observed.runIds, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
    });
    await hooks.after?.(sql, id, made.figures);
    return { version: created.version, text: made.text };
  });
  // What was read now is kept once the analysis has answered (whether or not a caller's hook refused it).
  keepAfter(read.key, read.fresh, "an analysis", read.structures);
  if (!stored) return null;
  const { text } = stored;
  if (text !== null) rememberAnalysisBody(id, `${stored.version}:${principal.user.email}`, "completed", text);
  return { id, text, queued: false };
}

/** POST /visibility-analyses as the API sends it: the body serialised once (and remembered for GET /analyses/{id}). */
export async function createVisibilityAnalysisBody(principal: Principal, body: Request) {
  const stored = await storeVisibilityAnalysis(principal, body);
  // Judged: 202, queued (the endpoint's otherStatus).
  return new JsonText<z.input<typeof VisibilityAnalysis>>(stored.text, stored.queued ? 202 : undefined);
}

/**
 * A visibility analysis of the runs `ids` name (runs, batches, fanouts) for `actor`, with
 * `entities` (the project context's when absent), checked as POST /visibility-analyses checks its
 * body (ApiError 400/404 alike); answers the stored analysis's id (`va_…`). For work that runs as
 * someone, such as a monitor's tick analysing its fanout; `actor` is usually scoped to the
 * workspace the work belongs to (Principal.workspaceId).
 */
export async function analyseVisibility(actor: Principal, input: z.input<typeof VisibilityAnalysisRequest>): Promise<string>;
/** The same with hooks in the analysis's transaction (AnalysisHooks); null when `before` refused. */
export async function analyseVisibility(actor: Principal, input: z.input<typeof VisibilityAnalysisRequest>, hooks: AnalysisHooks): Promise<string | null>;
export async function analyseVisibility(actor: Principal, input: z.input<typeof VisibilityAnalysisRequest>, hooks: AnalysisHooks = {}): Promise<string | null> {
  return (await storeVisibilityAnalysis(actor, parseBody(VisibilityAnalysisRequest, input), hooks))?.id ?? null;
}
