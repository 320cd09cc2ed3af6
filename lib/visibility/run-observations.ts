// Readings kept: what a visibility analysis (or a comparison) finds in one completed run for one
// list of tracked entities (its cells: mentioned, position, list rank, prominence, cited, counts of
// counted and set-aside mentions; and its mentions), stored once in `run_observations` (owned
// here) so that an analysis with the same entities adds up stored readings instead of reading
// every answer again (#44; docs/decisions.md "Readings kept"). A run is read when it finishes for
// its project's brands and competitors and for the entities of its project's active monitors
// (observeFinishedRun, from the prompt-run job), and by the first analysis that needs it for any other list (which keeps what
// it read). A completed run's answer, searches and sources never change, and the key names the
// entities exactly (names, aliases, domains, case rule, in order) with the version of the reading
// rules, so a kept reading is what reading the run again would find, to the byte.
// Also kept here, in `run_text_structures`: each completed run's answer structure (its sentences,
// link spans and prose domains: ./text-structure.ts), which no entity changes, so that an analysis
// for entities nothing was read for matches the answers without walking their characters again.
import { createHash } from "node:crypto";
import { arrayParam, defineStatement, text } from "../db/statement";
import { idsOf } from "../db/ids";
import { standalone, type SqlSession } from "../db/sql";
import { log } from "../log";
import { activeMonitorEntities } from "../monitors/entities-read-for";
import { readProjectContext } from "../projects/read";
import { namedCompletedRunsSql, readFinishedRun, readRunTexts } from "../runs/analysis-reads";
import { VISIBILITY_METHOD, hasAnswer, visibilityReader } from "./analysis";
import { entitiesFromContext, normalizeEntity, type Entity } from "./entities";
import { entitiesFor } from "./request-entities";
import { parseBody } from "../http/input";
import { VISIBILITY_LIMITS, VisibilityAnalysisRequest } from "../schemas/visibility";
import { readLinks } from "./links";
import { toNfc } from "./nfc";
import { analyseText } from "./text";
import { encodeStructure } from "./text-structure";
import { MENTION_WIDTH, OBSERVATION_ARRAYS, Observations, REASON_CODES, type KeepStructure, type MentionStore, type VisibilityRunInput } from "./observe";

/**
 * The version of the reading rules (matching, link spans, sentences, the echo and absence guards,
 * prominence): part of every key, so readings kept under older rules are never used. Bump it with
 * any change to what lib/visibility/{observe,matcher,text,links,echo,absence,nfc}.ts find;
 * tests/unit/run-observations.test.ts fails until it is bumped (it records the rules' sources' hash).
 */
export const READING_RULES = 1;

/** Bytes a run's cells take per entity (encodeCellsHex). */
export const CELL_BYTES = 32;

/** The key of a list of (normalised) entities: the rules' version and what matching reads of each, in order. */
export function readingKey(entities: readonly Entity[]): string {
  const what = entities.map((e) => [e.name, e.aliases, e.domains, e.case_sensitive]);
  return createHash("sha256").update(JSON.stringify([VISIBILITY_METHOD, READING_RULES, what])).digest("hex").slice(0, 32);
}

/** The bytes encodeCellsHex writes, in a buffer reused from run to run (a new one per run was half of a 10,000-run reading's encoding); the unused fourth byte of each entity's cells stays zero. */
let scratch = Buffer.alloc(VISIBILITY_LIMITS.entities * CELL_BYTES);

/**
 * Run r's cells of `obs` as hex, 32 bytes per entity, little-endian: mentioned, position and cited
 * (a byte each, then one unused), list rank (int32), counted, prompt echoes, absences and links
 * (uint32 each), prominence (float64).
 */
export function encodeCellsHex(obs: Observations, r: number): string {
  const size = obs.entities * CELL_BYTES;
  if (scratch.length < size) scratch = Buffer.alloc(size);
  writeCells(obs, r, scratch);
  return scratch.toString("hex", 0, size);
}

