// The entities of a project's active monitors (the five most recently changed): what a run of the
// project is read for when it finishes (lib/visibility/run-observations.ts), so that the monitors'
// ticks, and any analysis of the project's runs with the same entities, find the runs already read.
// Owned here with the monitors' other statements.
import { defineStatement, json, standalone } from "../db/statement";
import type { Entity } from "../visibility/entities";

/** Monitors of a project whose entities a finished run is read for. */
export const MONITORS_READ_FOR = 5;

const PROJECT_MONITOR_ENTITIES = defineStatement({
  label: "monitor_entities_of_project",
  params: ["project", "limit"],
  columns: { entities: json<Entity[]>("mo.entities") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitors mo WHERE mo.project_id = ${p.project} AND mo.status = 'active' ORDER BY mo.updated_at DESC LIMIT ${p.limit}::int`,
});

/** The entities of the project's active monitors, the most recently changed first (at most MONITORS_READ_FOR lists). */
export async function activeMonitorEntities(projectId: string): Promise<Entity[][]> {
  return (await PROJECT_MONITOR_ENTITIES.query(standalone(), { project: projectId, limit: MONITORS_READ_FOR })).map((r) => r.entities);
}
