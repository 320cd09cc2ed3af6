// GET /analyses/{id}/mentions: the evidence of a visibility analysis, read back from the rows its
// POST stored (analysis_mentions: one per analysed run with a mention, its mentions as integers)
// and its runs' answers, turned into the API's Mention by the same function that made them
// (./observe.ts mentionRows), so a page can never say other than the figures. Paged by run and
// offset; `format=csv` streams every matching mention.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { mentionsHead } from "../analyses/store";
import { allOf, arrayParam, defineStatement, int, text } from "../db/statement";
import { standalone } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { csvCell } from "../http/csv";
import { ApiError, notFound } from "../http/errors";
import { StreamedText } from "../http/respond";
import { runReachable } from "../runs/page-reads";
import { MENTION_CSV_COLUMNS, type Mention, type MentionPage, type MentionsQuery } from "../schemas/visibility";
import { reachOf } from "../workspaces/access";
import type { Entity } from "./entities";
import { MENTION_WIDTH, mentionRows, type MatchingMethod } from "./observe";

/** The analysed runs with a mention matching the filters, from the run at `after` on, in run order. */
const MENTION_RUNS = defineStatement({
  label: "visibility_mention_runs",
  params: ["analysis", "after", "which", "bits", "engine", "run", "prompt", "country", "noCountry", "limit"],
  columns: {
    position: int("m.position"),
    runId: text("m.run_id"),
    mentions: text("m.mentions"),
    engine: text("r.engine").nullable,
    prompt: text("COALESCE(r.input->>'prompt', r.subject)"),
    answer: text("r.result->>'answer'").nullable,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM analysis_mentions m JOIN runs r ON r.id = m.run_id WHERE ` +
    allOf(
      `m.analysis_id = ${p.analysis}`,
      given.after && `m.position >= ${p.after}::int`,
      given.bits && `((CASE ${p.which} WHEN 'counted' THEN m.counted WHEN 'not_counted' THEN m.not_counted ELSE m.entities END) & ${p.bits}::bigint) <> 0`,
      given.engine && `r.engine = ${p.engine}`,
      given.run && `m.run_id = ${p.run}`,
      given.prompt && `COALESCE(r.input->>'prompt', r.subject) = ${p.prompt}`,
      given.country && `r.input->'location'->>'country' = ${p.country}`,
      given.noCountry && `${p.noCountry}::boolean AND r.input->'location'->>'country' IS NULL`,
    ) +
    ` ORDER BY m.position LIMIT ${p.limit}::int`,
});

/** What reading an analysis's mentions needs of it: its entities as used and how it matched. */
type Terms = { entities: Entity[]; method: MatchingMethod };

/** An analysis's entities and method never change: remembered by id (version "1"), a few thousand analyses' worth. */
const termsById = new VersionCache<{ version: string; size: number; terms: Terms }>("__geoscopeVisibilityTerms", 4 * 2 ** 20, 2 ** 20);

type Query = z.output<typeof MentionsQuery>;
type Filter = { entity: number | null; counted: boolean | null; engine?: string; run?: string; prompt?: string; country?: string };

/** Who reads: a credential (its reach checked), or a share page whose token named the analysis. */
export type MentionsAccess = { principal: Principal } | { shared: true };

const CURSOR = "m1";

function encodeCursor(analysisId: string, position: number, index: number): string {
  return Buffer.from(`${CURSOR}:${analysisId}:${position}:${index}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string, analysisId: string): { position: number; index: number } {
  const refuse = () => new ApiError("invalid_request", "cursor: is not a cursor this server issued for this analysis's mentions; pass the next_cursor of the previous page");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  const [version, id, position, index, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split(":");
  if (version !== CURSOR || id !== analysisId || rest.length || !/^\d{1,9}$/.test(position ?? "") || !/^\d{1,9}$/.test(index ?? "")) throw refuse();
  return { position: Number(position), index: Number(index) };
}

/**
 * The visibility analysis's entities and method, or 404 (not reachable) / 400 (another kind); with a run_id
 * filter, 404 too for a run the credential cannot reach (one it can that the analysis does not
 * cover has no mentions).
 */
async function termsOf(access: MentionsAccess, analysisId: string, query: Pick<Query, "run_id">): Promise<Terms> {
  const terms = await termsOfAnalysis(access, analysisId);
  if ("principal" in access && query.run_id !== undefined && !(await runReachable(access.principal, query.run_id))) {
    throw notFound("run", query.run_id);
  }
  return terms;
}

async function termsOfAnalysis(access: MentionsAccess, analysisId: string): Promise<Terms> {
  const held = termsById.current(analysisId, "1");
  const reach = "principal" in access ? reachOf(access.principal) : {};
  const head = await mentionsHead({ analysis: analysisId, ...reach, entities: held === undefined });
  if (!head) throw notFound("analysis", analysisId);
  if (head.kind !== "visibility") {
    throw new ApiError("invalid_request", `analysis_id: ${analysisId} is ${head.kind === "opportunities" ? "an opportunity list" : `a ${head.kind} analysis`}; only a visibility analysis (va_…) has mentions`);
  }
  if (held) return held.terms;
  const terms: Terms = { entities: head.entities ?? [], method: head.method === "visibility-v1" ? "visibility-v1" : "visibility-v2" };
  termsById.set(analysisId, { version: "1", size: JSON.stringify(terms.entities).length, terms });
  return terms;
}

function filterOf(query: Query, entities: readonly Entity[]): Filter {
  let entity: number | null = null;
  if (query.entity !== undefined) {
    const wanted = query.entity.trim().normalize("NFC");
    entity = entities.findIndex((e) => e.name === wanted);
    if (entity < 0) entity = entities.findIndex((e) => e.name.toLowerCase() === wanted.toLowerCase());
    if (entity < 0) {
      throw new ApiError("invalid_request", `entity: ${JSON.stringify(query.entity)} is not an entity of this analysis (${entities.map((e) => JSON.stringify(e.name)).join(", ")})`);
    }
  }
  return { entity, counted: query.counted === undefined ? null : query.counted === "true", engine: query.engine, run: query.run_id, prompt: query.prompt, country: query.country };
}

/** The statement's filter values: the mask column and bits when an entity or counted is asked for. */
function statementFilter(filter: Filter, entities: readonly Entity[]) {
  const which = filter.counted === null ? "entities" : filter.counted ? "counted" : "not_counted";
  const bits = filter.entity !== null ? 2 ** filter.entity : filter.counted !== null ? 2 ** entities.length - 1 : undefined;
  return {
    ...(bits !== undefined ? { which, bits } : {}),
    engine: filter.engine,
    run: filter.run,
    prompt: filter.prompt,
    ...(filter.country === "none" ? { noCountry: true } : { country: filter.country }),
  };
}

type RunRow = Awaited<ReturnType<typeof MENTION_RUNS.query>>[number];

/** The integers of a stored `mentions` (`{1,2,…}`). */
function intsOf(stored: string): Int32Array {
  const body = stored.slice(1, -1);
  return body === "" ? new Int32Array(0) : Int32Array.from(body.split(","), Number);
}

/** The mentions of a run row that match, from index `from` on, with their indices in the run. */
function matching(row: RunRow, filter: Filter, { entities, method }: Terms, from: number): { index: number; mention: z.input<typeof Mention> }[] {
  const ints = intsOf(row.mentions);
  const kept: number[] = [];
  for (let i = from; i * MENTION_WIDTH < ints.length; i++) {
    const at = i * MENTION_WIDTH;
    if (filter.entity !== null && ints[at] !== filter.entity) continue;
    if (filter.counted !== null && (ints[at + 7] === 0) !== filter.counted) continue;
    kept.push(i);
  }
  if (kept.length === 0) return [];
  const selected = new Int32Array(kept.length * MENTION_WIDTH);
  kept.forEach((i, k) => selected.set(ints.subarray(i * MENTION_WIDTH, (i + 1) * MENTION_WIDTH), k * MENTION_WIDTH));
  const rows = mentionRows(selected, { run_id: row.runId, engine: row.engine, prompt: row.prompt, answer: row.answer ?? "" }, entities, method);
  return rows.map((mention, k) => ({ index: kept[k]!, mention }));
}

/** GET /analyses/{id}/mentions: a page of mentions, by run (in the analysis's order) then offset. */
export async function listMentions(principal: Principal, analysisId: string, query: Query): Promise<z.input<typeof MentionPage>> {
  return mentionPage({ principal }, analysisId, query);
}

/** A page of mentions as the credential (or a share page) may read them. */
export async function mentionPage(access: MentionsAccess, analysisId: string, query: Query): Promise<z.input<typeof MentionPage>> {
  const terms = await termsOf(access, analysisId, query);
  const { entities } = terms;
  const filter = filterOf(query, entities);
  const cursor = query.cursor ? decodeCursor(query.cursor, analysisId) : null;
  // Every run read has a matching mention, bar the one the cursor is inside (whose may all be
  // before it): limit + 2 runs hold limit + 1 mentions if there are that many.
  const rows = await MENTION_RUNS.query(standalone(), {
    analysis: analysisId,
    after: cursor?.position,
    ...statementFilter(filter, entities),
    limit: query.limit + 2,
  });
  const found: { position: number; index: number; mention: z.input<typeof Mention> }[] = [];
  for (const row of rows) {
    const from = cursor && row.position === cursor.position ? cursor.index + 1 : 0;
    for (const m of matching(row, filter, terms, from)) found.push({ position: row.position, ...m });
    if (found.length > query.limit) break;
  }
  const items = found.slice(0, query.limit);
  const last = items.at(-1);
  return { items: items.map((f) => f.mention), next_cursor: found.length > query.limit && last ? encodeCursor(analysisId, last.position, last.index) : null };
}

/** Runs read per statement while streaming CSV. */
const CSV_RUNS = 500;

/** GET /analyses/{id}/mentions?format=csv: every matching mention, a header line first, streamed a part at a time. */
export async function mentionsCsv(principal: Principal, analysisId: string, query: Query): Promise<StreamedText> {
  const terms = await termsOf({ principal }, analysisId, query);
  const { entities } = terms;
  const filter = filterOf(query, entities);
  const values = statementFilter(filter, entities);
  const line = (m: z.input<typeof Mention>) => `${MENTION_CSV_COLUMNS.map((c) => csvCell(typeof m[c] === "boolean" ? String(m[c]) : (m[c] as string | number | null))).join(",")}\r\n`;
  let after = 0;
  let done = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${MENTION_CSV_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      if (done) return;
      const rows = await MENTION_RUNS.query(standalone(), { analysis: analysisId, after, ...values, limit: CSV_RUNS });
      let text = "";
      for (const row of rows) for (const { mention } of matching(row, filter, terms, 0)) text += line(mention);
      if (text) controller.enqueue(encoder.encode(text));
      if (rows.length < CSV_RUNS) {
        done = true;
        controller.close();
      } else after = rows.at(-1)!.position + 1;
    },
  });
  return new StreamedText(body, "text/csv; charset=utf-8; header=present", { "Content-Disposition": `attachment; filename="${analysisId}-mentions.csv"` });
}

/**
 * One run's answer as stored, with every mention the analysis found in it (by offset): what the
 * pages show highlighted in the answer text. Null when the analysis found none in that run.
 */
export async function answerWithMentions(access: MentionsAccess, analysisId: string, runId: string) {
  const terms = await termsOf(access, analysisId, { run_id: runId });
  const [row] = await MENTION_RUNS.query(standalone(), { analysis: analysisId, run: runId, limit: 1 });
  if (!row) return null;
  const filter: Filter = { entity: null, counted: null };
  return { run_id: row.runId, engine: row.engine, prompt: row.prompt, answer: row.answer ?? "", mentions: matching(row, filter, terms, 0).map((m) => m.mention) };
}

/** The mentions and answers of the evidence runs. */
const EVIDENCE_RUNS = defineStatement({
  label: "opportunity_evidence",
  params: ["analysis", "runs"],
  columns: { runId: text("m.run_id"), mentions: text("m.mentions"), answer: text("r.result->>'answer'").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analysis_mentions m JOIN runs r ON r.id = m.run_id WHERE m.analysis_id = ${p.analysis} AND m.run_id = ANY(${p.runs}::text[])`,
});

/** Of visibility analysis `analysisId`'s runs among `runIds`, those with mentions: their stored mentions (as text) and answers (an opportunity list's evidence). */
export function evidenceRuns(analysisId: string, runIds: readonly string[]) {
  return EVIDENCE_RUNS.query(standalone(), { analysis: analysisId, runs: arrayParam(runIds) });
}

