// The judge-visibility job (decisions.md "Judged visibility"): ask the judge engine about every
// counted run of a queued visibility analysis, then finish it (./../judging.ts). At most
// ENGINE_CONCURRENCY judge jobs per engine at once. Two steps, each idempotent: a run's verdict
// is written once (its key is the analysis and the run) and a step run again judges only the runs
// without one; the finish is conditional on the analysis being unfinished and settles the hold once.
import { config } from "../../config/env";
import { log } from "../../log";
import { visibilityJudgeQueued } from "../../work/events";
import { defineJob } from "../../work/job";
import { failJudgedAnalysis, finishJudgedAnalysis, judgeRuns } from "../judging";

export const judgeVisibilityJob = defineJob({
  id: "judge-visibility",
  event: visibilityJudgeQueued,
  concurrency: { limit: () => config().ENGINE_CONCURRENCY },
  retries: 3,
  async run({ analysis_id }, step, { releaseSlot }) {
    const judged = await step.run("judge runs", async () => {
      try {
        return await judgeRuns(analysis_id);
      } finally {
        releaseSlot();
      }
    });
    if (judged === "finished") return "skipped";
    return step.run("finish", () => finishJudgedAnalysis(analysis_id));
  },
  async onFailure({ analysis_id }, error) {
    log.error("visibility judge failed for good after its retries", { analysis_id, error });
    await failJudgedAnalysis(analysis_id, {
      code: "internal_error",
      message: "The runs could not be judged; the service failed. Nothing was charged; asking again may succeed.",
      engine: null,
      retryable: true,
    });
  },
});
