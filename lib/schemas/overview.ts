// A project's monitor overview (issue #47, docs/decisions.md "Project monitor overview"): every
// monitor of a project with each entity's latest visibility, its last points and its changes
// since a week and a month before, tested as the series tests a change. zod only.
import { z } from "zod";
import { DateTime, EngineId } from "./common";
import { defineEndpoint } from "./endpoint";
import { MonitorId, MonitorStatus } from "./monitors";
import { ProjectId } from "./projects";
import { Summary } from "./summary";
import { EntityRole } from "./visibility";

/** How many of the latest points a sparkline draws. */
export const SPARKLINE_POINTS = 12;
/** How much older (days) the point a change is measured from is, at least. */
export const SINCE_DAYS = { week: 7, month: 30 } as const;

const interval = z.tuple([z.number(), z.number()]);

export const OverviewChange = z
  .object({
    from_tick_at: DateTime.describe("The earlier point's tick (its scheduled_for): the latest point of the version at least 7 (since_week) or 30 (since_month) days before the latest."),
    from_value: z.number().describe("Visibility at that point (runs mentioning the entity / runs)."),
    from_n: z.int().min(0).describe("The runs that figure is over."),
    diff: z.number().describe("The latest visibility minus from_value, rounded to 4 places."),
    diff_interval: interval.describe("Newcombe's hybrid score interval of the difference at 1 − 0.05/m (m: the latest tick's entity × engine cells, engine `all` included): the series' own change test (GET /monitors/{id}/series)."),
    significant: z
      .boolean()
      .describe("The interval excludes 0 and |diff| is at least the monitor's alerts.min_change points: what raises an alert between two consecutive ticks, here between the latest point and the one a week (a month) before."),
  })
  .meta({ id: "OverviewChange", description: "The change of an entity's visibility (all engines) from an earlier point of the same version to the latest." });

export const OverviewPoint = z
  .object({
    tick_at: DateTime.describe("The tick's scheduled_for."),
    value: z.number().describe("Visibility over all engines: runs mentioning the entity / runs."),
    n: z.int().min(0).describe("The runs it is over."),
  })
  .meta({ id: "OverviewPoint", description: "One point of a sparkline." });

export const OverviewEntity = z
  .object({
    name: z.string(),
    role: EntityRole,
    latest: z
      .object({
        value: z.number().describe("Visibility over all engines at the latest completed (or partial) tick of the current version."),
        n: z.int().min(0).describe("The runs it is over."),
        interval: interval.describe("Wilson's 95% interval."),
        tick_at: DateTime.describe("That tick's scheduled_for."),
      })
      .nullable()
      .describe("Null before the current version's first completed (or partial) tick with figures."),
    sparkline: z
      .array(OverviewPoint)
      .max(SPARKLINE_POINTS)
      .describe(`The current version's last ${SPARKLINE_POINTS} completed (or partial) points, oldest first (the last is latest).`),
    since_week: OverviewChange.nullable().describe(`From the latest point at least ${SINCE_DAYS.week} days older than the latest; null when the version has none.`),
    since_month: OverviewChange.nullable().describe(`From the latest point at least ${SINCE_DAYS.month} days older than the latest; null when the version has none.`),
  })
  .meta({ id: "OverviewEntity", description: "One tracked entity of a monitor's current version, over all its engines." });

export const OverviewMonitor = z
  .object({
    id: MonitorId,
    name: z.string(),
    status: MonitorStatus,
    engines: z.array(EngineId),
    version: z.int().min(1).describe("The current version: the series the figures are of."),
    last_tick_at: DateTime.nullable().describe("The newest tick's scheduled_for, whatever its status (skipped, failed and running ones included); null before the first."),
    entities: z.array(OverviewEntity).describe("The current version's entities, in the monitor's order (its brand first)."),
  })
  .meta({ id: "OverviewMonitor", description: "A monitor as the project overview shows it." });

export const MonitorOverview = z
  .object({
    project: z.object({ id: ProjectId, name: z.string() }),
    monitors: z.array(OverviewMonitor).describe("Every monitor of the project, newest first; empty when it has none."),
    summary: Summary.describe(
      "In plain words: each monitor's brand at its latest tick (the first two monitors), then only the changes since last week or last month the test calls significant (two said, the rest counted), else that none changed beyond chance; every sentence with its n.",
    ),
  })
  .meta({
    id: "MonitorOverview",
    description: "Every monitor of a project side by side: each entity's latest visibility, a sparkline, and its changes since a week and a month before.",
    examples: [
      {
        project: { id: "pr_01M7VRMMR088ASXAB0JMYCMVPQ", name: "Acme" },
        monitors: [
          {
            id: "mo_01M7VRMMR088ASXAB0JMYCMVPR",
            name: "CRM weekly",
            status: "active",
            engines: ["chatgpt", "claude", "gemini"],
            version: 1,
            last_tick_at: "2026-11-23T06:00:00.000Z",
            entities: [
              {
                name: "HubSpot",
                role: "brand",
                latest: { value: 0.6111, n: 36, interval: [0.4488, 0.7523], tick_at: "2026-11-23T06:00:00.000Z" },
                sparkline: [
                  { tick_at: "2026-11-16T06:00:00.000Z", value: 0.3889, n: 36 },
                  { tick_at: "2026-11-23T06:00:00.000Z", value: 0.6111, n: 36 },
                ],
                since_week: { from_tick_at: "2026-11-16T06:00:00.000Z", from_value: 0.3889, from_n: 36, diff: 0.2222, diff_interval: [-0.0534, 0.4521], significant: false },
                since_month: null,
              },
            ],
          },
        ],
        summary: ['On the monitor "CRM weekly", HubSpot is named in 22 of 36 answers at the latest tick (about 61%, 95% interval 44–76%).', "No visibility changed beyond chance since last week (1 entity compared, over 36 answers at the latest tick)."],
      },
    ],
  });

export const getProjectMonitorOverview = defineEndpoint({
  method: "GET", path: "/projects/{project_id}/monitor-overview", operationId: "getProjectMonitorOverview",
  summary: "Every monitor of a project: each entity's latest visibility, sparkline and changes since last week and month",
  description:
    "Read from the figures each tick's visibility analysis stored (nothing is recomputed), for each monitor's current version and all its engines together. A change compares the latest point with the latest point at least 7 (30) days older by the series' own test (Newcombe at 1 − 0.05/m and the monitor's min_change). A project the credential cannot reach is 404, exactly as a missing one; a project without monitors answers an empty list.",
  tags: ["Monitors"], auth: "bearer", params: z.object({ project_id: ProjectId }), response: MonitorOverview, status: 200,
});
