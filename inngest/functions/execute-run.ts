// Executes one queued run on Inngest: the same step code the local driver runs
// (lib/work/execute.ts). Per-engine concurrency and retries are Inngest's; onFailure fails the
// run and releases its hold once Inngest gives up.
import { config } from "@/lib/config/env";
import { RetryAfterError } from "inngest";
import { RUN_LEASE_MS, executeRun, failRun } from "@/lib/work/execute";
import { RUN_QUEUED_EVENT } from "@/lib/work/inngest-driver";
import { inngest } from "../client";

export const executeRunFunction = inngest.createFunction(
  {
    id: "execute-run",
    triggers: [{ event: RUN_QUEUED_EVENT }],
    // At most ENGINE_CONCURRENCY runs of one engine at a time, across every instance.
    concurrency: [{ key: "event.data.engine", limit: config().ENGINE_CONCURRENCY }],
    retries: 3,
    onFailure: async ({ event, error }) => {
      const runId = (event.data.event.data as { run_id: string }).run_id;
      await failRun(runId, { code: "internal_error", message: `The run could not be executed: ${error.message}`, engine: null, retryable: true });
    },
  },
  async ({ event, step }) => {
    const runId = (event.data as { run_id: string }).run_id;
    // One step: executeRun is idempotent, so a retried step finishes the run at most once.
    return step.run("execute run", async () => {
      const outcome = await executeRun(runId);
      // Another worker's lease is live (a step retried after a crash): try again once it may have expired.
      if (outcome === "busy") throw new RetryAfterError(`run ${runId} is held by another worker`, RUN_LEASE_MS);
      return outcome;
    });
  },
);
