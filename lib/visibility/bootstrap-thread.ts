// The bootstrap of a visibility analysis off the request thread (docs/decisions.md "Visibility
// analyses": the bootstrap in threads). Its resamples are drawn in BOOTSTRAP_PARTS parts, each from
// a stream of its own, so the parts can be drawn at once: one worker thread per part, while the
// request thread stays free to answer other requests and to send the analysis's mentions to the
// database. The intervals are those bootstrapGroupedMeans gives drawing the parts one after
// another (tests compare them). A worker that cannot start or fails leaves its part to this thread.
import { Worker } from "node:worker_threads";
import { BOOTSTRAP_PARTS, finishGroupedBootstrap, groupedResampleMeans, prepareGroupedBootstrap, type GroupedPartMeans, type GroupedTable } from "../stats";
import { log } from "../log";
import type { BootstrapReply, BootstrapRequest } from "./bootstrap-worker";

/** A heap for each worker: the largest analysis's plan and resample means are some 100 MB. */
const WORKER_HEAP_MB = 512;

/**
 * A bootstrap worker. Under `next build` and `next dev` Turbopack bundles the `new Worker(new
 * URL(...))` below into an entry of its own; unbundled (vitest, tsx scripts) the TypeScript entry
 * is loaded through tsx's API, as the audit analysis pool does (lib/audits/analyse/pool.ts).
 */
function spawnBootstrapWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!process.env.NEXT_RUNTIME) {
    const entry = JSON.stringify(import.meta.url.replace(/[^/]*$/, "bootstrap-worker.ts"));
    return new Worker(`import("tsx/esm/api").then((tsx) => tsx.tsImport(${entry}, ${entry}));`, { ...options, eval: true });
  }
  return new Worker(new URL("./bootstrap-worker.ts", import.meta.url), options);
}

type Pending = { resolve: (means: GroupedPartMeans) => void; reject: (error: Error) => void };

/** One worker, its requests in flight; unref'd while idle so it never keeps a process alive. */
class BootstrapThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  run(request: Omit<BootstrapRequest, "id">): Promise<GroupedPartMeans> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<GroupedPartMeans>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...request } satisfies BootstrapRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnBootstrapWorker();
    worker.unref();
    worker.on("message", (reply: BootstrapReply) => {
      const task = this.pending.get(reply.id);
      if (!task) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) task.resolve({ means: reply.means, kept: reply.kept });
      else task.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const task of this.pending.values()) task.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the bootstrap worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Whether its worker is running (tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

const holder = globalThis as { __geoscopeBootstrapThreads?: BootstrapThread[] };

function threads(): BootstrapThread[] {
  return (holder.__geoscopeBootstrapThreads ??= Array.from({ length: BOOTSTRAP_PARTS }, () => new BootstrapThread()));
}

/** bootstrapGroupedMeans(table, seed), its parts drawn at once in worker threads; the same intervals. */
export async function bootstrapInThreads(table: GroupedTable, seed: string, options: { resamples?: number } = {}): Promise<([number, number] | null)[][][]> {
  const plan = prepareGroupedBootstrap(table, options);
  const pool = threads();
  const parts = await Promise.all(
    plan.passes.map((_, pass) =>
      Promise.all(
        Array.from({ length: BOOTSTRAP_PARTS }, (_, part) =>
          pool[part]!.run({ plan, seed, pass, part }).catch((error: Error) => {
            log.warn("a visibility bootstrap worker failed; its part is drawn in the request thread", { error: error.message });
            return groupedResampleMeans(plan, seed, pass, part);
          }),
        ),
      ),
    ),
  );
  return finishGroupedBootstrap(plan, parts);
}

/** Worker threads running (tests). */
export function bootstrapWorkersRunning(): number {
  return (holder.__geoscopeBootstrapThreads ?? []).filter((t) => t.running).length;
}

/** Stops the workers (tests, scripts). */
export async function closeBootstrapThreads(): Promise<void> {
  const pool = holder.__geoscopeBootstrapThreads;
  holder.__geoscopeBootstrapThreads = undefined;
  await Promise.all((pool ?? []).map((t) => t.close()));
}
