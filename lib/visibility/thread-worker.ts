// The body of a visibility worker thread (./threads.ts starts two): for each request posted, one
// pass and part of an analysis's grouped bootstrap (the tails of its resample means), handed back
// without copying. Runs nothing else.
import { parentPort } from "node:worker_threads";
import { groupedResampleMeans, type GroupedBootstrapPlan } from "../stats";

export type ThreadRequest = { id: number; task: "bootstrap"; plan: GroupedBootstrapPlan; seed: string; pass: number; part: number };

export type ThreadReply =
  | { id: number; ok: true; task: "bootstrap"; low: Float64Array; high: Float64Array; kept: Int32Array }
  | { id: number; ok: false; message: string };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: ThreadRequest) => {
    try {
      const { low, high, kept } = groupedResampleMeans(request.plan, request.seed, request.pass, request.part);
      port.postMessage({ id: request.id, ok: true, task: "bootstrap", low, high, kept } satisfies ThreadReply, [low.buffer as ArrayBuffer, high.buffer as ArrayBuffer, kept.buffer as ArrayBuffer]);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies ThreadReply);
    }
  });
}
