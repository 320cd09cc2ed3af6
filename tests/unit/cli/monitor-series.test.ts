// `geoscope monitor series` (the real CLI against a stand-in API): the query it sends, the table
// with the significant change marked, --json as sent, --format csv, and options refused before
// any request.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MonitorSeries } from "@/lib/schemas/monitors";
import { standInApi } from "./stand-in";

const api = standInApi();
const MONITOR = "mo_01M7VRMMR088ASXAB0JMYCMVPP";
const example = structuredClone((z.globalRegistry.get(MonitorSeries)!.examples as unknown[])[0]) as z.input<typeof MonitorSeries>;

describe("geoscope monitor series", { timeout: 60_000 }, () => {
  it("sends the metric, entity, engine and version asked for and prints a table marking the significant change", async () => {
    api.answer(() => ({ status: 200, body: example }));
    const human = await api.cli(["monitor", "series", MONITOR, "--metric", "visibility", "--entity", "Acme CRM", "--engine", "all", "--version", "1"]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/monitors/${MONITOR}/series?metric=visibility&entity=Acme+CRM&engine=all&version=1`]);
    const lines = human.stdout.split("\n");
    expect(lines[0]).toBe("Acme CRM · visibility · all engines · version 1");
    expect(lines[1]).toMatch(/^TICK\s+AT\s+RUNS\s+N\s+VALUE\s+95%\s+CHANGE\s+CHANGE INTERVAL$/);
    // Whole percents, intervals rounded outward (lib/words/format.ts).
    expect(lines[2]).toMatch(/^mt_01M7VRMMR088ASXAB0JMYCMVPS\s+2026-11-21 06:00:00Z\s+30\s+30\s+33%\s+19–52%\s+-\s+-$/);
    expect(lines[3]).toMatch(/\s73%\s+55–86%\s+\+40 points \*\s+\+10 to \+61 points$/);
    expect(human.stdout).toContain("* significant");
  });

  it("--json prints the body as sent; --format csv one line per point, figures as the pages write them", async () => {
    api.answer(() => ({ status: 200, body: example }));
    const json = await api.cli(["monitor", "series", MONITOR, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(example);
    const csv = await api.cli(["monitor", "series", MONITOR, "--format", "csv"]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split("\r\n")).toEqual([
      "tick_id,at,runs,n,value,interval_low,interval_high,change_diff,change_low,change_high,significant",
      "mt_01M7VRMMR088ASXAB0JMYCMVPS,2026-11-21T06:00:00.000Z,30,30,33%,19%,52%,,,,",
      "mt_01M7VRMMR088ASXAB0JMYCMVPT,2026-11-22T06:00:00.000Z,30,30,73%,55%,86%,40%,10%,61%,true",
      "",
    ]);
  });

  it("refuses an unknown metric or format, and --format with --json, before any request", async () => {
    api.answer(() => ({ status: 200, body: example }));
    for (const args of [["--metric", "mentions"], ["--format", "xlsx"], ["--format", "csv", "--json"], ["--version", "two"]]) {
      const result = await api.cli(["monitor", "series", MONITOR, ...args]);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
    expect(api.seen).toEqual([]);
  });
});
