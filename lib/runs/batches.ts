// The statements on batches that other domains call: which batches among a list of ids a
// credential reaches and their runs (an analysis naming batches), and a project's prompt batches
// a page at a time (the project page's feed). The batch's own reads and writes are in ./read.ts
// and ./create.ts.
import { defineStatement, group, json, standalone, text, type Columns } from "../db/statement";
import { batchColumns } from "./rows";
import { reachableSql } from "../workspaces/access";

/** The batches among `ids` in the caller's workspaces (their ids). */
export const REACHABLE_BATCHES = defineStatement({
  label: "analysis_named_batches",
  params: ["ids", "user", "own"],
  columns: { id: text("b.id") },
  sql: ({ select, p }) => `SELECT ${select} FROM batches b WHERE b.id = ANY(${p.ids}::text[]) AND ${reachableSql("b", p)}`,
});

/**
 * A statement reading the runs (alias r) of the batches among `ids` in the caller's workspaces, in
 * creation order (ids are time-ordered), with the run columns the caller asks for. Made once, where
 * the caller's module is loaded.
 */
export function runsOfReachableBatches<C extends Columns>(label: string, columns: C) {
  return defineStatement({
    label,
    params: ["ids", "user", "own"],
    columns,
    sql: ({ select, p }) =>
      `SELECT ${select} FROM runs r WHERE r.batch_id IN (SELECT b.id FROM batches b WHERE b.id = ANY(${p.ids}::text[]) AND ${reachableSql("b", p)}) ORDER BY r.id`,
  });
}

const PROMPT_BATCHES_OF_PROJECT = defineStatement({
  label: "feed_prompt_batches",
  params: ["project", "engine", "before", "take"],
  columns: ({ engine }) => ({
    batch: group(batchColumns),
    runIds: json<string[]>(`COALESCE((SELECT json_agg(r.id ORDER BY r.id) FROM runs r WHERE r.batch_id = b.id AND (${engine}::text IS NULL OR r.engine = ${engine})), '[]'::json)`),
  }),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM batches b LEFT JOIN users bu ON bu.id = b.created_by_user_id
    WHERE b.project_id = ${p.project} AND b.kind = 'prompt'${given.before ? ` AND b.id < ${p.before}` : ""}
      AND EXISTS (SELECT 1 FROM runs r WHERE r.batch_id = b.id AND r.kind = 'prompt' AND (${p.engine}::text IS NULL OR r.engine = ${p.engine}))
    ORDER BY b.id DESC LIMIT ${p.take}::int`,
});

/**
 * A project's prompt batches that have a prompt run (on `engine`, when given), newest first, older
 * than `beforeId` when given, at most `take`: each batch's row (its columns as the reads answer
 * them) and the ids of those runs in creation order. The caller checked that the project is reachable.
 */
export function promptBatchesOfProject(projectId: string, options: { engine?: string; beforeId?: string; take: number }) {
  return PROMPT_BATCHES_OF_PROJECT.query(standalone(), { project: projectId, engine: options.engine ?? null, before: options.beforeId, take: options.take });
}
