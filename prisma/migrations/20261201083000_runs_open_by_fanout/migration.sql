-- A fanout's unfinished runs, found by a probe: the prompt-run job asks, as each run of a monitor
-- tick's fanout finishes, whether it was the last (lib/monitors/ticks.ts closeTickIfLastRun), and
-- the scheduler's sweep asks the same of every open tick. Partial: finished runs, nearly all of
-- them, are not in it.
CREATE INDEX "runs_open_by_fanout" ON "runs"("fanout_id") WHERE "fanout_id" IS NOT NULL AND "status" IN ('queued', 'running');
