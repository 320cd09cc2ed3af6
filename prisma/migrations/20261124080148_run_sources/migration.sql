-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "citations_exposed" BOOLEAN;

-- CreateTable
CREATE TABLE "run_sources" (
    "run_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "engine" TEXT,
    "prompt_hash" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT,
    "cited" BOOLEAN,
    "search_query_observed" BOOLEAN,
    "retrieval_observed" BOOLEAN,
    "citation_count" INTEGER NOT NULL,
    "resolution" TEXT NOT NULL,

    CONSTRAINT "run_sources_pkey" PRIMARY KEY ("run_id","position")
);

-- CreateIndex
CREATE INDEX "run_sources_workspace_id_domain_idx" ON "run_sources"("workspace_id", "domain");

-- AddForeignKey
ALTER TABLE "run_sources" ADD CONSTRAINT "run_sources_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: completed prompt runs recorded before the table existed, one row per source.
UPDATE "runs" SET "citations_exposed" = ("result"->>'citations_exposed')::boolean
WHERE "kind" = 'prompt' AND "status" = 'completed' AND jsonb_typeof("result"->'citations_exposed') = 'boolean';

INSERT INTO "run_sources" ("run_id", "position", "workspace_id", "engine", "prompt_hash", "url", "domain", "cited",
  "search_query_observed", "retrieval_observed", "citation_count", "resolution")
SELECT r."id", (s.ord - 1)::integer, r."workspace_id", r."engine",
  encode(sha256(convert_to(COALESCE(r."input"->>'prompt', r."subject"), 'UTF8')), 'hex'),
  s.source->>'url', s.source->>'domain', (s.source->>'cited')::boolean,
  (s.source->>'search_query_observed')::boolean, (s.source->>'retrieval_observed')::boolean,
  COALESCE((s.source->>'citation_count')::integer, 0), COALESCE(s.source->>'resolution', 'direct')
FROM "runs" r
CROSS JOIN LATERAL jsonb_array_elements(r."result"->'sources') WITH ORDINALITY AS s(source, ord)
WHERE r."kind" = 'prompt' AND r."status" = 'completed' AND jsonb_typeof(r."result"->'sources') = 'array';
