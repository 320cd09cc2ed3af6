// POST /visibility-analyses: the runs the ids name (a batch's or a fanout's all of them), the
// entities (given, or the project context's), their answers, search queries and cited pages read
// in the database, the figures and every mention computed (./analysis.ts), and the analysis, its
// runs and its mentions stored in one transaction. Free: no hold, `charge` null.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { rememberAnalysisBody } from "../analyses/read";
import { readRunTexts, runsOfOneProject, subjectOf, type NamedRun } from "../analyses/runs";
import { insertAnalysis, insertAnalysisRuns, setAnalysisResult } from "../analyses/store";
import { actorOf, holdCredit } from "../billing/holds";
import { presentRunCharge } from "../billing/present";
import { findHold } from "../billing/store";
import { engineConfig } from "../config/engines";
import { currentDb, db as prisma } from "../db/client";
import { newId } from "../db/ids";
import { arrayParam, defineStatement, json, text } from "../db/statement";
import { sqlIn, standalone, textTransaction, type SqlSession } from "../db/sql";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, visibilityJudgeQueued } from "../work/events";
import { JUDGE_PROMPT_SHA, JUDGE_PROMPT_VERSION } from "./judge";
import type { StoredJudgement } from "./analysis";
import { ApiError, notFound } from "../http/errors";
import { parseBody } from "../http/input";
import { JsonText } from "../http/respond";
import { domainNameOf } from "../schemas/projects";
import { VISIBILITY_LIMITS, VisibilityAnalysisRequest, type VisibilityAnalysis } from "../schemas/visibility";
import { assembleVisibility, combineVisibility, hasAnswer, prepareVisibility, visibilityReader, type ObservedRange, type ObservedVisibility, type StoredVisibilityFigures } from "./analysis";
import { entitiesFromContext, normalizeEntity, type Entity, type EntityContext } from "./entities";
import { MENTION_WIDTH, REASON_CODES, type MentionStore, type VisibilityRunInput } from "./observe";
import { presentVisibilityAnalysis } from "./present";

type Request = z.output<typeof VisibilityAnalysisRequest>;

export const PROJECT_CONTEXT = defineStatement({
  label: "visibility_project",
  params: ["project"],
  columns: { workspaceId: text("p.workspace_id"), context: json<EntityContext>("p.context").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM projects p WHERE p.id = ${p.project}`,
});

const INSERT_MENTIONS = defineStatement({
  label: "visibility_insert_mentions",
  params: ["analysis", "positions", "runs", "entities", "counted", "notCounted", "mentions"],
  sql: ({ p }) =>
    `INSERT INTO analysis_mentions (analysis_id, position, run_id, entities, counted, not_counted, mentions) ` +
    `SELECT ${p.analysis}, m.position, m.run_id, m.entities, m.counted, m.not_counted, m.mentions::int[] ` +
    `FROM unnest(${p.positions}::int[], ${p.runs}::text[], ${p.entities}::bigint[], ${p.counted}::bigint[], ${p.notCounted}::bigint[], ${p.mentions}::text[]) ` +
    `AS m(position, run_id, entities, counted, not_counted, mentions)`,
});

/** An entity as a request gives it, with its defaults and its domains as hosts. */
export function entityOf(input: Request["entities"] extends (infer E)[] | undefined ? E : never): Entity {
  return {
    name: input.name,
    role: input.role,
    aliases: input.aliases ?? [],
    domains: (input.domains ?? []).map((d) => domainNameOf(d)!),
    case_sensitive: input.case_sensitive ?? false,
  };
}

/** The entities tracked: as given, else the project context's (400 when it has none, or too many). */
export function entitiesFor(body: Pick<Request, "entities">, context: EntityContext | null): Entity[] {
  if (body.entities) return body.entities.map(entityOf);
  const entities = entitiesFromContext(context ?? {});
  if (entities.length === 0) {
    throw new ApiError("invalid_request", "entities: are required: the project's context names no brands or competitors (add them to the project, or give entities)");
  }
  if (entities.length > VISIBILITY_LIMITS.entities) {
    throw new ApiError(
      "invalid_request",
      `entities: the project's context names ${entities.length} brands and competitors; an analysis tracks at most ${VISIBILITY_LIMITS.entities} (give entities)`,
    );
  }
  return entities;
}

type RunText = { answer: string | null; queries: string[]; cited: string[] };

/** Parts of the texts asked for ahead of the one being matched. */
const AHEAD = 2;

/**
 * The counted runs' answers, queries and cited pages, asked for in parts at once (the database
 * builds the next while the last is read), each part handed to `read` as it arrives, in order:
 * the runs are matched while the database still sends the rest, not after all of it is loaded.
 * `read` gets the part's runs (consecutive among the counted ones); answers every text read.
 */
