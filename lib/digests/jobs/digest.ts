// Weekly digests' background work: `deliver-digest` (on geoscope/digest.due, its id
// `<digest>.<attempt>`) makes one attempt of a digest; the `monitor-digests` periodic task claims
// the digests that have come due (one per monitor and ISO week, by a unique key) and queues each
// retry when its time comes. The waits live in the database (next_attempt_at), never in a
// sleeping process.
import { config } from "../../config/env";
import { digestDue } from "../../work/events";
import { defineJob } from "../../work/job";
import { definePeriodic } from "../../work/periodic";
import { checkDigests } from "../claim";
import { attemptDigest } from "../deliver";

export const deliverDigestJob = defineJob({
  id: "deliver-digest",
  event: digestDue,
  // A database error before the outcome is written: tried again (the claim makes the attempt once;
  // a claim left without its outcome is retried by the sweep at its next time).
  retries: 3,
  async run({ digest_id, attempt }, step) {
    return step.run("attempt", () => attemptDigest(digest_id, attempt));
  },
});

export const monitorDigestsTask = definePeriodic({
  id: "monitor-digests",
  cron: "* * * * *",
  everyMs: () => config().MONITOR_CHECK_SECONDS * 1000,
  run: (now) => checkDigests(now),
});
