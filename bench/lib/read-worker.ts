// A worker thread of bench:visibility's "both cores" measure: opens the bench's PostgreSQL database
// itself, reads and matches the runs it is sent (./read-share.ts: their ids and what an analysis
// names of each), and answers its observations and mentions as typed arrays, transferred, not
// copied. Nothing but ids and entities crosses into it.
import { parentPort, workerData } from "node:worker_threads";
import { openDb, setCurrentDb } from "@/lib/db/client";
import { OBSERVATION_ARRAYS } from "@/lib/visibility/observe";
import type { Entity } from "@/lib/visibility";
import type { NamedRun } from "@/lib/analyses/runs";
import { readShare } from "./read-share";

setCurrentDb(openDb({ kind: "postgres", url: (workerData as { url: string }).url }));

parentPort?.on("message", async ({ runs, entities }: { runs: NamedRun[]; entities: Entity[] }) => {
  const { obs, store } = await readShare(runs, entities);
  const arrays = Object.fromEntries(OBSERVATION_ARRAYS.map((k) => [k, obs[k]]));
  parentPort!.postMessage(
    { runs: obs.runs, arrays, data: store.data, length: store.length, runStart: store.runStart },
    [...OBSERVATION_ARRAYS.map((k) => obs[k].buffer), store.data.buffer, store.runStart.buffer] as ArrayBuffer[],
  );
});
