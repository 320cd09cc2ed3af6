-- AlterEnum
ALTER TYPE "BillingProduct" ADD VALUE 'judge';

-- CreateTable
CREATE TABLE "visibility_judgements" (
    "analysis_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "verdict" JSONB,
    "error" TEXT,
    "model" TEXT,
    "attempts" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "visibility_judgements_pkey" PRIMARY KEY ("analysis_id","run_id")
);
