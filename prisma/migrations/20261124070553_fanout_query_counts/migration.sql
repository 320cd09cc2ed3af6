-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "query_count" INTEGER;

-- CreateIndex
CREATE INDEX "fanouts_project_id_id_idx" ON "fanouts"("project_id", "id");

-- Backfill: completed runs recorded before the column existed.
UPDATE "runs" SET "query_count" = jsonb_array_length("result"->'searches')
WHERE "status" = 'completed' AND jsonb_typeof("result"->'searches') = 'array';
