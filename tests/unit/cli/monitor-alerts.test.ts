// `geoscope monitor alerts` and `geoscope monitor test-webhook` (the real CLI against a stand-in
// API): the alerts with how each delivery went, paged; a ping sent, then its first attempt's
// outcome said (exit 0 only when delivered); --json prints the API's bodies exactly.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Alert } from "@/lib/schemas/alerts";
import { standInApi } from "./stand-in";

const api = standInApi();
const MONITOR = "mo_01M7VRMMR088ASXAB0JMYCMVPP";
const change = structuredClone((z.globalRegistry.get(Alert)!.examples as unknown[])[0]) as z.input<typeof Alert>;
const pending = { channel: "webhook", status: "pending", attempts: 0, last_status: null, last_error: null, last_attempt_at: null, next_attempt_at: "2026-11-21T06:03:41.208Z", history: [] };
const ping = {
  ...change,
  id: "al_01M7VRMMR088ASXAB0JMYCMVQ9",
  kind: "ping",
  tick_id: null,
  entity: null,
  engine: null,
  metric: null,
  before: null,
  after: null,
  diff: null,
  interval: null,
  before_runs: null,
  after_runs: null,
  confidence: null,
  summary: "A test event from geoscope: this webhook URL receives the monitor's alerts.",
  deliveries: [pending],
};

describe("geoscope monitor alerts", { timeout: 60_000 }, () => {
  it("lists each alert with its sentence and how its webhook and email went; --json prints the body as sent", async () => {
    const body = { items: [change], next_cursor: "bmV4dA" };
    api.answer(() => ({ status: 200, body }));
    const human = await api.cli(["monitor", "alerts", MONITOR, "--limit", "1"]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/monitors/${MONITOR}/alerts?limit=1`]);
    expect(human.stdout).toContain(`${change.id}  2026-11-21 06:03:41Z  significant_change  tick ${change.tick_id}`);
    expect(human.stdout).toContain(change.summary);
    expect(human.stdout).toContain("webhook delivered (200, 2 attempts); email delivered (sent, 1 attempt)");
    expect(human.stderr).toContain("more: --cursor bmV4dA");
    const json = await api.cli(["monitor", "alerts", MONITOR, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(body);
  });
});

describe("geoscope monitor test-webhook", { timeout: 60_000 }, () => {
  it("sends a ping and says how its first attempt went: delivered exits 0", async () => {
    let listed = 0;
    api.answer((method) => {
      if (method === "POST") return { status: 202, body: ping };
      listed += 1;
      // The first look finds it not tried yet, the second delivered.
      const delivery = listed === 1 ? pending : { ...pending, status: "delivered", attempts: 1, last_status: "200", last_attempt_at: "2026-11-21T06:03:41.530Z", next_attempt_at: null };
      return { status: 200, body: { items: [{ ...ping, deliveries: [delivery] }], next_cursor: null } };
    });
    const result = await api.cli(["monitor", "test-webhook", MONITOR]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.seen[0]).toMatchObject({ method: "POST", url: `/api/v1/monitors/${MONITOR}/alerts/test` });
    expect(result.stdout).toBe(`Ping ${ping.id}: webhook delivered (200, 1 attempt)\n`);
  });

  it("a ping the webhook did not take exits 1 and says when it is tried again", async () => {
    api.answer((method) =>
      method === "POST"
        ? { status: 202, body: ping }
        : {
            status: 200,
            body: {
              items: [{ ...ping, deliveries: [{ ...pending, attempts: 1, last_status: "302", last_error: "answered 302, a redirect: redirects are not followed", next_attempt_at: "2026-11-21T06:04:41.530Z" }] }],
              next_cursor: null,
            },
          },
    );
    const result = await api.cli(["monitor", "test-webhook", MONITOR]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("webhook pending (302: answered 302, a redirect: redirects are not followed; 1 attempt, next 2026-11-21 06:04:41Z)");
    expect(result.stderr).toContain(`geoscope monitor alerts ${MONITOR}`);
  });

  it("--json prints the 202 as sent, without waiting; a monitor without a webhook URL is the API's 409", async () => {
    api.answer(() => ({ status: 202, body: ping }));
    const json = await api.cli(["monitor", "test-webhook", MONITOR, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(ping);
    expect(api.seen).toHaveLength(1);
    api.answer(() => ({
      status: 409,
      body: { error: { code: "conflict", message: "alerts.webhook_url: the monitor has no webhook URL to send a ping to", engine: null, retryable: false } },
    }));
    const refused = await api.cli(["monitor", "test-webhook", MONITOR]);
    expect(refused.code).toBe(8);
    expect(refused.stderr).toContain("the monitor has no webhook URL");
  });
});
