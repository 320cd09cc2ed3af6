-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'completed', 'failed');

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "job" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "concurrency_key" TEXT,
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_after" TIMESTAMP(3),
    "lease_expires_at" TIMESTAMP(3),
    "steps" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "jobs_status_run_after_idx" ON "jobs"("status", "run_after");

-- CreateIndex
CREATE INDEX "jobs_status_lease_expires_at_idx" ON "jobs"("status", "lease_expires_at");

-- Backfill: before this migration the local driver read its queue from the runs table. Every
-- prompt run still queued or running gets its job, so a server upgraded mid-work resumes it.
INSERT INTO "jobs" ("id", "job", "payload", "concurrency_key", "status", "updated_at")
SELECT "id", 'execute-run', jsonb_build_object('run_id', "id", 'engine', COALESCE("engine", '')), COALESCE("engine", ''), 'queued', CURRENT_TIMESTAMP
FROM "runs"
WHERE "kind" = 'prompt' AND "status" IN ('queued', 'running')
ON CONFLICT ("id") DO NOTHING;
