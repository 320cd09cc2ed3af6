// A visibility analysis's bootstrap in worker threads (lib/visibility/threads.ts): its parts drawn
// at once off this thread give exactly the intervals of the same bootstrap drawn here, part after
// part, and an analysis's figures are those computed in one thread.
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapGroupedMeans, SeededRandom } from "@/lib/stats";
import { assembleVisibility, computeVisibility, observeVisibility } from "@/lib/visibility/analysis";
import { bootstrapInThreads, closeVisibilityThreads, visibilityWorkersRunning } from "@/lib/visibility/threads";
import { buildRuns, entities } from "../../bench/lib/visibility-answers";

afterAll(async () => {
  await closeVisibilityThreads();
});

/** A table like a visibility analysis's: 600 runs, 3 entities' positions and prominences, by engine and by prompt. */
function table() {
  const rng = new SeededRandom("threads");
  const rows = 600;
  const offsets = new Int32Array(rows + 1);
  const columns: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    let place = 0;
    for (let e = 0; e < 3; e++) {
      if (rng.nextDouble() < 0.5) continue;
      columns.push(2 * e, 2 * e + 1);
      values.push(++place, Math.round(rng.nextDouble() * 1000) / 5000);
    }
    offsets[r + 1] = columns.length;
  }
  return {
    rows,
    offsets,
    columns: Int32Array.from(columns),
    values: Float64Array.from(values),
    columnCount: 6,
    overEntries: [true, false, true, false, true, false],
    partitions: [
      { groupOf: new Int32Array(rows), groups: 1 },
      { groupOf: Int32Array.from({ length: rows }, (_, i) => i % 3), groups: 3 },
      { groupOf: Int32Array.from({ length: rows }, (_, i) => i % 40), groups: 40 },
    ],
  };
}

describe("bootstrapInThreads", () => {
  it("draws the parts in worker threads and gives the intervals of the same bootstrap drawn in this thread", async () => {
    const t = table();
    const here = bootstrapGroupedMeans(t, "va_threads");
    const there = await bootstrapInThreads(t, "va_threads");
    expect(visibilityWorkersRunning()).toBe(2);
    expect(there).toEqual(here);
    expect(there[2]!.every((group) => group.some((interval) => interval !== null))).toBe(true);
    // Another seed, another draw.
    expect(await bootstrapInThreads(t, "va_other")).not.toEqual(here);
  });
});

describe("an analysis's bootstrap in threads", () => {
  it("gives the figures of the analysis computed in one thread", async () => {
    const runs = buildRuns(1200);
    const observed = observeVisibility(runs, { entities });
    const intervals = await bootstrapInThreads(observed.table, "va_observed", { resamples: 200 });
    expect(visibilityWorkersRunning()).toBe(2);
    const figures = assembleVisibility(observed, intervals).figures;
    expect(figures).toEqual(computeVisibility(runs, { entities, seed: "va_observed", resamples: 200 }).figures);
    expect(figures.rows.every((row) => row.average_position_interval !== null && row.prominence_interval !== null)).toBe(true);
  });
});
