// A visibility analysis (decisions.md "Visibility analyses", "Mentions and links", method `visibility-v2`) as one pure
// function over plain run values: no database, no clock. The service feeds it what it read of the
// stored runs; the unit tests feed it hand-made answers whose every figure is known.
import { sortRuns } from "../analyses/citations";
import type { z } from "zod";
import type { RunCharge } from "../schemas/billing";
import type { DiscoveredEntity, EntitySentiment, EntityVisibility, JudgeAgreement, JudgeProvenance, VisibilityExclusionReason } from "../schemas/visibility";
import { normalizeEntity, type Entity } from "./entities";
import { groupFigures, groupSums } from "./figures";
import { buildMatcher } from "./matcher";
import { MentionStore, mentionRows, Observations, observeContext, observeRun, type KeepStructure, type MatchingMethod, type MentionRow, type VisibilityRunInput } from "./observe";

export const VISIBILITY_METHOD = "visibility-v2";

/** How a new analysis's means get their intervals (decisions.md "Statistics"); stored analyses without it were bootstrapped. */
export const INTERVAL_METHOD = "t";

export type { EntityVisibility, VisibilityExclusionReason };

/** An entity's rule-based figures as stored (its sentiment, judged, is stored beside them in `judged`). */
export type StoredEntityVisibility = Omit<EntityVisibility, "sentiment">;

/** What a judged analysis stores beside its rule-based figures (decisions.md "Judged visibility"). */
export type StoredJudgement = {
  judge: JudgeProvenance;
  /** One per entity, in order; null until the judge finished, or without sentiment. */
  sentiment: (EntitySentiment | null)[] | null;
  discovered: DiscoveredEntity[] | null;
  agreement: JudgeAgreement | null;
  /** The charge as it stood when the row was last written (held at creation, settled at the end). */
  charge: z.input<typeof RunCharge> | null;
  /** The hold (`ch_…`) set aside for every counted run at creation; null when billing was off or no run counted. Not shown. */
  hold_id: string | null;
};

/** What a visibility analysis stores as its figures: everything its API body shows but the row's own fields. */
export type StoredVisibilityFigures = {
  /** visibility-v2 for every new analysis; stored ones keep the method they were computed with. */
  method: MatchingMethod;
  /** Absent on analyses stored before Student's t replaced the bootstrap: theirs are bootstrap intervals. */
  interval_method?: typeof INTERVAL_METHOD;
  entities: Entity[];
  run_ids: string[];
  excluded_runs: { run_id: string; reason: VisibilityExclusionReason }[];
  totals: {
    runs: number;
    prompts: number;
    engines: number;
    /** Every mention found, counted or not. */
    mentions: number;
    /** `link` is absent from analyses stored before visibility-v2 (they set no mention aside as a link). */
    mentions_not_counted: { prompt_echo: number; absence: number; link?: number };
  };
  rows: StoredEntityVisibility[];
  /** Only on judged analyses. */
  judged?: StoredJudgement;
};

export type VisibilityFigures = StoredVisibilityFigures & {
  /** Every mention, by run (in run order) then offset: the evidence behind every figure. */
  mentions: MentionRow[];
};

/** The figures, every mention in its stored form, and the runs counted (the store's run indices). */
export type VisibilityComputation = { figures: StoredVisibilityFigures; store: MentionStore; runs: readonly VisibilityRunInput[] };

/** Each prompt's group as its sums (./figures.ts groupSums), in by_prompt order: what its by_prompt rows are made from. */
export type PromptSums = { prompt: string; runs: number; sums: Float64Array }[];

const engineOf = (run: VisibilityRunInput) => run.engine ?? "unknown";

/** A partition of the runs by key (keys in the order listed): each group's runs. */
function partitionBy<K>(keys: readonly K[], keyOf: (r: number) => K, runs: number) {
  const index = new Map(keys.map((k, g) => [k, g]));
  const lists: number[][] = keys.map(() => []);
  for (let r = 0; r < runs; r++) lists[index.get(keyOf(r))!]!.push(r);
  return { members: lists.map((l) => Int32Array.from(l)) };
}

