-- Sentiment over time on monitors (#47): a monitor's judge, a tick's judge hold, and the
-- sentiment counts of each cell of a judged tick.
ALTER TABLE "monitors" ADD COLUMN "judge" JSONB;

ALTER TABLE "monitor_ticks" ADD COLUMN "judge_engine" TEXT,
ADD COLUMN "judge_hold_id" TEXT;

ALTER TABLE "monitor_tick_figures" ADD COLUMN "sentiment_runs_judged" INTEGER,
ADD COLUMN "sentiment_positive" INTEGER,
ADD COLUMN "sentiment_neutral" INTEGER,
ADD COLUMN "sentiment_negative" INTEGER;
