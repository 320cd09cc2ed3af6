-- CreateEnum
CREATE TYPE "AlertKind" AS ENUM ('significant_change', 'tick_failed', 'tick_skipped', 'ping');

-- CreateEnum
CREATE TYPE "AlertChannel" AS ENUM ('webhook', 'email');

-- CreateEnum
CREATE TYPE "AlertDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateTable
CREATE TABLE "monitor_alerts" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "tick_id" TEXT,
    "kind" "AlertKind" NOT NULL,
    "reason" TEXT,
    "entity" TEXT,
    "engine" TEXT,
    "metric" TEXT,
    "change" JSONB,
    "summary" TEXT NOT NULL,
    "dedupe_key" TEXT,
    "email_delivery_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitor_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "channel" "AlertChannel" NOT NULL,
    "alert_id" TEXT,
    "tick_id" TEXT,
    "status" "AlertDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status" TEXT,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMP(3),
    "next_attempt_at" TIMESTAMP(3),
    "body" TEXT,
    "secret" TEXT,
    "history" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "monitor_alerts_dedupe_key_key" ON "monitor_alerts"("dedupe_key");

-- CreateIndex
CREATE INDEX "monitor_alerts_monitor_id_id_idx" ON "monitor_alerts"("monitor_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_deliveries_alert_id_key" ON "alert_deliveries"("alert_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_deliveries_tick_id_key" ON "alert_deliveries"("tick_id");

-- CreateIndex
CREATE INDEX "alert_deliveries_monitor_id_idx" ON "alert_deliveries"("monitor_id");

-- CreateIndex
CREATE INDEX "alert_deliveries_status_next_attempt_at_idx" ON "alert_deliveries"("status", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "monitor_alerts" ADD CONSTRAINT "monitor_alerts_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "monitor_alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
