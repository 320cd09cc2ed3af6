-- AlterEnum
ALTER TYPE "AnalysisKind" ADD VALUE 'visibility';

-- CreateTable
CREATE TABLE "analysis_mentions" (
    "analysis_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "run_id" TEXT NOT NULL,
    "entities" BIGINT NOT NULL,
    "counted" BIGINT NOT NULL,
    "not_counted" BIGINT NOT NULL,
    "mentions" INTEGER[],

    CONSTRAINT "analysis_mentions_pkey" PRIMARY KEY ("analysis_id","position")
);
