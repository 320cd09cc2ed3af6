-- AlterTable
ALTER TABLE "monitor_ticks" ADD COLUMN     "entities" JSONB;
