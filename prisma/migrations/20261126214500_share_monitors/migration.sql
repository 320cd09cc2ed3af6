-- Monitors can be shared like fanouts and batches: a live, read-only dashboard of the series
-- (decisions.md "Sharing, wave 3").
ALTER TYPE "ShareTargetKind" ADD VALUE 'monitor';
