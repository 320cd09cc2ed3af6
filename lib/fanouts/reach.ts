// The statements on fanouts that other domains call: whether a credential reaches a fanout (GET
// /runs?fanout=, the live pages' progress), and which fanouts among a list of ids it reaches (an
// analysis naming fanouts; their runs are read by lib/runs/fanout-runs.ts with namedFanoutIdsSql). The fanout's own reads and writes are in ./read.ts and
// ./create.ts.
import type { Principal } from "../auth/principal";
import { defineStatement, standalone, text } from "../db/statement";
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
 * The ids of the fanouts among the parameter `ids` in the caller's workspaces (user, own), as a
 * subquery's SELECT: the fanouts' part of lib/runs/fanout-runs.ts's runsOfReachableFanouts.
 */
export const namedFanoutIdsSql = (p: { ids: string; user: string; own: string }) =>
  `SELECT f.id FROM fanouts f WHERE f.id = ANY(${p.ids}::text[]) AND ${reachableSql("f", p)}`;
