// The generate-questions job: generate one queued questions analysis on its run's engine
// (lib/questions/execute.ts), at most ENGINE_CONCURRENCY generations per engine at once. One
// step: executeQuestions is idempotent (its claim and its final write are conditional), so a step
// run again finishes the analysis at most once.
import { config } from "../../config/env";
import { log } from "../../log";
import { RUN_JOB_RETRIES, failRun, leaseRemainingMs } from "../../runs/lifecycle";
import { questionsQueued } from "../../work/events";
import { RetryAfter, defineJob } from "../../work/job";
import { executeQuestions, settleAnalysisWithRun } from "../execute";

export const generateQuestionsJob = defineJob({
  id: "generate-questions",
  event: questionsQueued,
  concurrency: { limit: () => config().ENGINE_CONCURRENCY },
  retries: RUN_JOB_RETRIES,
  async run({ analysis_id, run_id }, step, { releaseSlot }) {
    return step.run("generate questions", async () => {
      const outcome = await executeQuestions(analysis_id, run_id, { onEngineDone: releaseSlot });
      if (outcome === "busy") throw new RetryAfter(`run ${run_id} is held by another worker`, await leaseRemainingMs(run_id));
      return outcome;
    });
  },
  async onFailure({ analysis_id, run_id }, error) {
    log.error("questions analysis failed for good after its retries", { analysis_id, run_id, error });
    await failRun(run_id, { code: "internal_error", message: "The questions could not be generated; the service failed. Asking again may succeed.", engine: null, retryable: true });
    await settleAnalysisWithRun(analysis_id, run_id);
  },
});
