-- CreateEnum
CREATE TYPE "MonitorStatus" AS ENUM ('active', 'paused');

-- CreateEnum
CREATE TYPE "TickStatus" AS ENUM ('queued', 'running', 'completed', 'partial', 'failed', 'skipped');

-- CreateEnum
CREATE TYPE "TickSkipReason" AS ENUM ('insufficient_credit', 'budget_exhausted');

-- CreateEnum
CREATE TYPE "TickTrigger" AS ENUM ('schedule', 'manual');

-- CreateTable
CREATE TABLE "monitors" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "MonitorStatus" NOT NULL DEFAULT 'active',
    "version" INTEGER NOT NULL DEFAULT 1,
    "prompts" JSONB NOT NULL,
    "engines" TEXT[],
    "runs_per_prompt" INTEGER NOT NULL,
    "location" JSONB,
    "language" TEXT,
    "entities" JSONB NOT NULL,
    "schedule_every" TEXT NOT NULL,
    "schedule_minute" INTEGER NOT NULL,
    "schedule_weekday" INTEGER,
    "next_run_at" TIMESTAMP(3) NOT NULL,
    "monthly_budget_micros" BIGINT,
    "alerts" JSONB NOT NULL,
    "webhook_secret" TEXT NOT NULL,
    "created_by_user_id" TEXT,
    "api_key_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_ticks" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "scheduled_for" TIMESTAMP(3) NOT NULL,
    "trigger" "TickTrigger" NOT NULL DEFAULT 'schedule',
    "status" "TickStatus" NOT NULL DEFAULT 'queued',
    "skip_reason" "TickSkipReason",
    "fanout_id" TEXT,
    "analysis_id" TEXT,
    "charged_micros" BIGINT,
    "error" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "monitor_ticks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "monitors_workspace_id_id_idx" ON "monitors"("workspace_id", "id");

-- CreateIndex
CREATE INDEX "monitors_project_id_id_idx" ON "monitors"("project_id", "id");

-- CreateIndex
CREATE INDEX "monitors_status_next_run_at_idx" ON "monitors"("status", "next_run_at");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_ticks_fanout_id_key" ON "monitor_ticks"("fanout_id");

-- CreateIndex
CREATE INDEX "monitor_ticks_monitor_id_id_idx" ON "monitor_ticks"("monitor_id", "id");

-- CreateIndex
CREATE INDEX "monitor_ticks_completed_at_idx" ON "monitor_ticks"("completed_at");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_ticks_monitor_id_version_trigger_scheduled_for_key" ON "monitor_ticks"("monitor_id", "version", "trigger", "scheduled_for");

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_ticks" ADD CONSTRAINT "monitor_ticks_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
