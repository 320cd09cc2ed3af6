// The body of the page-analysis worker thread (pool.ts starts it): analysePage on each page posted
// to it, one at a time, answering the analysis or the error it threw. Runs nothing else.
import { parentPort, threadId } from "node:worker_threads";
import { analysePage } from "./index";
import type { AnalysisReply, AnalysisRequest } from "./pool";

if (parentPort) {
  const port = parentPort;
  port.on("message", (request: AnalysisRequest) => {
    let reply: AnalysisReply;
    try {
      reply = { id: request.id, threadId, ok: true, analysis: analysePage(request.html, request.url, request.headers) };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { id: request.id, threadId, ok: false, error: { name: e.name, message: e.message, stack: e.stack } };
    }
    port.postMessage(reply);
  });
}
