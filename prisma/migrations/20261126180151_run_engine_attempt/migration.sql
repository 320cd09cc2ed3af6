-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "engine_attempt" INTEGER,
ADD COLUMN     "engine_attempt_at" TIMESTAMP(3);
