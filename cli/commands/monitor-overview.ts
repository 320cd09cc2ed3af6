// Every monitor of a project side by side (GET /projects/{id}/monitor-overview): the summary, then
// per monitor a line per entity with its latest visibility (n, 95% interval), its last points as a
// text sparkline and its changes since last week and last month (significant ones marked).
import type { z } from "zod";
import { getProjectMonitorOverview, type MonitorOverview, type OverviewChange } from "../../lib/schemas/overview";
import { engineName, percent, percentRange, points } from "../../lib/words/format";
import { EXIT } from "../client";
import { arg, date, noExtraArgs, show, table, type Section } from "../command";

type OverviewOut = z.output<typeof MonitorOverview>;

const BARS = "▁▂▃▄▅▆▇█";

/** The values as bars, on the pages' scale: 0 to the smallest of 25%, 50%, 75% or 100% holding them. */
export function textSparkline(values: readonly number[]): string {
  if (values.length === 0) return "-";
  const top = [0.25, 0.5, 0.75, 1].find((m) => Math.max(...values) <= m) ?? 1;
  return values.map((v) => BARS[Math.min(BARS.length - 1, Math.round((Math.max(0, v) / top) * (BARS.length - 1)))]).join("");
}

/** A change as a cell: "+67 points *" (significant), "±0 points", "-" without a point that much older. */
function changeCell(c: z.output<typeof OverviewChange> | null): string {
  if (!c) return "-";
  return `${points(c.diff)}${c.significant ? " *" : ""}`;
}

export function formatOverview(o: OverviewOut): string {
  const lines = [...o.summary];
  if (o.monitors.length === 0) return lines.join("\n");
  for (const m of o.monitors) {
    lines.push("", `${m.name} (${m.id}) · ${m.status} · ${m.engines.map(engineName).join(", ")} · version ${m.version} · ${m.last_tick_at ? `last tick ${date(m.last_tick_at)}` : "no tick yet"}`);
    const rows = m.entities.map((e) => ({
      entity: e.name,
      role: e.role,
      latest: e.latest ? percent(e.latest.value) : "-",
      "95%": e.latest ? percentRange(e.latest.interval) : "-",
      n: e.latest ? e.latest.n : "-",
      trend: textSparkline(e.sparkline.map((p) => p.value)),
      "since week": changeCell(e.since_week),
      "since month": changeCell(e.since_month),
    }));
    lines.push(table(rows, ["entity", "role", "latest", "95%", "n", "trend", "since week", "since month"]));
  }
  lines.push(
    "",
    "trend: the last 12 ticks, oldest first; since week (month): from the latest tick at least 7 (30) days older, - when there is none; * significant: beyond chance (at 1 − 0.05/m) and at least the monitor's min_change",
  );
  return lines.join("\n");
}

export const monitorOverview: Section = {
  title: "Monitor overview",
  commands: [
    {
      words: ["monitor", "overview"],
      args: "pr_…",
      summary: "every monitor of a project side by side: each entity's latest visibility (n, 95% interval), trend and changes since last week and month",
      async run(ctx) {
        const project = arg(ctx, 0, "project id (pr_…)");
        noExtraArgs(ctx, 1);
        show(ctx, await ctx.client.call(getProjectMonitorOverview, { params: { project_id: project } }), formatOverview);
        return EXIT.ok;
      },
    },
  ],
};
