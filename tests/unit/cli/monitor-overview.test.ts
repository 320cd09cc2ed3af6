// `geoscope monitor overview` (the real CLI against a stand-in API): the request it sends, the
// summary then a table per monitor (latest with n and interval, a text sparkline, changes marked
// when significant), --json as sent, and a missing project id refused before any request.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MonitorOverview } from "@/lib/schemas/overview";
import { textSparkline } from "@/cli/commands/monitor-overview";
import { standInApi } from "./stand-in";

const api = standInApi();
const PROJECT = "pr_01M7VRMMR088ASXAB0JMYCMVPQ";
const example = structuredClone((z.globalRegistry.get(MonitorOverview)!.examples as unknown[])[0]) as z.input<typeof MonitorOverview>;
// A month-old point whose change is significant, and a competitor without a tick a week before.
example.monitors[0]!.entities[0]!.since_month = { from_tick_at: "2026-10-19T06:00:00.000Z", from_value: 0.1111, from_n: 36, diff: 0.5, diff_interval: [0.28, 0.66], significant: true };
example.monitors[0]!.entities.push({ name: "Pipedrive", role: "competitor", latest: null, sparkline: [], since_week: null, since_month: null });

describe("geoscope monitor overview", { timeout: 60_000 }, () => {
  it("asks for the project's overview and prints the summary, then each monitor's entities with their figures, trend and changes", async () => {
    api.answer(() => ({ status: 200, body: example }));
    const human = await api.cli(["monitor", "overview", PROJECT]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/projects/${PROJECT}/monitor-overview`]);
    const lines = human.stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual(example.summary);
    expect(lines[3]).toBe("CRM weekly (mo_01M7VRMMR088ASXAB0JMYCMVPR) · active · ChatGPT (API), Claude (API), Gemini (API) · version 1 · last tick 2026-11-23 06:00:00Z");
    expect(lines[4]).toMatch(/^ENTITY\s+ROLE\s+LATEST\s+95%\s+N\s+TREND\s+SINCE WEEK\s+SINCE MONTH$/);
    expect(lines[5]).toMatch(/^HubSpot\s+brand\s+61%\s+44–76%\s+36\s+▅▇\s+\+22 points\s+\+50 points \*$/);
    expect(lines[6]).toMatch(/^Pipedrive\s+competitor\s+-\s+-\s+-\s+-\s+-\s+-$/);
    expect(human.stdout).toContain("* significant");
  });

  it("--json prints the body as sent; no project id is a usage error before any request", async () => {
    api.answer(() => ({ status: 200, body: example }));
    const json = await api.cli(["monitor", "overview", PROJECT, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(example);
    api.seen.length = 0;
    const missing = await api.cli(["monitor", "overview"]);
    expect(missing.code).toBe(2);
    expect(api.seen).toEqual([]);
  });

  it("draws a trend on the pages' scale: 0 to the smallest of 25%, 50%, 75% or 100% holding the values", () => {
    expect(textSparkline([])).toBe("-");
    expect(textSparkline([0, 0.125, 0.25])).toBe("▁▅█");
    expect(textSparkline([0, 0.5, 1])).toBe("▁▅█");
    expect(textSparkline([0.2, 0.2])).toBe("▇▇");
  });
});
