// The body of a bootstrap worker thread (./bootstrap-thread.ts starts it): the resample means of
// one pass and part of a visibility analysis's grouped bootstrap, for each request posted, handed
// back without copying. Runs nothing else.
import { parentPort } from "node:worker_threads";
import { groupedResampleMeans, type GroupedBootstrapPlan } from "../stats";

export type BootstrapRequest = { id: number; plan: GroupedBootstrapPlan; seed: string; pass: number; part: number };
export type BootstrapReply = { id: number; ok: true; means: Float64Array; kept: Int32Array } | { id: number; ok: false; message: string };

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: BootstrapRequest) => {
    try {
      const { means, kept } = groupedResampleMeans(request.plan, request.seed, request.pass, request.part);
      port.postMessage({ id: request.id, ok: true, means, kept } satisfies BootstrapReply, [means.buffer as ArrayBuffer, kept.buffer as ArrayBuffer]);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies BootstrapReply);
    }
  });
}