/** Run r's cells of `obs` into the first 32 bytes per entity of `out`. */
function writeCells(obs: Observations, r: number, out: Buffer): void {
  const E = obs.entities;
  for (let e = 0; e < E; e++) {
    const c = r * E + e;
    const o = e * CELL_BYTES;
    out[o] = obs.mentioned[c]!;
    out[o + 1] = obs.position[c]!;
    out[o + 2] = obs.cited[c]!;
    out.writeInt32LE(obs.listRank[c]!, o + 4);
    out.writeUInt32LE(obs.counted[c]!, o + 8);
    out.writeUInt32LE(obs.promptEcho[c]!, o + 12);
    out.writeUInt32LE(obs.absence[c]!, o + 16);
    out.writeUInt32LE(obs.link[c]!, o + 20);
    out.writeDoubleLE(obs.prominence[c]!, o + 24);
  }
}

/** Cells as encodeCellsHex wrote them (as bytes), into run r of `obs`. */
export function decodeCellsInto(cells: Buffer, obs: Observations, r: number): void {
  const E = obs.entities;
  if (cells.length !== E * CELL_BYTES) throw new Error(`a kept reading has ${cells.length} bytes of cells for ${E} entities`);
  for (let e = 0; e < E; e++) {
    const c = r * E + e;
    const o = e * CELL_BYTES;
    obs.mentioned[c] = cells[o]!;
    obs.position[c] = cells[o + 1]!;
    obs.cited[c] = cells[o + 2]!;
    obs.listRank[c] = cells.readInt32LE(o + 4);
    obs.counted[c] = cells.readUInt32LE(o + 8);
    obs.promptEcho[c] = cells.readUInt32LE(o + 12);
    obs.absence[c] = cells.readUInt32LE(o + 16);
    obs.link[c] = cells.readUInt32LE(o + 20);
    obs.prominence[c] = cells.readDoubleLE(o + 24);
  }
}

/** Run `from` of `source` into run `to` of `target` (the same entities). */
export function copyRunObservations(source: Observations, from: number, target: Observations, to: number): void {
  const E = target.entities;
  for (const name of OBSERVATION_ARRAYS) {
    const a = source[name] as { [i: number]: number };
    const b = target[name] as { [i: number]: number };
    for (let e = 0; e < E; e++) b[to * E + e] = a[from * E + e]!;
  }
}

/** What is kept of one run: its cells (hex; empty for a run without an answer), its mentions and their entity masks. */
export type Reading = { runId: string; cells: string; mentions: string; entities: number; counted: number; notCounted: number };

/** A run read without an answer: nothing found, kept so that its answer is not looked at again. */
export const unanswered = (runId: string): Reading => ({ runId, cells: "", mentions: "{}", entities: 0, counted: 0, notCounted: 0 });

/**
 * Run r of a reader's range as kept: its cells, its mentions' integers and masks of the entities
 * they name (bit e for entity e: at most 50, exact in a double), all, counted, and set aside.
 */
export function readingOf(runId: string, obs: Observations, store: MentionStore, r: number): Reading {
  const ints = store.ofRun(r);
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
  return { runId, cells: encodeCellsHex(obs, r), mentions: `{${ints.join(",")}}`, entities: any, counted: yes, notCounted: no };
}

/**
 * `runs` (each with an answer) read for the (normalised) entities: kept cells where `kept` has
 * them, the others read now (with their answers' kept structures where given, `keepStructure`
 * given the others' to keep); answers their observations in order and the readings made now.
 */
export function observeWithKept(
  runs: readonly VisibilityRunInput[],
  entities: readonly Entity[],
  kept: ReadonlyMap<string, Buffer>,
  keepStructure: KeepStructure | null = null,
): { obs: Observations; fresh: Reading[] } {
  const live = runs.filter((run) => !kept.has(run.run_id));
  const read = live.length > 0 ? visibilityReader(entities, keepStructure).read(live) : null;
  const readNow = new Map(live.map((run, at) => [run.run_id, { range: read!, at }]));
  const obs = observationsOf(runs, entities.length, kept, readNow);
  const fresh = [...readNow].map(([id, { range, at }]) => readingOf(id, range.obs, range.store, at));
  return { obs, fresh };
}

