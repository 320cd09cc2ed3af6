// The statements on fanouts that other domains call: whether a credential reaches a fanout (GET
// /runs?fanout=, the live pages' progress), and which fanouts among a list of ids it reaches and
// their runs (an analysis naming fanouts). The fanout's own reads and writes are in ./read.ts and
// ./create.ts.
import type { Principal } from "../auth/principal";
import { defineStatement, standalone, text, type Columns } from "../db/statement";
import { reachableSql, reachOf } from "../workspaces/access";

const FANOUT_REACHABLE = defineStatement({
  label: "fanout_reachable",
  params: ["fanout", "user", "own"],
  sql: ({ p }) => `SELECT 1 FROM fanouts f WHERE f.id = ${p.fanout} AND ${reachableSql("f", p)}`,
});

/** Whether the credential can reach the fanout (without reading it). */
export async function fanoutReachable(principal: Principal, fanoutId: string): Promise<boolean> {
  return (await FANOUT_REACHABLE.first(standalone(), { fanout: fanoutId, ...reachOf(principal) })) !== undefined;
}

/** The fanouts among `ids` in the caller's workspaces (their ids). */
export const REACHABLE_FANOUTS = defineStatement({
  label: "analysis_named_fanouts",
  params: ["ids", "user", "own"],
  columns: { id: text("f.id") },
  sql: ({ select, p }) => `SELECT ${select} FROM fanouts f WHERE f.id = ANY(${p.ids}::text[]) AND ${reachableSql("f", p)}`,
});

/**
 * A statement reading the runs (alias r) of the fanouts among `ids` in the caller's workspaces, in
 * creation order (ids are time-ordered), with the run columns the caller asks for. Made once, where
 * the caller's module is loaded.
 */
export function runsOfReachableFanouts<C extends Columns>(label: string, columns: C) {
  return defineStatement({
    label,
    params: ["ids", "user", "own"],
    columns,
    sql: ({ select, p }) =>
      `SELECT ${select} FROM runs r WHERE r.fanout_id IN (SELECT f.id FROM fanouts f WHERE f.id = ANY(${p.ids}::text[]) AND ${reachableSql("f", p)}) ORDER BY r.id`,
  });
}
