// A tick's two jobs. `start-tick` (on geoscope/monitor.tick-due, its id the tick's): make the
// tick's fanout through the one fanout code, or skip the tick when credit or the budget cannot
// pay it. `finish-tick` (on geoscope/monitor.tick-finished, found by the scheduler's sweep once
// the fanout has no unfinished run): the tick's own work after its fanout, then it closes.
// Both are idempotent: a start locks the tick and writes its fanout in one transaction; a close
// is conditional on the tick being open.
import { alertTickOutcome } from "../../alerts/raise";
import { log } from "../../log";
import { monitorTickDue, monitorTickFinished } from "../../work/events";
import { defineJob } from "../../work/job";
import { alertTickChanges, analyseTick, compareTick, judgeTick, settleTickJudge } from "../analysis";
import { closeTick, failUnstartedTick, startTick } from "../ticks";

/** Executions after the first of a start that threw (429, the database): about five minutes of backoff on the local driver. */
export const START_TICK_RETRIES = 10;

export const startTickJob = defineJob({
  id: "start-tick",
  event: monitorTickDue,
  retries: START_TICK_RETRIES,
  async run({ tick_id }, step) {
    const outcome = await step.run("start", () => startTick(tick_id));
    // A skipped or failed tick's alert (once per cause until a tick completes).
    await step.run("outcome-alerts", () => alertTickOutcome(tick_id));
    return outcome.kind;
  },
  async onFailure({ tick_id }, error) {
    log.error("a tick could not be started after its retries", { tick_id, error });
    await failUnstartedTick(tick_id, error);
    await alertTickOutcome(tick_id);
  },
});

export const finishTickJob = defineJob({
  id: "finish-tick",
  event: monitorTickFinished,
  retries: 5,
  async run({ tick_id }, step) {
    // The tick's visibility analysis and the figures its series reads, made once (the tick's row
    // locked in the analysis's transaction, nothing stored when it has one), before the close.
    await step.run("analysis", () => analyseTick(tick_id));
    // A judged monitor's tick: its answers judged for sentiment, the analysis finished with its
    // hold captured per run judged, and each cell's sentiment counts stored, before the close (so
    // the close's charge includes the judge's); a hold left held is released.
    await step.run("judge", () => judgeTick(tick_id));
    await step.run("settle-judge", () => settleTickJudge(tick_id));
    // One comparison of its fanout per API and app pair the monitor tracks (chatgpt and chatgpt_app, …).
    await step.run("comparisons", () => compareTick(tick_id));
    const closed = await step.run("close", () => closeTick(tick_id));
    // A failed tick's alert (a completed or partial one ends the failures' and skips' silence).
    await step.run("outcome-alerts", () => alertTickOutcome(tick_id));
    // A completed or partial tick's significant visibility changes from the previous one of its
    // version, one alert per entity × engine cell (keyed by tick and cell: raised once).
    await step.run("change-alerts", () => alertTickChanges(tick_id));
    return closed ? "closed" : "unchanged";
  },
});
