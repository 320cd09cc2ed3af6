-- An analysis's runs are kept in its row, in its order, with their number: one array written with
-- the row rather than a row per run in analysis_runs (a monitor tick's 4,500 rows took ~12 ms of
-- its analysis's transaction, the array ~1; docs/perf/2026-11-30-run-ids.md). lib/analyses/store.ts
-- is the owner of both, as of the table before.

-- AlterTable
ALTER TABLE "analyses" ADD COLUMN     "run_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "run_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- lz4 where the server has it, as for the row's result and body (20261129140000_analyses_lz4).
DO $$
BEGIN
  ALTER TABLE "analyses" ALTER COLUMN "run_ids" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: run_ids keeps the default compression';
END
$$;

-- The runs of every analysis stored before, in their order. Not a change of the analysis: its kept
-- body stays (analyses_body_follows_row would drop it on any update, so it is off meanwhile).
ALTER TABLE "analyses" DISABLE TRIGGER "analyses_body_follows_row";
UPDATE "analyses" a SET "run_ids" = r.ids, "run_count" = r.n
FROM (SELECT "analysis_id", array_agg("run_id" ORDER BY "position") AS ids, count(*)::int AS n FROM "analysis_runs" GROUP BY "analysis_id") r
WHERE a."id" = r."analysis_id";
ALTER TABLE "analyses" ENABLE TRIGGER "analyses_body_follows_row";

-- DropTable
DROP TABLE "analysis_runs";
