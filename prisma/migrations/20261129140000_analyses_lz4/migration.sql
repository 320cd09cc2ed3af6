-- An analysis's figures (result, jsonb) and its kept body (text) are compressed with lz4 rather
-- than pglz where the server has it (PostgreSQL 14+ built with lz4, as Debian's is): storing a
-- tick's 2 MB of each took ~110 ms with pglz and ~50 ms with lz4 (most of it then the jsonb's
-- parse), reading the body back ~13 against ~9.5 ms, on about the same disk (docs/perf/
-- 2026-11-29-kept-readings.md). Rows stored before keep their pglz values. PGlite has no lz4:
-- there the columns keep the default, and nothing else differs.
DO $$
BEGIN
  ALTER TABLE "analyses" ALTER COLUMN "result" SET COMPRESSION lz4, ALTER COLUMN "body" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: analyses keep the default compression';
END
$$;
