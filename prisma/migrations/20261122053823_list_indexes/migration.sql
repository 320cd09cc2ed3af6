-- DropIndex
DROP INDEX "credit_holds_workspace_id_status_idx";

-- CreateIndex
CREATE INDEX "batches_project_id_id_idx" ON "batches"("project_id", "id");

-- CreateIndex
CREATE INDEX "credit_holds_workspace_id_status_settled_at_idx" ON "credit_holds"("workspace_id", "status", "settled_at");

-- CreateIndex
CREATE INDEX "credit_holds_analysis_id_idx" ON "credit_holds"("analysis_id");

-- CreateIndex
CREATE INDEX "runs_project_id_id_idx" ON "runs"("project_id", "id");
