// The statements on batches that other domains call: which batches among a list of ids a
// credential reaches and their runs (an analysis naming batches), and a project's prompt batches
// a page at a time (the project page's feed). The batch's own reads and writes are in ./read.ts
// and ./create.ts.
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { defineStatement, text, type Columns } from "../db/statement";
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

/**
 * A project's prompt batches that have a prompt run (on `engine`, when given), newest first, older
 * than `beforeId` when given, at most `take`: each with its prompt input, creator's email and the
 * ids of those runs in creation order. The caller checked that the project is reachable.
 */
export function promptBatchesOfProject(projectId: string, options: { engine?: string; beforeId?: string; take: number }) {
  const runFilter: Prisma.RunWhereInput = options.engine ? { engine: options.engine } : {};
  const where: Prisma.BatchWhereInput = { projectId, kind: "prompt", runs: { some: { kind: "prompt", ...runFilter } } };
  if (options.beforeId !== undefined) where.id = { lt: options.beforeId };
  return db().batch.findMany({
    where,
    orderBy: { id: "desc" },
    take: options.take,
    select: { id: true, input: true, createdAt: true, createdBy: { select: { email: true } }, runs: { where: runFilter, select: { id: true }, orderBy: { id: "asc" } } },
  });
}
