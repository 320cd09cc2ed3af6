-- CreateTable
CREATE TABLE "monitor_tick_figures" (
    "tick_id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "entity_index" INTEGER NOT NULL,
    "entity" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "cells" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL,
    "runs_mentioning" INTEGER NOT NULL,
    "share_of_voice_n" INTEGER NOT NULL,
    "runs_citing" INTEGER NOT NULL,
    "runs_top3" INTEGER NOT NULL,
    "position_sum" INTEGER NOT NULL,
    "position_sum_squares" INTEGER NOT NULL,
    "average_position" DOUBLE PRECISION,
    "average_position_low" DOUBLE PRECISION,
    "average_position_high" DOUBLE PRECISION,
    "counted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "monitor_tick_figures_pkey" PRIMARY KEY ("tick_id","entity","engine")
);

-- CreateIndex
CREATE INDEX "monitor_tick_figures_monitor_id_version_entity_engine_at_idx" ON "monitor_tick_figures"("monitor_id", "version", "entity", "engine", "at");

-- AddForeignKey
ALTER TABLE "monitor_tick_figures" ADD CONSTRAINT "monitor_tick_figures_tick_id_fkey" FOREIGN KEY ("tick_id") REFERENCES "monitor_ticks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
