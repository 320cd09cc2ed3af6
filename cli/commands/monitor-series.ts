// A monitor's series: one metric of one entity and engine over a version's ticks, each point with
// its n and interval and its change from the one before (significant ones marked).
import type { z } from "zod";
import { getMonitorSeries, SERIES_METRICS, type MonitorSeries } from "../../lib/schemas/monitors";
import { EXIT } from "../client";
import { date, intOption, out, printJson, request, str, table, UsageError, type Ctx, type Section } from "../command";
import { percent, percentDiffCell, percentDiffEnds, percentEnds, percentRange, place, placeDiff, placeDiffRange, placeEnds, placeRange, points, pointsRange } from "../../lib/words/format";
import { toCsv } from "./fanouts";
import { idArg } from "./monitors";

type SeriesOut = z.output<typeof MonitorSeries>;
type Point = SeriesOut["points"][number];

const isRate = (metric: string) => metric !== "average_position";

/** A rate as a percent, a position with one decimal (lib/words/format.ts). */
function figure(metric: string, v: number | null): string {
  if (v === null) return "-";
  return isRate(metric) ? percent(v) : place(v);
}

/** An interval, rounded outward. */
const figureRange = (metric: string, i: readonly [number, number]) => (isRate(metric) ? percentRange(i) : placeRange(i));

/** A change: points of a rate ("+40 points") or places ("+0.5"). */
const delta = (metric: string, v: number) => (isRate(metric) ? points(v) : placeDiff(v));

/** A change's interval, rounded outward. */
const deltaRange = (metric: string, i: readonly [number, number]) => (isRate(metric) ? pointsRange(i) : placeDiffRange(i));

/** The series as a table: one line per tick, a significant change marked with `*`. */
export function formatSeries(s: SeriesOut): string {
  const head = `${s.entity} · ${s.metric} · ${s.engine === "all" ? "all engines" : s.engine} · version ${s.version}`;
  if (s.points.length === 0) {
    return s.metric === "sentiment"
      ? `${head}\n(no judged tick: sentiment points exist only for ticks the monitor judged; judge from the next tick with: geoscope monitor update MONITOR --judge ENGINE)`
      : `${head}\n(no completed tick yet)`;
  }
  const counts = new Map((s.sentiment ?? []).map((c) => [c.tick_id, c]));
  const rows = s.points.map((p: Point) => ({
    tick: p.tick_id,
    at: date(p.at),
    runs: p.runs,
    n: p.n,
    value: figure(s.metric, p.value),
    "95%": p.interval ? figureRange(s.metric, p.interval) : "-",
    change: p.change ? `${delta(s.metric, p.change.diff)}${p.change.significant ? " *" : ""}` : "-",
    "change interval": p.change ? deltaRange(s.metric, p.change.interval) : "-",
    "+/=/-": counts.has(p.tick_id) ? `${counts.get(p.tick_id)!.positive}/${counts.get(p.tick_id)!.neutral}/${counts.get(p.tick_id)!.negative}` : "",
  }));
  const columns = ["tick", "at", "runs", "n", "value", "95%", "change", "change interval", ...(s.metric === "sentiment" ? ["+/=/-"] : [])];
  const lines = [head, table(rows, columns)];
  if (s.metric === "sentiment") lines.push("sentiment: positive / (positive + negative) of the judge's verified sentiments (n); +/=/- counts positive, neutral and negative; judged ticks only");
  if (s.points.some((p) => p.change?.significant)) lines.push("* significant: the change's interval (at 1 − 0.05/m over the tick's cells) excludes 0 and it is at least the monitor's min_change");
  return lines.join("\n");
}

const CSV_COLUMNS = ["tick_id", "at", "runs", "n", "value", "interval_low", "interval_high", "change_diff", "change_low", "change_high", "significant"] as const;

/** The points as the CSV writes them: figures as the pages say them ("33%", a place "1.4"; intervals rounded outward), which spreadsheets read as numbers. */
export function seriesLines(s: SeriesOut) {
  const rate = isRate(s.metric);
  return s.points.map((p) => {
    const [low, high] = p.interval ? (rate ? percentEnds(p.interval) : placeEnds(p.interval)) : [null, null];
    const [changeLow, changeHigh] = p.change ? (rate ? percentDiffEnds(p.change.interval) : placeEnds(p.change.interval)) : [null, null];
    return {
      tick_id: p.tick_id,
      at: p.at,
      runs: p.runs,
      n: p.n,
      value: p.value === null ? null : rate ? percent(p.value) : place(p.value),
      interval_low: low,
      interval_high: high,
      change_diff: p.change ? (rate ? percentDiffCell(p.change.diff) : place(p.change.diff)) : null,
      change_low: changeLow,
      change_high: changeHigh,
      significant: p.change ? p.change.significant : null,
    };
  });
}

function csvWanted(ctx: Ctx): boolean {
  const format = str(ctx, "format");
  if (format === undefined) return false;
  if (format !== "csv") throw new UsageError(`unknown format "${format}": --format takes csv`);
  if (ctx.json) throw new UsageError("--format writes CSV; leave out --json (or drop --format for the API's body)");
  return true;
}

export const monitorSeries: Section = {
  title: "Monitor series",
  commands: [
    {
      words: ["monitor", "series"],
      args: "mo_…",
      summary: "one metric of one entity and engine over the monitor's ticks: each value with its n and 95% interval, and its change (* significant)",
      options: {
        metric: { type: "string", arg: SERIES_METRICS.join("|"), values: SERIES_METRICS, help: "the figure (default visibility)" },
        entity: { type: "string", arg: "NAME", help: "one of the monitor's entities (default the first, its brand)" },
        engine: { type: "string", arg: "ENGINE|all", help: "one engine of the monitor's, or all of them together (default all)" },
        version: { type: "string", arg: "N", help: "the series (monitor version) to read (default the current one)" },
        format: { type: "string", arg: "csv", values: ["csv"], help: "write the points as CSV" },
      },
      async run(ctx) {
        const id = idArg(ctx);
        const csv = csvWanted(ctx);
        const metric = str(ctx, "metric");
        if (metric !== undefined && !(SERIES_METRICS as readonly string[]).includes(metric)) throw new UsageError(`unknown metric "${metric}": --metric takes ${SERIES_METRICS.join(", ")}`);
        const query = {
          metric: metric as SeriesOut["metric"] | undefined,
          entity: str(ctx, "entity"),
          engine: str(ctx, "engine") as SeriesOut["engine"] | undefined,
          version: intOption(ctx, "version"),
        };
        const result = await request(ctx, getMonitorSeries, { params: { monitor_id: id }, query });
        if (csv) process.stdout.write(toCsv(seriesLines(result.body), [...CSV_COLUMNS]));
        else if (ctx.json) printJson(result.text, ctx.pretty);
        else out(formatSeries(result.body));
        return EXIT.ok;
      },
    },
  ],
};