/** The observations of `runs` in order: each run's kept cells, else its reading made now (`readNow`: which range read it, and where). */
export function observationsOf(
  runs: readonly { run_id: string }[],
  entities: number,
  kept: ReadonlyMap<string, Buffer>,
  readNow: ReadonlyMap<string, { range: { obs: Observations }; at: number }>,
): Observations {
  const obs = new Observations(runs.length, entities);
  runs.forEach((run, r) => {
    const cells = kept.get(run.run_id);
    if (cells !== undefined) decodeCellsInto(cells, obs, r);
    else {
      const live = readNow.get(run.run_id)!;
      copyRunObservations(live.range.obs, live.at, obs, r);
    }
  });
  return obs;
}

/**
 * The kept readings under `key` (as `o`) of the runs `runs` (a FROM item with `k.run_id`), each
 * looked up by its primary key, one run at a time (`LIMIT 1` keeps the planner from making it a
 * join): a monitor's readings pile up under one key with every tick, and a join hashed or scanned
 * all of them (a 500 × 3 × 3 tick's copy of its mentions took 489 ms with 304,500 readings under
 * its key, against 33 looked up; docs/perf/2026-11-30-tick.md).
 */
const keptOf = (runs: string, key: string, columns: string) =>
  `${runs} CROSS JOIN LATERAL (SELECT ${columns} FROM run_observations o WHERE o.run_id = k.run_id AND o.matcher = ${key} LIMIT 1) o`;

const READ_KEPT = defineStatement({
  label: "run_observations_read",
  params: ["key", "runs"],
  columns: { runId: text("k.run_id"), cells: text("encode(o.cells, 'hex')") },
  sql: ({ select, p }) => `SELECT ${select} FROM ${keptOf(`unnest(${p.runs}::text[]) AS k(run_id)`, p.key, "o.cells")}`,
});

const READ_KEPT_OF_NAMED = defineStatement({
  label: "run_observations_read_named",
  params: ["key", "runs", "batches", "fanouts"],
  columns: { runId: text("k.run_id"), cells: text("encode(o.cells, 'hex')") },
  sql: ({ select, p }) => `SELECT ${select} FROM ${keptOf(namedCompletedRunsSql(p), p.key, "o.cells")}`,
});

const KEEP = defineStatement({
  label: "run_observations_keep",
  params: ["key", "runs", "cells", "mentions", "entities", "counted", "notCounted"],
  sql: ({ p }) =>
    `INSERT INTO run_observations (run_id, matcher, cells, mentions, entities, counted, not_counted) ` +
    `SELECT k.run_id, ${p.key}, decode(k.cells, 'hex'), k.mentions::int[], k.entities, k.counted, k.not_counted ` +
    `FROM unnest(${p.runs}::text[], ${p.cells}::text[], ${p.mentions}::text[], ${p.entities}::bigint[], ${p.counted}::bigint[], ${p.notCounted}::bigint[]) ` +
    `AS k(run_id, cells, mentions, entities, counted, not_counted) ON CONFLICT (run_id, matcher) DO NOTHING`,
});

const COPY_MENTIONS = defineStatement({
  label: "run_observations_to_analysis",
  params: ["analysis", "key", "positions", "runs"],
  sql: ({ p }) =>
    `INSERT INTO analysis_mentions (analysis_id, position, run_id, entities, counted, not_counted, mentions) ` +
    `SELECT ${p.analysis}, k.position, k.run_id, o.entities, o.counted, o.not_counted, o.mentions ` +
    `FROM ${keptOf(`unnest(${p.positions}::int[], ${p.runs}::text[]) AS k(position, run_id)`, p.key, "o.entities, o.counted, o.not_counted, o.mentions")} ` +
    `WHERE cardinality(o.mentions) > 0`,
});