type ComputeOptions = { entities: readonly Entity[] };

/**
 * Every figure of a VisibilityAnalysis from the runs the ids named (in order, repeats included)
 * and the entities (in the order given), with every mention as the API answers it.
 */
export function computeVisibilityAnalysis(named: readonly VisibilityRunInput[], options: ComputeOptions): VisibilityFigures {
  const { figures, store, runs } = computeVisibility(named, options);
  const mentions = runs.flatMap((run, r) => mentionRows(store.ofRun(r), { ...run, answer: run.answer ?? "" }, figures.entities, figures.method));
  return { ...figures, mentions };
}

/** computeVisibilityAnalysis with the mentions in their stored form (what the service stores). */
export function computeVisibility(named: readonly VisibilityRunInput[], options: ComputeOptions): VisibilityComputation {
  return assembleVisibility(observeVisibility(named, options));
}

/**
 * The first half of computeVisibility: every run read (matching, guards, positions, prominence,
 * citations) and the runs' partitions, before any figure.
 */
export function observeVisibility(named: readonly VisibilityRunInput[], options: Pick<ComputeOptions, "entities">) {
  const prepared = prepareVisibility(named, options);
  return combineVisibility(prepared, [observeRange(prepared.runs, prepared.entities)]);
}

/** Whether a completed prompt run has an answer to read (one without is excluded as `no_answer`). */
export const hasAnswer = (run: Pick<VisibilityRunInput, "answer">) => !(run.answer === null || run.answer.trim() === "");

/** The runs an analysis counts (in order) and those it leaves out, and the entities as used; `answered` says whether a run has an answer (a kept reading knows without its text). */
export function prepareVisibility(named: readonly VisibilityRunInput[], options: Pick<ComputeOptions, "entities">, answered: (run: VisibilityRunInput) => boolean = hasAnswer) {
  const entities = options.entities.map(normalizeEntity);
  const { runIds, runs, excluded } = sortRuns(named, (run) => (answered(run) ? null : ("no_answer" as const)));
  return { entities, runIds, runs, excluded };
}

export type PreparedVisibility = ReturnType<typeof prepareVisibility>;

/** Runs read in one go (some of an analysis's counted runs, in order): their observations and mentions. */
export type ObservedRange = { obs: Observations; store: MentionStore };

/** Reads `runs` for the (normalised) entities: what a thread does with its share of the runs. */
export function observeRange(runs: readonly VisibilityRunInput[], entities: readonly Entity[]): ObservedRange {
  return visibilityReader(entities).read(runs);
}

/**
 * One reader of an analysis's runs as their texts arrive: its matcher built once, `read` called
 * on consecutive ranges of the counted runs (each with an answer, in order), the ranges then
 * joined by combineVisibility. What the service does while the database sends the next part.
 */
export function visibilityReader(entities: readonly Entity[], keepStructure: KeepStructure | null = null) {
  const ctx = observeContext(entities, buildMatcher(entities), keepStructure);
  return {
    read(runs: readonly VisibilityRunInput[]): ObservedRange {
      const obs = new Observations(runs.length, entities.length);
      const store = new MentionStore(runs.length);
      for (let r = 0; r < runs.length; r++) observeRun(runs[r]!, r, ctx, obs, store);
      return { obs, store };
    },
  };
}