async function streamRunTexts(named: readonly NamedRun[], ready: Promise<unknown>, read: (part: readonly NamedRun[], texts: ReadonlyMap<string, RunText>) => void) {
  const seen = new Set<string>();
  const counted = named.filter((r) => r.kind === "prompt" && r.status === "completed" && !seen.has(r.id) && seen.add(r.id));
  const texts = new Map<string, RunText>();
  // Parts of at least 500 runs, at most 8; AHEAD of them asked for at a time, so the first arrives
  // soon (statements all asked at once share the database's CPU and arrive together at the end).
  const n = Math.min(8, Math.ceil(counted.length / 500));
  const parts = Array.from({ length: n }, (_, i) => counted.slice(Math.floor((i * counted.length) / n), Math.floor(((i + 1) * counted.length) / n)));
  const queries: ReturnType<typeof readRunTexts>[] = [];
  const ask = (k: number) => {
    if (k >= n) return;
    const q = readRunTexts(parts[k]!.map((r) => r.id));
    // Each is awaited below in turn; one failing before its turn is not an unhandled rejection.
    q.catch(() => undefined);
    queries.push(q);
  };
  for (let k = 0; k < AHEAD; k++) ask(k);
  await ready;
  for (let k = 0; k < n; k++) {
    const rows = await queries[k]!;
    ask(k + AHEAD);
    for (const row of rows) {
      texts.set(row.id, { answer: row.answer, queries: (row.queries ?? []).filter((q): q is string => typeof q === "string"), cited: (row.cited ?? []).filter((u): u is string => typeof u === "string") });
    }
    read(parts[k]!, texts);
  }
  return texts;
}

function inputsOf(named: readonly NamedRun[], texts: ReadonlyMap<string, RunText>): VisibilityRunInput[] {
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
    };
  });
}

/**
 * The rows of analysis_mentions as unnest() reads them: one per counted run with a mention, its
 * place in run_ids, its entity masks (bit e for the analysis's entity e: at most 50, exact in a
 * double) and its mentions' integers.
 */
function mentionRowsOf(analysed: readonly string[], store: MentionStore, runs: readonly VisibilityRunInput[]) {
  const place = new Map(analysed.map((id, i) => [id, i]));
  const positions: number[] = [];
  const runIds: string[] = [];
  const entities: number[] = [];
  const counted: number[] = [];
  const notCounted: number[] = [];
  const mentions: string[] = [];
  runs.forEach((run, r) => {
    const ints = store.ofRun(r);
    if (ints.length === 0) return;
    let any = 0;
    let yes = 0;
    let no = 0;
    for (let at = 0; at < ints.length; at += MENTION_WIDTH) {
      const bit = 2 ** ints[at]!;
      if (any % (2 * bit) < bit) any += bit;
      if (REASON_CODES[ints[at + 7]!] === null) {
        if (yes % (2 * bit) < bit) yes += bit;
      } else if (no % (2 * bit) < bit) no += bit;
    }
    positions.push(place.get(run.run_id)!);
    runIds.push(run.run_id);
    entities.push(any);
    counted.push(yes);
    notCounted.push(no);
    mentions.push(`{${ints.join(",")}}`);
  });
  return { positions, runIds, entities, counted, notCounted, mentions };
}

/**
 * What a caller storing the analysis with something of its own (a monitor's tick) does in the
 * analysis's transaction: `before`, first, may refuse (false: nothing is stored, and the store
 * answers null), `after` writes what goes with the analysis (its id and figures).
 */
