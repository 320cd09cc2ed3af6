-- CreateEnum
CREATE TYPE "DigestStatus" AS ENUM ('pending', 'sent', 'logged', 'not_sent', 'failed');

-- CreateTable
CREATE TABLE "monitor_digests" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "week" TEXT NOT NULL,
    "tick_id" TEXT,
    "status" "DigestStatus" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "recipient" TEXT,
    "subject" TEXT NOT NULL,
    "text" TEXT,
    "html" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_attempt_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "monitor_digests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "monitor_digests_monitor_id_id_idx" ON "monitor_digests"("monitor_id", "id");

-- CreateIndex
CREATE INDEX "monitor_digests_status_next_attempt_at_idx" ON "monitor_digests"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_digests_monitor_id_week_key" ON "monitor_digests"("monitor_id", "week");

-- AddForeignKey
ALTER TABLE "monitor_digests" ADD CONSTRAINT "monitor_digests_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
