-- A completed visibility analysis stored with its body keeps its rows' by_prompt figures in the
-- body alone, and its result says so ("prompts_in_body": lib/visibility/store-result.ts): most of
-- a monitor tick's 2 MB of figures, which were parsed into jsonb on every insert for no reader.
-- Such a body is data, not a copy, so a row whose result says so must keep one: an update that
-- would drop it (analyses_body_follows_row drops a kept body when anything else in the row changes)
-- fails here instead. The service never changes a completed visibility analysis; a change by hand
-- writes the body too, or a result with the rows' by_prompt back in it. NOT VALID: no row stored
-- before says so, and checking them would read every analysis's figures.
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_prompts_in_body" CHECK ("result" -> 'prompts_in_body' IS NULL OR "body" IS NOT NULL) NOT VALID;
