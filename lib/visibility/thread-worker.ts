// The body of a visibility worker thread (./threads.ts starts two): for each request posted, one
// pass and part of an analysis's grouped bootstrap (its resample means), or the observations and
// mentions of a range of its runs, handed back without copying. Runs nothing else.
import { parentPort } from "node:worker_threads";
import { groupedResampleMeans, type GroupedBootstrapPlan } from "../stats";
import { observeRange } from "./analysis";
import type { Entity } from "./entities";
import { OBSERVATION_ARRAYS, type Observations, type VisibilityRunInput } from "./observe";

export type ThreadRequest =
  | { id: number; task: "bootstrap"; plan: GroupedBootstrapPlan; seed: string; pass: number; part: number }
  | { id: number; task: "observe"; runs: VisibilityRunInput[]; entities: Entity[] };

export type ObservedArrays = Pick<Observations, (typeof OBSERVATION_ARRAYS)[number]>;

export type ThreadReply =
  | { id: number; ok: true; task: "bootstrap"; means: Float64Array; kept: Int32Array }
  | { id: number; ok: true; task: "observe"; runs: number; arrays: ObservedArrays; data: Int32Array; length: number; runStart: Int32Array }
  | { id: number; ok: false; message: string };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: ThreadRequest) => {
    try {
      if (request.task === "bootstrap") {
        const { means, kept } = groupedResampleMeans(request.plan, request.seed, request.pass, request.part);
        port.postMessage({ id: request.id, ok: true, task: "bootstrap", means, kept } satisfies ThreadReply, [means.buffer as ArrayBuffer, kept.buffer as ArrayBuffer]);
      } else {
        const { obs, store } = observeRange(request.runs, request.entities);
        const arrays = Object.fromEntries(OBSERVATION_ARRAYS.map((k) => [k, obs[k]])) as unknown as ObservedArrays;
        const reply: ThreadReply = { id: request.id, ok: true, task: "observe", runs: obs.runs, arrays, data: store.data, length: store.length, runStart: store.runStart };
        port.postMessage(reply, [...OBSERVATION_ARRAYS.map((k) => obs[k].buffer as ArrayBuffer), store.data.buffer as ArrayBuffer, store.runStart.buffer as ArrayBuffer]);
      }
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies ThreadReply);
    }
  });
}
