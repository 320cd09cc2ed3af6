-- AlterEnum
ALTER TYPE "AnalysisKind" ADD VALUE 'comparison';

-- AlterTable
ALTER TABLE "monitor_ticks" ADD COLUMN     "comparisons" JSONB NOT NULL DEFAULT '[]';