const INSERT_MENTIONS = defineStatement({
  label: "run_observations_fresh_to_analysis",
  params: ["analysis", "positions", "runs", "entities", "counted", "notCounted", "mentions"],
  sql: ({ p }) =>
    `INSERT INTO analysis_mentions (analysis_id, position, run_id, entities, counted, not_counted, mentions) ` +
    `SELECT ${p.analysis}, m.position, m.run_id, m.entities, m.counted, m.not_counted, m.mentions::int[] ` +
    `FROM unnest(${p.positions}::int[], ${p.runs}::text[], ${p.entities}::bigint[], ${p.counted}::bigint[], ${p.notCounted}::bigint[], ${p.mentions}::text[]) ` +
    `AS m(position, run_id, entities, counted, not_counted, mentions)`,
});

/** Runs whose kept readings readKept looks up first, spread over those asked for. */
export const KEPT_SAMPLE = 64;

/**
 * The kept readings of `runIds` for `key`: each run's cells (empty: the run has no answer). Over
 * more than KEPT_SAMPLE runs, a sample of them spread evenly is looked up first, and when none of
 * it was kept none are answered: an analysis for entities nothing was read for then reads every
 * answer without first looking up each of its runs' readings to find none (about 20 ms over 10,000
 * runs). A reading kept for a run read again is what reading it finds, to the byte, so missing
 * the few kept where the sample found none changes no figure; it costs reading those again.
 */
export async function readKept(key: string, runIds: readonly string[]): Promise<Map<string, Buffer>> {
  if (runIds.length === 0) return new Map();
  if (runIds.length <= KEPT_SAMPLE) return cellsByRun(await READ_KEPT.query(standalone(), { key, runs: arrayParam(runIds) }));
  const sampled = new Set(Array.from({ length: KEPT_SAMPLE }, (_, i) => runIds[Math.floor((i * runIds.length) / KEPT_SAMPLE)]!));
  const found = cellsByRun(await READ_KEPT.query(standalone(), { key, runs: arrayParam([...sampled]) }));
  if (found.size === 0) return found;
  const rest = cellsByRun(await READ_KEPT.query(standalone(), { key, runs: arrayParam(runIds.filter((id) => !sampled.has(id))) }));
  for (const [id, cells] of rest) found.set(id, cells);
  return found;
}

/** Each kept reading's cells by its run, from the hex a read of them answers. */
const cellsByRun = (rows: readonly { runId: string; cells: string }[]) => new Map(rows.map((row) => [row.runId, Buffer.from(row.cells, "hex")]));

/**
 * The kept readings for `key` of the completed runs that `ids` name (runs, and the runs of batches
 * and fanouts), whoever's they are: read while the runs themselves are, the caller keeping only
 * those of the runs it has checked the credential reaches.
 */
export async function readKeptOfNamed(key: string, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const of = (prefix: "dr" | "rq" | "fo") => arrayParam(idsOf(ids, prefix));
  return cellsByRun(await READ_KEPT_OF_NAMED.query(standalone(), { key, runs: of("dr"), batches: of("rq"), fanouts: of("fo") }));
}

/** Keeps readings (a run already kept under the key stays as it is: reading it again finds the same). */
export async function keepReadings(sql: SqlSession, key: string, readings: readonly Reading[]): Promise<void> {
  if (readings.length === 0) return;
  await KEEP.query(sql, {
    key,
    runs: arrayParam(readings.map((r) => r.runId)),
    cells: arrayParam(readings.map((r) => r.cells)),
    mentions: arrayParam(readings.map((r) => r.mentions)),
    entities: arrayParam(readings.map((r) => r.entities)),
    counted: arrayParam(readings.map((r) => r.counted)),
    notCounted: arrayParam(readings.map((r) => r.notCounted)),
  });
}

/** Readings being kept after an analysis answered (keepAfter). */
const keeping = new Set<Promise<void>>();

/**
 * Keeps readings after the analysis that made them has answered (its own rows never need them:
 * storeMentions inserts its fresh mentions itself), so that its answer does not wait for ~10,000
 * rows it will not read; best effort, a failure is logged and the next analysis reads those runs
 * again. Even the statement's parameters are made only once the answer is on its way (setImmediate:
 * sorting and writing 10,000 readings' took ~10 ms of the answer's time). readingsKept() waits for
 * every one started (tests; a server's stop need not: nothing is lost that an analysis cannot read again).
 */