export type AnalysisHooks = {
  before?: (sql: SqlSession) => Promise<boolean>;
  after?: (sql: SqlSession, id: string, figures: StoredVisibilityFigures) => Promise<void>;
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
  prepared: { id: string; named: NamedRun[]; projectId: string; workspaceId: string; observed: ObservedVisibility },
  hooks: AnalysisHooks = {},
): Promise<{ id: string; text: string } | null> {
  const { id, named, projectId, workspaceId, observed } = prepared;
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
  const rows = mentionRowsOf(observed.runIds, observed.store, observed.runs);
  const job = jobEvent(visibilityJudgeQueued, id, { analysis_id: id, engine });
  const stored = await prisma().$transaction(
    async (tx) => {
      const sql = sqlIn(tx);
      if (hooks.before && !(await hooks.before(sql))) return null;
      if (hooks.callerJudges) {
        // The caller's hold pays (placed before, for every run it might judge); the caller judges.
        const holdId = hooks.callerJudges.holdId;
        const hold = holdId ? await findHold(sql, { holdId }, workspaceId) : null;
        const figures: StoredVisibilityFigures = { ...base, judged: { ...judged, hold_id: holdId, charge: hold ? presentRunCharge(hold, true) : null } };
        const created = await insertAnalysis(sql, {
          id, kind: "visibility", status: "queued", workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify(figures),
          userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
        });
        await insertAnalysisRuns(sql, id, observed.runIds);
        if (rows.runIds.length) {
          await INSERT_MENTIONS.query(sql, {
            analysis: id, positions: arrayParam(rows.positions), runs: arrayParam(rows.runIds), entities: arrayParam(rows.entities),
            counted: arrayParam(rows.counted), notCounted: arrayParam(rows.notCounted), mentions: arrayParam(rows.mentions),
          });
        }
        await hooks.after?.(sql, id, figures);
        return { version: created.version, figures };
      }
      const held = await holdCredit(
        tx,
        { workspaceId, operationId: id, actor: actorOf(principal), lines: runs > 0 ? [{ product: "judge", engine, units: runs, analysisId: id }] : [] },
        async () => {
          await insertAnalysis(sql, {
            id, kind: "visibility", status: "queued", workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify({ ...base, judged }),
            userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
          });
          await insertAnalysisRuns(sql, id, observed.runIds);
          if (rows.runIds.length) {
            await INSERT_MENTIONS.query(sql, {
              analysis: id, positions: arrayParam(rows.positions), runs: arrayParam(rows.runIds), entities: arrayParam(rows.entities),
              counted: arrayParam(rows.counted), notCounted: arrayParam(rows.notCounted), mentions: arrayParam(rows.mentions),
            });
          }
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
      await queueJobs(tx, [job]);
      await hooks.after?.(sql, id, figures);
      return { version, figures };
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
  if (!stored) return null;
  const { version, figures } = stored;
  if (!hooks.callerJudges) await dispatch([job]);
  const analysis = presentVisibilityAnalysis({
    id, status: "queued", subject, createdAt: now, completedAt: null, projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
  });
  const text = JSON.stringify(analysis);
  rememberAnalysisBody(id, `${version}:${principal.user.email}`, analysis.status, text);
  return { id, text };
}

/** Computes and stores the analysis; answers its body, presented and serialised once, and files it for GET. */
async function storeVisibilityAnalysis(principal: Principal, body: Request): Promise<{ id: string; text: string; queued: boolean }>;
async function storeVisibilityAnalysis(principal: Principal, body: Request, hooks: AnalysisHooks): Promise<{ id: string; text: string; queued: boolean } | null>;
async function storeVisibilityAnalysis(principal: Principal, body: Request, hooks: AnalysisHooks = {}): Promise<{ id: string; text: string; queued: boolean } | null> {
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
  // The project (its context may give the entities) and the texts asked for at once; each part of
  // the texts read as it arrives. Read here: handing half the runs to a worker cost more CPU than
  // it saved on 2 shared cores.
  const projectRead = PROJECT_CONTEXT.first(standalone(), { project: projectId });
  projectRead.catch(() => undefined);
  let reader: ReturnType<typeof visibilityReader> | null = null;
  let entities: Entity[] = [];
  const ranges: ObservedRange[] = [];
  const ready = projectRead.then((project) => {
    if (!project) throw notFound("project", projectId);
    entities = entitiesFor(body, project.context);
    if (body.judge) judgeEngineOf(body.judge);
    reader = visibilityReader(entities.map(normalizeEntity));
  });
  const texts = await streamRunTexts(named, ready, (part, texts) => ranges.push(reader!.read(inputsOf(part, texts).filter(hasAnswer))));
  const project = (await projectRead)!;
  const id = newId("visibilityAnalysis");
  if (ranges.length === 0) ranges.push(reader!.read([]));
  const observed = combineVisibility(prepareVisibility(inputsOf(named, texts), { entities }), ranges);
  if (body.judge) {
    const judgedBody = { ...body, judge: body.judge };
    const judged = await storeJudgedAnalysis(principal, judgedBody, { id, named, projectId, workspaceId: project.workspaceId, observed }, hooks);
    return judged && { ...judged, queued: true };
  }
  const subject = subjectOf(named, "Visibility");
  const now = new Date();
  const rows = mentionRowsOf(observed.runIds, observed.store, observed.runs);
  const { figures } = assembleVisibility(observed);
  // Presented and serialised once: the answer, the row's body (GET sends it as it is) and the
  // remembered body are the same text.
  const analysis = presentVisibilityAnalysis({
    id, status: "completed", subject, createdAt: now, completedAt: now, projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
  });
  const text = JSON.stringify(analysis);
  const stored = await textTransaction(currentDb(), async (sql) => {
    if (hooks.before && !(await hooks.before(sql))) return null;
    const created = await insertAnalysis(sql, {
      id, kind: "visibility", status: "completed", workspaceId: project.workspaceId, projectId, subject, input: JSON.stringify(body), result: JSON.stringify(figures), body: text,
      userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
    });
    await insertAnalysisRuns(sql, id, observed.runIds);
    if (rows.runIds.length) {
      await INSERT_MENTIONS.query(sql, {
        analysis: id,
        positions: arrayParam(rows.positions),
        runs: arrayParam(rows.runIds),
        entities: arrayParam(rows.entities),
        counted: arrayParam(rows.counted),
        notCounted: arrayParam(rows.notCounted),
        mentions: arrayParam(rows.mentions),
      });
    }
    await hooks.after?.(sql, id, figures);
    return { version: created.version };
  });
  if (!stored) return null;
  rememberAnalysisBody(id, `${stored.version}:${principal.user.email}`, analysis.status, text);
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
