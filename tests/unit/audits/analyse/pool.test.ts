// The page-analysis pool (lib/audits/analyse/pool.ts): analysePage in a worker thread, with the same
// result as in this thread, this thread free while a large page is analysed, and every failure
// (an analysis that throws, a worker that dies, a full queue) an error for that page only.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Worker, threadId } from "node:worker_threads";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { analysePage } from "@/lib/audits/analyse";
import { AnalysisPool, AnalysisQueueFullError, AnalysisWorkerError, analysePageOffThread, analysisPool, closeAnalysisPool, spawnAnalysisWorker } from "@/lib/audits/analyse/pool";
import { PAGE_URL, prose } from "./helpers";

const CORPUS = join(__dirname, "../../../fixtures/audits/corpus");
const HEADERS = { "x-robots-tag": "noarchive", "last-modified": "Tue, 07 May 2024 10:00:00 GMT" };
/** About 1 MiB of article: the largest pages bench:load audits, about 100 ms of analysis. */
const LARGE_PAGE = `<!doctype html><html lang="en"><head><title>Long</title></head><body><article><h1>Long</h1>${prose(2000)}</article></body></html>`;

const pools: AnalysisPool[] = [];
function pool(...args: ConstructorParameters<typeof AnalysisPool>): AnalysisPool {
  const p = new AnalysisPool(...args);
  pools.push(p);
  return p;
}

/** A worker running `body` (CommonJS) instead of the analysis: crashes and silences on demand. */
const fakeWorker = (body: string) => () => new Worker(`const { parentPort } = require("node:worker_threads");\n${body}`, { eval: true });

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(closeAnalysisPool);

describe("analysePageOffThread", () => {
  it("answers exactly what analysePage answers, for every page of the corpus", async () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".html")).sort();
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const file of files) {
      const html = readFileSync(join(CORPUS, file), "utf8");
      const url = `https://corpus.example/${file.slice(0, -".html".length)}`;
      const offThread = await analysePageOffThread(html, url, HEADERS);
      const here = analysePage(html, url, HEADERS);
      expect(offThread, file).toStrictEqual(here);
      expect(JSON.stringify(offThread), file).toBe(JSON.stringify(here));
    }
  });

  it("analyses in another thread, and this thread keeps turning while a large page is analysed", async () => {
    const order: string[] = [];
    const analysed = analysisPool()
      .analyseWithThread(LARGE_PAGE, PAGE_URL, HEADERS)
      .then((outcome) => {
        order.push("analysis answered");
        return outcome;
      });
    // A few turns of this thread's event loop, as requests arriving meanwhile need. Run in this
    // thread, the analysis (synchronous) would answer before any of them.
    for (let turn = 1; turn <= 3; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`turn ${turn}`);
    }
    const { analysis, threadId: analysedIn } = await analysed;
    expect(order).toEqual(["turn 1", "turn 2", "turn 3", "analysis answered"]);
    expect(analysedIn).not.toBe(threadId);
    expect(analysis.content.word_count).toBe(1 + 2000 * 69);
    expect(analysis).toStrictEqual(analysePage(LARGE_PAGE, PAGE_URL, HEADERS));
  });
});

describe("AnalysisPool errors", () => {
  it("rejects with the analysis's own error when it throws, and goes on with the next page", async () => {
    const p = pool();
    const broken = null as unknown as Record<string, string>;
    let thrownHere: unknown;
    try {
      analysePage("<p>x</p>", PAGE_URL, broken);
    } catch (error) {
      thrownHere = error;
    }
    expect(thrownHere).toBeInstanceOf(Error);
    const failed = await p.analyse("<p>x</p>", PAGE_URL, broken).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).toBe((thrownHere as Error).name);
    expect((failed as Error).message).toBe((thrownHere as Error).message);
    expect(await p.analyse("<p>fine</p>", PAGE_URL, {})).toStrictEqual(analysePage("<p>fine</p>", PAGE_URL, {}));
    expect(p.workers).toBe(1);
  });

  it("fails the page a crashed worker was analysing, and replaces the worker for the next", async () => {
    const factories = [
      fakeWorker(`parentPort.on("message", () => process.exit(3));`),
      fakeWorker(`parentPort.on("message", () => { throw new Error("boom"); });`),
    ];
    const spawned: number[] = [];
    const p = pool({
      createWorker: () => {
        const next = factories.shift();
        const worker = next ? next() : spawnAnalysisWorker();
        spawned.push(worker.threadId);
        return worker;
      },
    });
    await expect(p.analyse("<p>a</p>", PAGE_URL, {})).rejects.toThrow(new AnalysisWorkerError("the page analysis worker stopped (exit code 3)"));
    await expect(p.analyse("<p>b</p>", PAGE_URL, {})).rejects.toThrow(/the page analysis worker failed: boom/);
    const { analysis, threadId: analysedIn } = await p.analyseWithThread("<p>c</p>", PAGE_URL, {});
    expect(analysis).toStrictEqual(analysePage("<p>c</p>", PAGE_URL, {}));
    expect(spawned).toHaveLength(3);
    expect(analysedIn).toBe(spawned[2]);
    expect(p.workers).toBe(1);
  });

  it("starts the next waiting page on the replacement when a worker dies", async () => {
    let first = true;
    const p = pool({
      createWorker: () => {
        if (!first) return spawnAnalysisWorker();
        first = false;
        return fakeWorker(`parentPort.on("message", () => process.exit(1));`)();
      },
    });
    const [a, b] = await Promise.allSettled([p.analyse("<p>a</p>", PAGE_URL, {}), p.analyse("<p>b</p>", PAGE_URL, {})]);
    expect(a.status).toBe("rejected");
    expect(b).toEqual({ status: "fulfilled", value: analysePage("<p>b</p>", PAGE_URL, {}) });
  });

  it("refuses a page past the queue bound, and close() fails what is left and stops the workers", async () => {
    // A worker that never answers: one page in it, one waiting, the third refused.
    const exits: number[] = [];
    const p = pool({
      maxQueued: 1,
      createWorker: () => {
        const worker = fakeWorker(`parentPort.on("message", () => {});`)();
        worker.on("exit", (code) => exits.push(code));
        return worker;
      },
    });
    const inFlight = p.analyse("<p>1</p>", PAGE_URL, {}).catch((error: unknown) => error);
    const queued = p.analyse("<p>2</p>", PAGE_URL, {}).catch((error: unknown) => error);
    await expect(p.analyse("<p>3</p>", PAGE_URL, {})).rejects.toBeInstanceOf(AnalysisQueueFullError);
    expect(p.pending).toBe(2);
    await p.close();
    expect(await inFlight).toBeInstanceOf(AnalysisWorkerError);
    expect(await queued).toBeInstanceOf(AnalysisWorkerError);
    expect(p.workers).toBe(0);
    expect(exits).toHaveLength(1);
    await expect(p.analyse("<p>4</p>", PAGE_URL, {})).rejects.toBeInstanceOf(AnalysisWorkerError);
  });
});
