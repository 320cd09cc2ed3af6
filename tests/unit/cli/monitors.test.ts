// `geoscope monitor …` (the real CLI against a stand-in API): create reads its prompts from
// arguments or --file (the shared linesOfFile: blank lines and # comments skipped) and sends the
// schedule, entities, budget and alerts the options give; the webhook secret is printed once; the
// other commands send what they say and print the API's answers for people, or exactly with --json.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Monitor, MonitorCreated, MonitorList, Tick, TickList } from "@/lib/schemas/monitors";
import { standInApi } from "./stand-in";

const api = standInApi();
const PROJECT = "pr_01M86BZ1B8TDMNZ120417K12ZN";
const example = <T extends z.ZodType>(schema: T, i = 0) => structuredClone((z.globalRegistry.get(schema)!.examples as unknown[])[i]) as z.input<T>;
const monitor = example(Monitor);
const created = example(MonitorCreated);

function fileWith(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-cli-monitor-")), name);
  writeFileSync(file, text);
  return file;
}

describe("geoscope monitor create", { timeout: 60_000 }, () => {
  it("sends the prompts of --file and the schedule, entities, budget and alerts the options give; prints the secret once", async () => {
    api.answer((method, url) => (method === "POST" && url.pathname.endsWith("/monitors") ? { status: 201, body: created } : { status: 404, body: {} }));
    const file = fileWith("prompts.txt", "# tracked prompts\nbest crm for agencies\n\n  pipedrive vs hubspot  \n");
    const result = await api.cli([
      "monitor", "create", "--file", file, "--project", PROJECT, "--every", "week", "--weekday", "wed", "--at", "07:30", "--runs", "2", "--engines", "gemini,claude",
      "--brand", "Acme", "--competitor", "HubSpot", "--competitor", "Pipedrive", "--budget", "25.00", "--webhook-url", "https://hooks.acme.dev/g", "--email", "--min-change", "15",
      "--country", "DE", "--name", "CRM weekly",
    ]);
    expect(result.stderr).toContain("shown once");
    expect(result.code).toBe(0);
    expect(JSON.parse(api.seen[0]!.body)).toEqual({
      project: PROJECT,
      prompts: [{ text: "best crm for agencies" }, { text: "pipedrive vs hubspot" }],
      name: "CRM weekly",
      engines: ["gemini", "claude"],
      runs: 2,
      schedule: { every: "week", at: "07:30", weekday: 3 },
      location: { country: "DE" },
      entities: [{ name: "Acme", role: "brand" }, { name: "HubSpot", role: "competitor" }, { name: "Pipedrive", role: "competitor" }],
      monthly_budget_usd: "25.00",
      alerts: { webhook_url: "https://hooks.acme.dev/g", email: true, min_change: 15 },
    });
    expect(result.stdout).toContain(`monitor ${created.id}: active · version 1 · ${created.name}`);
    expect(result.stdout).toContain("every day at 06:00 UTC");
    expect(result.stdout.split(created.webhook_secret)).toHaveLength(2);
    expect(result.stderr).not.toContain(created.webhook_secret);
  });

  it("with --json prints the API's body as sent; --entities reads a JSON file", async () => {
    api.answer(() => ({ status: 201, body: created }));
    const entities = fileWith("entities.json", JSON.stringify([{ name: "Monday", role: "competitor", case_sensitive: true }]));
    const result = await api.cli(["monitor", "create", "best crm", "--project", PROJECT, "--entities", entities, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(created);
    expect(JSON.parse(api.seen[0]!.body).entities).toEqual([{ name: "Monday", role: "competitor", case_sensitive: true }]);
  });

  it("refuses options that do not go together, sending nothing", async () => {
    for (const [args, message] of [
      [["best crm", "--project", PROJECT, "--every", "day", "--weekday", "2"], "--weekday goes with --every week"],
      [["best crm", "--project", PROJECT, "--weekday", "someday"], "--weekday takes 1 (Monday) to 7 (Sunday)"],
      [["best crm", "--project", PROJECT, "--every", "month"], "--every takes day or week"],
      [["best crm", "--project", PROJECT, "--brand", "A", "--entities", "x.json"], "not both"],
      [["--project", PROJECT, "--file", fileWith("empty.txt", "# nothing\n")], "no prompts"],
      [["best crm"], "--project"],
    ] as const) {
      const result = await api.cli(["monitor", "create", ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(api.seen).toEqual([]);
    }
  });
});

describe("geoscope monitor list, get, ticks, run, pause, resume, delete", { timeout: 60_000 }, () => {
  it("sends what each command says and prints the answers for people", async () => {
    const tick = example(Tick);
    const skipped = example(Tick, 1);
    api.answer((method, url) => {
      if (method === "GET" && url.pathname.endsWith("/monitors")) return { status: 200, body: example(MonitorList) };
      if (method === "GET" && url.pathname.endsWith("/ticks")) return { status: 200, body: example(TickList) };
      if (method === "GET") return { status: 200, body: monitor };
      if (method === "POST" && url.pathname.endsWith("/run")) return { status: 202, body: skipped };
      if (method === "PATCH") return { status: 200, body: { ...monitor, status: JSON.parse(api.seen.at(-1)!.body).status } };
      if (method === "DELETE") return { status: 204 };
      return { status: 404, body: {} };
    });
    const id = monitor.id;

    let r = await api.cli(["monitor", "list", "--project", PROJECT]);
    expect(api.seen[0]!.url).toBe(`/api/v1/monitors?project=${PROJECT}`);
    expect(r.stdout).toMatch(/ID\s+STATUS\s+VERSION\s+SCHEDULE\s+NEXT_RUN\s+LAST_TICK\s+NAME/);
    expect(r.stdout).toContain("every day at 06:00 UTC");

    r = await api.cli(["monitor", "get", id]);
    expect(r.stdout).toContain("2 prompts × chatgpt, claude, gemini × 3 runs = 18 executions per tick · US");
    expect(r.stdout).toContain("spent this month $0.39 of a $25.00 budget");
    expect(r.stdout).toContain("1. best crm for a small agency");

    r = await api.cli(["monitor", "ticks", id, "--limit", "5"]);
    expect(api.seen[0]!.url).toBe(`/api/v1/monitors/${id}/ticks?limit=5`);
    expect(r.stdout).toContain("skipped (budget_exhausted)");
    expect(r.stdout).toContain(tick.fanout_id!);

    r = await api.cli(["monitor", "run", id]);
    expect([api.seen[0]!.method, api.seen[0]!.url]).toEqual(["POST", `/api/v1/monitors/${id}/run`]);
    expect(r.stdout).toContain(`tick ${skipped.id} (schedule, version 1): skipped (budget_exhausted)`);

    r = await api.cli(["monitor", "pause", id]);
    expect([api.seen[0]!.method, JSON.parse(api.seen[0]!.body)]).toEqual(["PATCH", { status: "paused" }]);
    expect(r.stdout).toContain(`Paused ${id}`);
    r = await api.cli(["monitor", "resume", id]);
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ status: "active" });
    expect(r.stdout).toContain(`Resumed ${id}`);

    r = await api.cli(["monitor", "delete", id]);
    expect([api.seen[0]!.method, r.code]).toEqual(["DELETE", 0]);
    expect(r.stdout).toContain(`Deleted ${id}`);
  });
});

describe("geoscope monitor update, what a monitor measures", { timeout: 60_000 }, () => {
  it("sends the prompts, engines, runs, market and entities given, each whole, and says a new series started", async () => {
    // The stand-in: the monitor as it is (version 1), then as PATCH makes it (version 2).
    api.answer((method) => (method === "GET" ? { status: 200, body: monitor } : method === "PATCH" ? { status: 200, body: { ...monitor, version: monitor.version + 1 } } : { status: 404, body: {} }));
    const id = monitor.id;
    const file = fileWith("prompts.txt", "# this quarter's\nbest crm for agencies\ncrm with email tracking\n");
    const r = await api.cli([
      "monitor", "update", id, "--file", file, "--engines", "chatgpt,chatgpt_app", "--runs", "2", "--country", "none", "--language", "de",
      "--brand", "Acme", "--competitor", "HubSpot",
    ]);
    expect(r.code, r.stderr).toBe(0);
    // The version is read first, to say what the change did.
    expect(api.seen.map((s) => [s.method, s.url])).toEqual([["GET", `/api/v1/monitors/${id}`], ["PATCH", `/api/v1/monitors/${id}`]]);
    expect(JSON.parse(api.seen[1]!.body)).toEqual({
      prompts: [{ text: "best crm for agencies" }, { text: "crm with email tracking" }],
      engines: ["chatgpt", "chatgpt_app"],
      runs: 2,
      location: null,
      language: "de",
      entities: [{ name: "Acme", role: "brand" }, { name: "HubSpot", role: "competitor" }],
    });
    expect(r.stderr).toContain(
      `What it measures changed: version ${monitor.version + 1}, a new series from the next tick. Version ${monitor.version}'s stays readable: geoscope monitor series ${id} --version ${monitor.version}`,
    );
    expect(r.stdout).toContain(`version ${monitor.version + 1}`);
  });

  it("says the series goes on when what was given is what it measured; none clears the language and country", async () => {
    api.answer((method) => (method === "GET" || method === "PATCH" ? { status: 200, body: monitor } : { status: 404, body: {} }));
    const r = await api.cli(["monitor", "update", monitor.id, "--prompt", "best crm for a small agency", "--language", "none", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(api.seen[1]!.body)).toEqual({ prompts: [{ text: "best crm for a small agency" }], language: null });
    expect(r.stderr).toContain(`What it measures is as it was: still version ${monitor.version}, its series goes on.`);
    // --json prints the API's body alone.
    expect(JSON.parse(r.stdout)).toEqual(monitor);
  });

  it("keeps the question and market of a prompt given again as it was, occurrence by occurrence", async () => {
    const source = { kind: "question", analysis_id: "fa_01JD4M9RZ6XQ7W8V5T3S2R1P0N", question_id: "q3" };
    const twice = {
      ...monitor,
      prompts: [
        { text: "best crm", source, location: { country: "DE" }, language: "de" },
        { text: "best crm", source: null, location: { country: "US" }, language: null },
      ],
    };
    api.answer((method) => (method === "GET" || method === "PATCH" ? { status: 200, body: twice } : { status: 404, body: {} }));
    const r = await api.cli(["monitor", "update", monitor.id, "--prompt", "best crm", "--prompt", "crm for agencies", "--prompt", "best crm"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(api.seen[1]!.body).prompts).toEqual([
      { text: "best crm", source, location: { country: "DE" }, language: "de" },
      { text: "crm for agencies" },
      { text: "best crm", location: { country: "US" } },
    ]);
  });

  it("reads the prompts of --file - from standard input, once", async () => {
    api.answer((method) => (method === "GET" || method === "PATCH" ? { status: 200, body: monitor } : { status: 404, body: {} }));
    const r = await api.cli(["monitor", "update", monitor.id, "--file", "-"], "best crm for agencies\n# skipped\ncrm with email tracking\n");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(api.seen[1]!.body)).toEqual({ prompts: [{ text: "best crm for agencies" }, { text: "crm with email tracking" }] });
  });

  it("counts one prompt, run and execution in the singular", async () => {
    const one = { ...monitor, prompts: monitor.prompts.slice(0, 1), engines: ["chatgpt"], runs: 1, location: null };
    api.answer((method) => (method === "GET" ? { status: 200, body: one } : { status: 404, body: {} }));
    const r = await api.cli(["monitor", "get", monitor.id]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("\n1 prompt × chatgpt × 1 run = 1 execution per tick\n");
  });

  it("refuses prompts given two ways, or a city without a country, before sending anything", async () => {
    api.answer(() => ({ status: 500, body: {} }));
    for (const [args, says] of [
      [["--prompt", "a", "--file", fileWith("p.txt", "b\n")], "give the prompts with --prompt or --file, not both"],
      [["--country", "none", "--city", "Berlin"], "--country none takes no --city or --location"],
      [["--file", fileWith("empty.txt", "# nothing\n")], "holds no prompt"],
    ] as const) {
      const r = await api.cli(["monitor", "update", monitor.id, ...args]);
      expect([r.code, r.stdout], args.join(" ")).toEqual([2, ""]);
      expect(r.stderr).toContain(says);
      expect(api.seen).toEqual([]);
    }
  });
});
