-- At most one working share per run or analysis: two concurrent "share" requests cannot both
-- create one (the loser answers the winner's link). Partial, so revoked shares stay as history.
CREATE UNIQUE INDEX "shares_live_target_key" ON "shares"("target_kind", "target_id") WHERE "revoked_at" IS NULL;
