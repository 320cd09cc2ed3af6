// POST /monitors/estimate: a monitor's price per tick and per month, how precise each tick's rates
// will be, and how large a change its alerts catch, before anything is created. The detectable
// changes were computed apart from the code (Python's statistics.NormalDist, the same definition).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as estimateRoute } from "@/app/api/v1/monitors/estimate/route";
import { GET as listRoute } from "@/app/api/v1/monitors/route";
import { resetConfig } from "@/lib/config/env";
import { createProject } from "@/lib/projects/create";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let bob: Person;
let project: string;
let bare: string;

beforeAll(async () => {
  alice = await person("estimator@example.com");
  bob = await person("other@example.com");
  project = (await createProject(principalOf(alice), { name: "Planned", workspace_id: alice.workspaceId, context: { brands: ["Acme"], competitors: ["HubSpot"] } })).id;
  bare = (await createProject(principalOf(alice), { name: "Bare", workspace_id: alice.workspaceId, context: null })).id;
});
afterAll(() => resetConfig());

const prompts = [{ text: "best crm" }, { text: "crm for agencies" }, { text: "cheap crm" }];
const estimate = (body: Record<string, unknown>, token = alice.cliToken) => call(estimateRoute, "POST", "/monitors/estimate", { token, body });

describe("POST /monitors/estimate", () => {
  it("prices a tick and a month, says how precise each tick's rates are and how large a change its alerts catch, and creates nothing", async () => {
    const res = await estimate({ project, prompts, engines: ["chatgpt", "claude"], runs: 10, monthly_budget_usd: "10.00" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      prompts: 3,
      engines: ["chatgpt", "claude"],
      runs: 10,
      executions_per_tick: 60,
      ticks_per_month: 31,
      lines: [
        { engine: "chatgpt", executions: 30, unit_price_usd: "0.02", amount_usd: "0.60" },
        { engine: "claude", executions: 30, unit_price_usd: "0.03", amount_usd: "0.90" },
      ],
      per_tick_usd: "1.50",
      per_month_usd: "46.50",
      monthly_budget_usd: "10.00",
      ticks_within_budget: 6,
      billing_enabled: true,
    });
    expect(res.body.margin).toMatchObject({ runs_per_engine: 30, at_half: 0.1685, at_last_rate: null });
    // m = 2 entities (Acme, HubSpot): Newcombe at 97.5%; from 50% over 30 runs a tick, 0.347.
    expect(res.body.detectable_change).toEqual({
      entities: 2,
      min_change: 10,
      at_half: 0.347,
      at_last_rate: null,
      summary: ["A change between two ticks is alerted 8 times in 10 when it is at least 35 points (from 50%)."],
    });
    const listed = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: {} });
    expect(listed.body.items).toEqual([]);
  });

  it("weekly: at most 5 ticks a month; the alerts' floor when it is the larger; too few runs said in words", async () => {
    const weekly = await estimate({ project, prompts: Array.from({ length: 30 }, (_, i) => ({ text: `p${i}` })), engines: ["gemini"], runs: 10, schedule: { every: "week", at: "07:00", weekday: 1 }, alerts: { min_change: 15 } });
    expect(weekly.status).toBe(200);
    expect(weekly.body).toMatchObject({ ticks_per_month: 5, per_tick_usd: "4.50", per_month_usd: "22.50", monthly_budget_usd: null, ticks_within_budget: null });
    // 300 runs a tick from 50%: 0.124 by the test, under the alerts' 15 points, which decides.
    expect(weekly.body.detectable_change).toMatchObject({ min_change: 15, at_half: 0.15 });
    expect(weekly.body.detectable_change.summary[0]).toBe("A change between two ticks is alerted 8 times in 10 when it is at least 15 points (from 50%, the alerts' 15-point minimum).");

    const few = await estimate({ project, prompts: [{ text: "one" }], engines: ["gemini"], runs: 1 });
    expect(few.body.detectable_change).toMatchObject({ at_half: null });
    expect(few.body.detectable_change.summary).toEqual(["With so few runs per tick, not even a 50-point change between two ticks (from 50%) is alerted 8 times in 10; add prompts or runs."]);
  });

  it("refuses what POST /monitors refuses in its body, and another workspace's project is 404 as a missing one", async () => {
    const none = await estimate({ project: bare, prompts });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^entities: the project's context names no brand or competitor/);
    const foreign = await estimate({ project, prompts }, bob.cliToken);
    const missing = await estimate({ project: "pr_01M8CWEPXJDWTAJZMNEF2H98M3", prompts }, bob.cliToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(missing.body.error.message.replace("pr_01M8CWEPXJDWTAJZMNEF2H98M3", project));
  });
});
