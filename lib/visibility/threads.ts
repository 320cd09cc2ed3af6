// A visibility analysis's bootstrap off the request thread (docs/decisions.md "Visibility
// analyses": the work in threads), in two worker threads started on first use: its two parts,
// each drawn from a stream of its own, one in each worker, while the request thread sends the
// analysis's rows to the database. The results are those of the same work done in one thread
// (the tests compare them); a part whose worker cannot start or fails is drawn in the request
// thread instead, and logged.
import { Worker } from "node:worker_threads";
import { log } from "../log";
import { BOOTSTRAP_PARTS, finishGroupedBootstrap, groupedResampleMeans, prepareGroupedBootstrap, type GroupedPartMeans, type GroupedTable } from "../stats";
import type { ThreadReply, ThreadRequest } from "./thread-worker";

/** A heap for each worker: the largest analysis's runs, plan and resample means are some 200 MB. */
const WORKER_HEAP_MB = 768;

/**
 * A visibility worker. Under `next build` and `next dev` Turbopack bundles the `new Worker(new
 * URL(...))` below into an entry of its own; unbundled (vitest, tsx scripts) the TypeScript entry
 * is loaded through tsx's API, as the audit analysis pool does (lib/audits/analyse/pool.ts).
 */
function spawnWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!process.env.NEXT_RUNTIME) {
    const entry = JSON.stringify(import.meta.url.replace(/[^/]*$/, "thread-worker.ts"));
    return new Worker(`import("tsx/esm/api").then((tsx) => tsx.tsImport(${entry}, ${entry}));`, { ...options, eval: true });
  }
  return new Worker(new URL("./thread-worker.ts", import.meta.url), options);
}

type Ok = Extract<ThreadReply, { ok: true }>;
type Pending = { resolve: (reply: Ok) => void; reject: (error: Error) => void };
type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** One worker, its requests in flight; unref'd while idle so it never keeps a process alive. */
class VisibilityThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  run(request: Request): Promise<Ok> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Ok>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...request } as ThreadRequest);
    });
  }

  /** Whether its worker is running (tests). */
  get running(): boolean {
    return this.worker !== null;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker();
    worker.unref();
    worker.on("message", (reply: ThreadReply) => {
      const task = this.pending.get(reply.id);
      if (!task) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) task.resolve(reply);
      else task.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const task of this.pending.values()) task.reject(error);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the visibility worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

const holder = globalThis as { __geoscopeVisibilityThreads?: VisibilityThread[] };

function threads(): VisibilityThread[] {
  return (holder.__geoscopeVisibilityThreads ??= Array.from({ length: BOOTSTRAP_PARTS }, () => new VisibilityThread()));
}

/** The task in a worker, or here when the worker cannot do it. */
async function inWorker<T>(thread: VisibilityThread, request: Request, read: (reply: Ok) => T, here: () => T): Promise<T> {
  try {
    return read(await thread.run(request));
  } catch (error) {
    log.warn(`a visibility worker failed its ${request.task} task; it is done in the request thread`, { error: (error as Error).message });
    return here();
  }
}

/** bootstrapGroupedMeans(table, seed), its parts drawn at once in worker threads; the same intervals. */
export async function bootstrapInThreads(table: GroupedTable, seed: string, options: { resamples?: number } = {}): Promise<([number, number] | null)[][][]> {
  const plan = prepareGroupedBootstrap(table, options);
  const pool = threads();
  const parts = await Promise.all(
    plan.passes.map((_, pass) =>
      Promise.all(
        Array.from({ length: BOOTSTRAP_PARTS }, (_, part) =>
          inWorker<GroupedPartMeans>(
            pool[part]!,
            { task: "bootstrap", plan, seed, pass, part },
            (reply) => {
              if (reply.task !== "bootstrap") throw new Error("a visibility worker answered another task");
              return { low: reply.low, high: reply.high, kept: reply.kept };
            },
            () => groupedResampleMeans(plan, seed, pass, part),
          ),
        ),
      ),
    ),
  );
  return finishGroupedBootstrap(plan, parts);
}

/** Worker threads running (tests). */
export function visibilityWorkersRunning(): number {
  return (holder.__geoscopeVisibilityThreads ?? []).filter((t) => t.running).length;
}

/** Stops the workers (tests, scripts). */
export async function closeVisibilityThreads(): Promise<void> {
  const pool = holder.__geoscopeVisibilityThreads;
  holder.__geoscopeVisibilityThreads = undefined;
  await Promise.all((pool ?? []).map((t) => t.close()));
}
