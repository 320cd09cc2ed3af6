// What POST /visibility-analyses does with the runs it reads now (lib/visibility/create.ts's
// readAnalysisRuns): their answers asked for in parts and each part matched as it arrives
// (streamRunTexts, inputsOf, visibilityReader), for one share of the runs. bench:visibility's
// "both cores" measure runs it in the request thread for all the runs, or for half there and half
// in a worker thread (./read-worker.ts) that reads its share from the database itself.
import type { NamedRun } from "@/lib/analyses/runs";
import { hasAnswer, visibilityReader, type ObservedRange } from "@/lib/visibility/analysis";
import { inputsOf, streamRunTexts } from "@/lib/visibility/create";
import { MentionStore, Observations } from "@/lib/visibility/observe";
import type { Entity } from "@/lib/visibility";

/** The runs read as the POST reads them; with `match` false, read and made the analysis's inputs only (what the matching costs is the difference). */
export async function readShare(runs: readonly NamedRun[], entities: readonly Entity[], { match = true } = {}) {
  const reader = visibilityReader(entities);
  const ranges: ObservedRange[] = [];
  await streamRunTexts(runs, (part, texts) => {
    const inputs = inputsOf(part, texts).filter(hasAnswer);
    ranges.push(reader.read(match ? inputs : []));
  });
  return { obs: Observations.join(ranges.map((r) => r.obs)), store: MentionStore.join(ranges.map((r) => r.store)) };
}
