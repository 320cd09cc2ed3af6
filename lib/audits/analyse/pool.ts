// Page analysis off the request thread (decisions.md "Audit analysis in a worker thread"):
// analysePage is synchronous, and a 1 MiB page takes about 100 ms of CPU, during which every
// request the server is answering would wait. The pool runs it in worker threads (one by default)
// and answers the same PageAnalysis, structured-cloned back.
//
// Errors: an analysis that throws rejects with an Error of the same name and message; a worker that
// dies (crash, out of memory, terminated) rejects the page it was analysing and is replaced by a
// fresh one for the next page. Either way auditPage throws, as it did when analysePage threw in
// this thread, and the audit job retries then fails the run. Pages wait in a bounded queue; past
// it, analyse() rejects at once rather than holding more pages in memory.
import { Worker } from "node:worker_threads";
import type { PageAnalysis } from "../types";

export type AnalysisRequest = { id: number; html: string; url: string; headers: Record<string, string> };
export type AnalysisReply =
  | { id: number; threadId: number; ok: true; analysis: PageAnalysis }
  | { id: number; threadId: number; ok: false; error: { name: string; message: string; stack?: string } };

/** An analysis with the thread that made it (tests check it is not the caller's). */
export type AnalysisOutcome = { analysis: PageAnalysis; threadId: number };

export type AnalysisPoolOptions = {
  /** Worker threads at most; 1 by default (see decisions.md for why). */
  size?: number;
  /** Pages waiting for a free worker at most; one more is refused. */
  maxQueued?: number;
  /** Starts one worker; the page-analysis worker by default (tests pass others). */
  createWorker?: () => Worker;
};

export const ANALYSIS_THREADS = 1;
/** At 2 audits/s of pages up to 1 MiB (about 100 ms each) the queue stays near empty; 64 is a backlog of seconds. */
export const ANALYSIS_MAX_QUEUED = 64;
/** A heap limit for the worker: a pathological page fails its audit instead of taking the server down. */
const WORKER_HEAP_MB = 1024;

/** analyse() when the queue is full: the audit fails this attempt and its job retries later. */
export class AnalysisQueueFullError extends Error {
  override name = "AnalysisQueueFullError";
}

/** The worker running the page analysis stopped before answering. */
export class AnalysisWorkerError extends Error {
  override name = "AnalysisWorkerError";
}

/**
 * The page-analysis worker. Under `next build` (Turbopack) and `next dev` the bundler sees the
 * `new Worker(new URL("./worker.ts", import.meta.url), ...)` below and bundles worker.ts with its
 * imports into an entry of its own. Unbundled (vitest, tsx scripts: no NEXT_RUNTIME) this module is
 * the TypeScript source, and on Node 20 neither `--import tsx` in a worker's execArgv nor tsx's CLI makes a worker
 * load a .ts entry, so a small evaluated entry loads it through tsx's API (tsx is a dependency;
 * resolved from the working directory, the repository root for tests and scripts).
 */
export function spawnAnalysisWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  // Next's server bundles define NEXT_RUNTIME; there import.meta.url still names the .ts source.
  if (!process.env.NEXT_RUNTIME) {
    const entry = JSON.stringify(import.meta.url.replace(/[^/]*$/, "worker.ts"));
    return new Worker(`import("tsx/esm/api").then((tsx) => tsx.tsImport(${entry}, ${entry}));`, { ...options, eval: true });
  }
  return new Worker(new URL("./worker.ts", import.meta.url), options);
}

type Task = {
  request: AnalysisRequest;
  resolve: (outcome: AnalysisOutcome) => void;
  reject: (error: Error) => void;
};

type Slot = { worker: Worker; task: Task | null; dead: boolean };

