// What POST /visibility-analyses does with the runs it reads now, for one share of them: their
// answers read as readRunTexts reads them, in parts (the next asked for while one is matched), each
// part matched for the entities (visibilityReader). bench:visibility's "both cores" measure runs it
// in the request thread for all the runs, or for half there and half in a worker thread
// (./read-worker.ts) that reads its share from the database itself.
import { readRunTexts } from "@/lib/runs/analysis-reads";
import { hasAnswer, visibilityReader } from "@/lib/visibility/analysis";
import { MentionStore, Observations, type VisibilityRunInput } from "@/lib/visibility/observe";
import type { Entity } from "@/lib/visibility";

export type NamedShare = Pick<VisibilityRunInput, "run_id" | "engine" | "country" | "prompt">[];

/**
 * The runs' answers read in parts of `size`, `ahead` asked for at a time, each part matched as it
 * arrives (with `match` false, read and made the analysis's inputs only: what the matching costs
 * is the difference).
 */
export async function readShare(runs: NamedShare, entities: readonly Entity[], { size = 625, ahead = 2, match = true } = {}) {
  const reader = visibilityReader(entities);
  const parts: NamedShare[] = [];
  for (let i = 0; i < runs.length; i += size) parts.push(runs.slice(i, i + size));
  const asked: ReturnType<typeof readRunTexts>[] = [];
  const ask = (k: number) => k < parts.length && asked.push(readRunTexts(parts[k]!.map((r) => r.run_id)));
  for (let k = 0; k < ahead; k++) ask(k);
  const ranges = [];
  const answered: string[] = [];
  for (let k = 0; k < parts.length; k++) {
    const rows = await asked[k]!;
    ask(k + ahead);
    const texts = new Map(rows.map((row) => [row.id, row]));
    const inputs: VisibilityRunInput[] = [];
    for (const r of parts[k]!) {
      const t = texts.get(r.run_id);
      const input: VisibilityRunInput = {
        ...r, status: "completed", kind: "prompt", answer: t?.answer ?? null,
        search_queries: (t?.queries ?? []).filter((q): q is string => typeof q === "string"),
        cited_urls: (t?.cited ?? []).filter((u): u is string => typeof u === "string"),
      };
      if (hasAnswer(input)) inputs.push(input);
    }
    ranges.push(reader.read(match ? inputs : []));
    for (const i of inputs) answered.push(i.run_id);
  }
  return { obs: Observations.join(ranges.map((r) => r.obs)), store: MentionStore.join(ranges.map((r) => r.store)), answered };
}