export function keepAfter(key: string, readings: readonly Reading[], what: string, structures: readonly KeptStructure[] = []): void {
  if (readings.length === 0 && structures.length === 0) return;
  const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      // Side by side, each on its own: one failing leaves the other kept.
      const sorted = [...readings].sort((x, y) => (x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0));
      const [a, b] = await Promise.allSettled([keepReadings(standalone(), key, sorted), keepStructures(standalone(), structures)]);
      for (const settled of [a, b]) if (settled.status === "rejected") throw settled.reason;
    })
    .catch((error) => log.warn(`keeping ${what}'s readings or answers' structures failed; the next analysis reads those runs again`, { error }))
    .finally(() => keeping.delete(done));
  keeping.add(done);
}

/** An answer's structure to keep (./text-structure.ts). */
export type KeptStructure = { runId: string; structure: Buffer };

const READ_STRUCTURES = defineStatement({
  label: "run_text_structures_read",
  params: ["runs", "rules"],
  columns: { runId: text("s.run_id"), structure: text("encode(s.structure, 'hex')") },
  sql: ({ select, p }) => `SELECT ${select} FROM run_text_structures s WHERE s.run_id = ANY(${p.runs}::text[]) AND s.rules = ${p.rules}::int`,
});

// In run order (two analyses keeping the same runs lock them in the same order); one of other
// rules, or one that did not read back, is replaced.
const KEEP_STRUCTURES = defineStatement({
  label: "run_text_structures_keep",
  params: ["runs", "rules", "structures"],
  sql: ({ p }) =>
    `INSERT INTO run_text_structures (run_id, rules, structure) ` +
    `SELECT k.run_id, ${p.rules}::int, decode(k.structure, 'hex') FROM unnest(${p.runs}::text[], ${p.structures}::text[]) AS k(run_id, structure) ORDER BY k.run_id ` +
    // A row that already says the same is left as it is: concurrent keepers of the same runs (two
    // analyses reading them at once) write nothing twice.
    `ON CONFLICT (run_id) DO UPDATE SET rules = EXCLUDED.rules, structure = EXCLUDED.structure ` +
    `WHERE run_text_structures.rules IS DISTINCT FROM EXCLUDED.rules OR run_text_structures.structure IS DISTINCT FROM EXCLUDED.structure`,
});

/** The answers' structures kept under the current rules (READING_RULES) for `runIds`, by run. */
export async function readStructures(runIds: readonly string[]): Promise<Map<string, Buffer>> {
  if (runIds.length === 0) return new Map();
  const rows = await READ_STRUCTURES.query(standalone(), { runs: arrayParam(runIds), rules: READING_RULES });
  return new Map(rows.map((row) => [row.runId, Buffer.from(row.structure, "hex")]));
}

/** Keeps answers' structures under the current rules (each run once; any kept before that differs is replaced). */
export async function keepStructures(sql: SqlSession, structures: readonly KeptStructure[]): Promise<void> {
  if (structures.length === 0) return;
  const byRun = new Map(structures.map((s) => [s.runId, s.structure]));
  await KEEP_STRUCTURES.query(sql, { runs: arrayParam([...byRun.keys()]), rules: READING_RULES, structures: arrayParam([...byRun.values()].map((b) => b.toString("hex"))) });
}

/** Resolves once every reading keepAfter started is kept (or failed). */
export async function readingsKept(): Promise<void> {
  while (keeping.size > 0) await Promise.all([...keeping]);
}

/**
 * The analysis's mentions (analysis_mentions), each counted run's at its place in the analysis's
 * run_ids: those of runs read before copied from their kept readings inside the database (not sent
 * back and forth), those of runs read now from their readings (which need not be kept yet).
 */
