-- Fanouts and prompt batches can be shared like runs and analyses (decisions.md "Sharing, wave 3").
-- PostgreSQL 12 and later add several values to an enum in one migration.
ALTER TYPE "ShareTargetKind" ADD VALUE 'fanout';
ALTER TYPE "ShareTargetKind" ADD VALUE 'batch';
