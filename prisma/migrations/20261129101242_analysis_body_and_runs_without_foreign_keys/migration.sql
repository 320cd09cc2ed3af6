-- DropForeignKey
ALTER TABLE "analysis_runs" DROP CONSTRAINT "analysis_runs_analysis_id_fkey";

-- DropForeignKey
ALTER TABLE "analysis_runs" DROP CONSTRAINT "analysis_runs_run_id_fkey";

-- DropIndex
DROP INDEX "analysis_runs_run_id_idx";

-- AlterTable
ALTER TABLE "analyses" ADD COLUMN     "body" TEXT;

-- A kept body is the analysis as presented from its row: any other change to the row (its result,
-- status, error…) drops it, so that the row is presented again (lib/analyses/store.ts). Only rows
-- with a body pay the trigger; an analysis with one is never updated by the service.
CREATE FUNCTION "analyses_body_follows_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."body" IS NOT DISTINCT FROM OLD."body" THEN
    NEW."body" := NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "analyses_body_follows_row" BEFORE UPDATE ON "analyses"
  FOR EACH ROW WHEN (OLD."body" IS NOT NULL) EXECUTE FUNCTION "analyses_body_follows_row"();
