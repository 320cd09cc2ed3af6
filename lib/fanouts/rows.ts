// The rows of fanouts and their runs as the reads answer them (./read.ts) and the presenters read
// them (./present.ts): their columns and types. Rows in, JSON out: neither of the two imports the other.
import { holdShape } from "../billing/store";
import { date, int, json, optional, text, type RowOf } from "../db/statement";
import type { RunStatus } from "../schemas/runs";

/** A fanout's columns (alias f, its creator u): what the presenters read of it. */
export const fanoutColumns = {
  id: text("f.id"),
  name: text("f.name"),
  engines: json<string[]>("array_to_json(f.engines)"),
  runsPerPrompt: int("f.runs_per_prompt"),
  prompts: json("f.prompts"),
  createdAt: date("f.created_at"),
  projectId: text("f.project_id"),
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
};

/** What the presenters read of a fanout's row. */
export type FanoutRow = RowOf<typeof fanoutColumns>;

/**
 * What the presenters read of a fanout's run (alias r, its hold h): of its `result` only
 * `searched`, `shown`, `search_calls` and `searches`, extracted in the database.
 */
export const observedRunColumns = {
  id: text("r.id"),
  status: text<RunStatus>("r.status"),
  engine: text("r.engine").nullable,
  model: text("r.model").nullable,
  fanoutPromptIndex: int("r.fanout_prompt_index").nullable,
  runIndex: int("r.run_index").nullable,
  queryCount: int("r.query_count").nullable,
  result: json(
    "CASE WHEN r.status = 'completed' THEN jsonb_build_object('searched', r.result->'searched', 'shown', r.result->'shown', 'search_calls', r.result->'search_calls', 'searches', r.result->'searches') END",
  ).nullable,
  error: json("r.error").nullable,
  createdAt: date("r.created_at"),
  startedAt: date("r.started_at").nullable,
  completedAt: date("r.completed_at").nullable,
  hold: holdShape("h"),
};

export type ObservedRun = RowOf<typeof observedRunColumns>;