/** The observations of consecutive ranges of the counted runs joined, and the partitions. */
export function combineVisibility(prepared: PreparedVisibility, ranges: readonly ObservedRange[]) {
  const { entities, runIds, runs, excluded } = prepared;
  const read = ranges.reduce((n, r) => n + r.obs.runs, 0);
  if (read !== runs.length) throw new Error(`visibility: ${read} runs read for ${runs.length} counted`);
  const obs = ranges.length === 1 ? ranges[0]!.obs : Observations.join(ranges.map((r) => r.obs));
  const store = ranges.length === 1 ? ranges[0]!.store : MentionStore.join(ranges.map((r) => r.store));
  const R = runs.length;
  const engines = [...new Set(runs.map(engineOf))].sort();
  const prompts = [...new Set(runs.map((run) => run.prompt))];
  const countries = [...new Set(runs.map((run) => run.country))].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));

  const all = partitionBy([null], () => null, R);
  const byEngineP = partitionBy(engines, (r) => engineOf(runs[r]!), R);
  const byPromptP = partitionBy(prompts, (r) => runs[r]!.prompt, R);
  const byCountryP = partitionBy(countries, (r) => runs[r]!.country, R);
  const partitions = [all, byEngineP, byPromptP, byCountryP];
  return { entities, runIds, runs, excluded, obs, store, engines, prompts, countries, partitions };
}

export type ObservedVisibility = ReturnType<typeof observeVisibility>;

/** The second half of computeVisibility: every figure of every group of the observed runs. */
export function assembleVisibility(observed: ObservedVisibility): VisibilityComputation;
/**
 * The same with the by-prompt groups as their sums (`promptSums`), their figures not made: the rows'
 * by_prompt are empty (an analysis nobody waits for keeps the sums and is presented when read).
 */
export function assembleVisibility(observed: ObservedVisibility, options: { promptsAsSums: true }): VisibilityComputation & { promptSums: PromptSums };
export function assembleVisibility(observed: ObservedVisibility, options: { promptsAsSums?: boolean } = {}): VisibilityComputation & { promptSums?: PromptSums } {
  const { entities, runIds, runs, excluded, obs, store, engines, prompts, countries, partitions } = observed;
  const figuresOf = (p: number) => partitions[p]!.members.map((idx) => groupFigures(obs, idx));
  const allFigures = figuresOf(0)[0]!;
  const byEngine = figuresOf(1).map((figures, g) => ({ engine: engines[g]!, figures }));
  const promptSums: PromptSums | undefined = options.promptsAsSums
    ? partitions[2]!.members.map((idx, g) => ({ prompt: prompts[g]!, runs: idx.length, sums: groupSums(obs, idx) }))
    : undefined;
  const byPrompt = promptSums ? [] : figuresOf(2).map((figures, g) => ({ prompt: prompts[g]!, figures }));
  const byCountry = figuresOf(3).map((figures, g) => ({ country: countries[g]!, figures }));

  const rows: StoredEntityVisibility[] = entities.map((entity, e) => ({
    name: entity.name,
    role: entity.role,
    ...allFigures[e]!,
    by_engine: byEngine.map((g) => ({ engine: g.engine, ...g.figures[e]! })),
    by_prompt: byPrompt.map((g) => ({ prompt: g.prompt, ...g.figures[e]! })),
    by_country: byCountry.map((g) => ({ country: g.country, ...g.figures[e]! })),
  }));

  // Every mention kept counts once in exactly one of the four (the store may be empty: kept readings).
  const notCounted = { prompt_echo: 0, absence: 0, link: 0 };
  let mentions = 0;
  for (let c = 0; c < obs.counted.length; c++) {
    notCounted.prompt_echo += obs.promptEcho[c]!;
    notCounted.absence += obs.absence[c]!;
    notCounted.link += obs.link[c]!;
    mentions += obs.counted[c]!;
  }
  mentions += notCounted.prompt_echo + notCounted.absence + notCounted.link;

  const figures: StoredVisibilityFigures = {
    method: VISIBILITY_METHOD,
    interval_method: INTERVAL_METHOD,
    entities,
    run_ids: runIds,
    excluded_runs: excluded,
    totals: { runs: runs.length, prompts: prompts.length, engines: engines.length, mentions, mentions_not_counted: notCounted },
    rows,
  };
  return promptSums ? { figures, store, runs, promptSums } : { figures, store, runs };
}