export class AnalysisPool {
  private readonly size: number;
  private readonly maxQueued: number;
  private readonly createWorker: () => Worker;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: AnalysisPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? ANALYSIS_THREADS);
    this.maxQueued = Math.max(0, options.maxQueued ?? ANALYSIS_MAX_QUEUED);
    this.createWorker = options.createWorker ?? spawnAnalysisWorker;
  }

  /** analysePage(html, url, headers) in a worker thread, with the id of that thread. */
  analyseWithThread(html: string, url: string, headers: Record<string, string>): Promise<AnalysisOutcome> {
    if (this.closed) return Promise.reject(new AnalysisWorkerError("the page analysis pool is closed"));
    return new Promise<AnalysisOutcome>((resolve, reject) => {
      const task: Task = { request: { id: this.nextId++, html, url, headers }, resolve, reject };
      const slot = this.idleSlot();
      if (slot) return this.start(slot, task);
      if (this.queue.length >= this.maxQueued) {
        return reject(new AnalysisQueueFullError(`page analysis queue full (${this.maxQueued} pages waiting); try again later`));
      }
      this.queue.push(task);
    });
  }

  async analyse(html: string, url: string, headers: Record<string, string>): Promise<PageAnalysis> {
    return (await this.analyseWithThread(html, url, headers)).analysis;
  }

  /** Pages being analysed and waiting (tests). */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.task !== null).length;
  }

  /** Workers alive (tests). */
  get workers(): number {
    return this.slots.length;
  }

  /** Stops every worker; pages in flight or queued are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new AnalysisWorkerError("the page analysis pool was closed");
    for (const task of this.queue.splice(0)) task.reject(error);
    const slots = this.slots.splice(0);
    await Promise.all(
      slots.map((slot) => {
        slot.dead = true;
        slot.task?.reject(error);
        slot.task = null;
        return slot.worker.terminate();
      }),
    );
  }

  private idleSlot(): Slot | null {
    const idle = this.slots.find((s) => s.task === null && !s.dead);
    if (idle) return idle;
    if (this.slots.length >= this.size) return null;
    const slot = this.spawn();
    return slot;
  }

  private spawn(): Slot {
    const worker = this.createWorker();
    const slot: Slot = { worker, task: null, dead: false };
    this.slots.push(slot);
    worker.on("message", (reply: AnalysisReply) => this.answered(slot, reply));
    // 'error' (an uncaught exception, out of memory) is followed by 'exit'; the first one counts.
    worker.on("error", (error) => this.died(slot, new AnalysisWorkerError(`the page analysis worker failed: ${error.message}`, { cause: error })));
    worker.on("exit", (code) => this.died(slot, new AnalysisWorkerError(`the page analysis worker stopped (exit code ${code})`)));
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    // Keeps the process alive while a page is being analysed, and only then (tests, scripts).
    slot.worker.ref();
    slot.worker.postMessage(task.request);
  }

  private answered(slot: Slot, reply: AnalysisReply): void {
    const task = slot.task;
    if (slot.dead || task === null || reply.id !== task.request.id) return;
    slot.task = null;
    if (reply.ok) task.resolve({ analysis: reply.analysis, threadId: reply.threadId });
    else {
      const error = new Error(reply.error.message);
      error.name = reply.error.name;
      if (reply.error.stack) error.stack = reply.error.stack;
      task.reject(error);
    }
    this.next(slot);
  }

  private died(slot: Slot, error: Error): void {
    if (slot.dead) return;
    slot.dead = true;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate().catch(() => {});
    const task = slot.task;
    slot.task = null;
    task?.reject(error);
    // The replacement starts with the next page, now if one is waiting.
    if (!this.closed && this.queue.length > 0) this.start(this.spawn(), this.queue.shift()!);
  }

  private next(slot: Slot): void {
    const task = this.queue.shift();
    if (task) this.start(slot, task);
    else slot.worker.unref();
  }
}

const POOL = Symbol.for("geoscope.audits.analysisPool");
type WithPool = typeof globalThis & { [POOL]?: AnalysisPool };

/** The process's pool, made on first use; on globalThis so dev-mode reloads reuse its worker. */
export function analysisPool(): AnalysisPool {
  const g = globalThis as WithPool;
  return (g[POOL] ??= new AnalysisPool());
}

/** Stops the process's pool, if any (tests; a later analysis makes a new one). */
export async function closeAnalysisPool(): Promise<void> {
  const g = globalThis as WithPool;
  const pool = g[POOL];
  delete g[POOL];
  await pool?.close();
}

/** analysePage off the request thread: the same PageAnalysis, computed in the pool's worker. */
export function analysePageOffThread(html: string, url: string, headers: Record<string, string>): Promise<PageAnalysis> {
  return analysisPool().analyse(html, url, headers);
}