export async function storeMentions(
  sql: SqlSession,
  analysisId: string,
  key: string,
  counted: { kept: readonly { runId: string; position: number }[]; fresh: readonly { reading: Reading; position: number }[] },
): Promise<void> {
  if (counted.kept.length > 0) {
    await COPY_MENTIONS.query(sql, { analysis: analysisId, key, positions: arrayParam(counted.kept.map((c) => c.position)), runs: arrayParam(counted.kept.map((c) => c.runId)) });
  }
  const fresh = counted.fresh.filter((f) => f.reading.mentions !== "{}");
  if (fresh.length > 0) {
    await INSERT_MENTIONS.query(sql, {
      analysis: analysisId,
      positions: arrayParam(fresh.map((f) => f.position)),
      runs: arrayParam(fresh.map((f) => f.reading.runId)),
      entities: arrayParam(fresh.map((f) => f.reading.entities)),
      counted: arrayParam(fresh.map((f) => f.reading.counted)),
      notCounted: arrayParam(fresh.map((f) => f.reading.notCounted)),
      mentions: arrayParam(fresh.map((f) => f.reading.mentions)),
    });
  }
}

/** An answer's structure as kept (./text-structure.ts): its NFC text's sentences and links. */
function structureOf(answer: string): Buffer | null {
  const text = toNfc(answer).text;
  const links = readLinks(text);
  return encodeStructure(analyseText(text, links.spans), links);
}

/**
 * Reads a run that has just completed for the entities an analysis of it is likely to track (its
 * project's brands and competitors; the entities of the project's active monitors) and keeps the
 * readings and its answer's structure; a run of a project that tracks no one is left for its first
 * analysis. Best effort: a failure is logged, and an analysis reads the run itself.
 */
export async function observeFinishedRun(runId: string): Promise<void> {
  try {
    const run = await readFinishedRun(runId);
    if (!run || run.kind !== "prompt" || run.status !== "completed") return;
    // The entities as the analyses name them (request-entities.ts): the project's when an analysis gives none, the monitor's as its tick gives them.
    const lists: Entity[][] = [];
    const [project, monitors] = await Promise.all([readProjectContext(run.projectId), activeMonitorEntities(run.projectId)]);
    const fromContext = project?.context ? entitiesFromContext(project.context) : [];
    // What entitiesFor answers when an analysis gives no entities (a context it refuses is not read for).
    if (fromContext.length > 0 && fromContext.length <= VISIBILITY_LIMITS.entities) lists.push(fromContext);
    for (const monitorEntities of monitors) {
      if (monitorEntities.length === 0) continue;
      // As a tick gives them to its analysis (lib/monitors/analysis.ts).
      const given = monitorEntities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive }));
      lists.push(entitiesFor(parseBody(VisibilityAnalysisRequest, { ids: [run.id], entities: given }), null));
    }
    // A project that tracks no one: its runs are not read now (the first analysis of them reads
    // their answers and keeps what it read). Reading every finished run took a third more CPU per
    // run of the prompt-run job (bench:throughput, docs/perf/2026-11-30-night.md).
    if (lists.length === 0) return;
    const [texts] = await readRunTexts([run.id]);
    if (!texts) return;
    // Its answer's structure, which no entity changes, kept for every analysis of it to come.
    const structure = hasAnswer(texts) ? structureOf(texts.answer!) : null;
    if (structure !== null) await keepStructures(standalone(), [{ runId: run.id, structure }]);
    const input = {
      ...run,
      run_id: run.id,
      answer: texts.answer,
      search_queries: (texts.queries ?? []).filter((q): q is string => typeof q === "string"),
      cited_urls: (texts.cited ?? []).filter((u): u is string => typeof u === "string"),
      structure,
    };
    const seen = new Set<string>();
    for (const list of lists) {
      const entities = list.map(normalizeEntity);
      if (entities.length === 0) continue;
      const key = readingKey(entities);
      if (seen.has(key)) continue;
      seen.add(key);
      if (!hasAnswer(input)) {
        await keepReadings(standalone(), key, [unanswered(run.id)]);
        continue;
      }
      const { obs, store } = visibilityReader(entities).read([input]);
      await keepReadings(standalone(), key, [readingOf(run.id, obs, store, 0)]);
    }
  } catch (error) {
    log.warn("reading a finished run for its project's entities failed; analyses will read it themselves", { run_id: runId, error });
  }
}
