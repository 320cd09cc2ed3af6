-- DropForeignKey
ALTER TABLE "analysis_runs" DROP CONSTRAINT "analysis_runs_analysis_id_fkey";

-- DropForeignKey
ALTER TABLE "analysis_runs" DROP CONSTRAINT "analysis_runs_run_id_fkey";

-- DropIndex
DROP INDEX "analysis_runs_run_id_idx";

-- AlterTable
ALTER TABLE "analyses" ADD COLUMN     "body" TEXT;
