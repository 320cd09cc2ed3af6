// The real CLI (cli/geoscope.mjs) against a stand-in API (issue #32): `fanout --file` reads its
// file as `audit --file` does (blank lines and # comments skipped, one parser), the estimate lists
// the prompts it was made for, numbered; an unknown `--table` is named; and engines come in one
// order (the registry's) in every human output, whatever order an answer lists them in.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exampleBatch, exampleCitationAnalysis, exampleFanout, exampleFanoutEstimate, exampleFanoutQueryReport, exampleRun, exampleRunningRun } from "@/lib/schemas/examples";
import { standInApi } from "./stand-in";

const PROJECT = "pr_01M86BZ1B8TDMNZ120417K12ZN";
const api = standInApi();

const FILE = `# prompts for the CRM study
best crm for a small team

  # a comment after spaces
hubspot vs pipedrive
   crm with email tracking   
#crm for dentists
`;
const PARSED = ["best crm for a small team", "hubspot vs pipedrive", "crm with email tracking"];

function fileWith(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-cli-file-")), "prompts.txt");
  writeFileSync(file, text);
  return file;
}

/** The estimate of the three parsed prompts, its engines and lines listed gemini first. */
const estimate = {
  ...exampleFanoutEstimate,
  prompts: 3,
  engines: ["gemini", "chatgpt"],
  runs: 1,
  executions: 6,
  lines: [
    { engine: "gemini", executions: 3, unit_price_usd: "0.015", amount_usd: "0.045" },
    { engine: "chatgpt", executions: 3, unit_price_usd: "0.02", amount_usd: "0.06" },
  ],
  total_usd: "0.105",
};

describe("fanout --file", { timeout: 30_000 }, () => {
  it("skips blank lines and # comments as audit --file does, and the estimate lists the prompts it parsed, numbered", async () => {
    const file = fileWith(FILE);
    api.answer((method, url) => (method === "POST" && url.pathname.endsWith("/fanouts/estimate") ? { status: 200, body: estimate } : { status: 404, body: {} }));
    const result = await api.cli(["fanout", "estimate", "--file", file, "--project", PROJECT, "--runs", "1", "--engines", "gemini,chatgpt"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(api.seen[0]!.body).prompts).toEqual(PARSED.map((text) => ({ text })));
    expect(result.stdout).toContain(["prompts (3):", "1. best crm for a small team", "2. hubspot vs pipedrive", "3. crm with email tracking"].join("\n"));
    expect(result.stdout).not.toContain("#");

    // audit --file reads a file of the same shape into the same items (one parser for both).
    api.answer(() => ({ status: 202, body: { ...exampleRunningRun, kind: "audit", engine: null, input: { url: "https://example.com/" } } }));
    const urls = FILE.replace(/^(\s*)([a-z][^#\n]*?)(\s*)$/gm, (_all, before: string, text: string, after: string) => `${before}https://example.com/${text.replaceAll(" ", "-")}${after}`);
    await api.cli(["audit", "--file", fileWith(urls), "--project", PROJECT]);
    expect(api.seen.map((r) => JSON.parse(r.body).url)).toEqual(PARSED.map((text) => `https://example.com/${text.replaceAll(" ", "-")}`));
  });

  it("creates a fanout of the parsed prompts only", async () => {
    api.answer((method, url) => (method === "POST" && url.pathname.endsWith("/fanouts") ? { status: 202, body: exampleFanout } : { status: 404, body: {} }));
    const result = await api.cli(["fanout", "create", "--file", fileWith(FILE), "--project", PROJECT]);
    expect(result.code).toBe(0);
    expect(JSON.parse(api.seen[0]!.body).prompts).toEqual(PARSED.map((text) => ({ text })));
  });

  it("follows a fanout of one run in the singular", async () => {
    const one = { ...exampleFanout, status: "completed", execution_count: 1, query_count: 1, counts: { ...exampleFanout.counts, queued: 0, running: 0, completed: 1, failed: 0 } };
    api.answer((method, url) => (method === "POST" && url.pathname.endsWith("/fanouts") ? { status: 202, body: one } : { status: 404, body: {} }));
    const result = await api.cli(["fanout", "create", "--file", fileWith("best crm\n"), "--project", PROJECT, "--wait"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`fanout ${one.id}: completed, 1/1 run finished, 1 query so far`);
    expect(result.stdout).toContain("0 unfinished · 1 query");
  });

  it("refuses a file of nothing but comments, sending nothing", async () => {
    const result = await api.cli(["fanout", "estimate", "--file", fileWith("# only a comment\n\n"), "--project", PROJECT]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no prompts");
    expect(api.seen).toEqual([]);
  });
});

describe("citations --table", { timeout: 30_000 }, () => {
  it("names an unknown table and lists the valid ones, sending nothing", async () => {
    const result = await api.cli(["citations", "rq_01M86BZ1B8TDMNZ120417K12ZN", "--format", "csv", "--table", "bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown table "bogus": --table takes domains, pages, coverage, mentions');
    expect(result.stderr).not.toContain("needs --table");
    expect(api.seen).toEqual([]);
  });
});

describe("engine order", { timeout: 60_000 }, () => {
  /** The engines named in `text`, in the order they first appear. */
  const order = (text: string) => [...text.matchAll(/\b(chatgpt|claude|gemini)\b/g)].map((m) => m[1]).filter((e, i, all) => all.indexOf(e) === i);

  it("the estimate names its engines and lines in the registry's order", async () => {
    api.answer(() => ({ status: 200, body: estimate }));
    const result = await api.cli(["fanout", "estimate", "best crm", "--project", PROJECT, "--engines", "gemini,chatgpt"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(chatgpt, gemini)");
    const table = result.stdout.split("\n").filter((line) => /^(chatgpt|gemini)\s/.test(line));
    expect(table.map((line) => line.split(/\s+/)[0])).toEqual(["chatgpt", "gemini"]);
  });

  it("a fanout, its queries and a prompt's batch list engines in the same order", async () => {
    const [chatgpt, claude] = exampleFanout.prompts[0]!.engines;
    const fanout = { ...exampleFanout, engines: ["claude", "chatgpt"], prompts: [{ ...exampleFanout.prompts[0]!, engines: [claude, chatgpt] }] };
    const report = { ...exampleFanoutQueryReport, groups: [...exampleFanoutQueryReport.groups].reverse() };
    const batch = {
      batch: { ...exampleBatch, status: "completed" },
      runs: [
        { ...exampleRunningRun, engine: "gemini", id: "dr_01M7W4N5HZGWT0SFG9MVH8BXJ1" },
        { ...exampleRun, engine: "chatgpt", id: "dr_01M7W4N5HZGWT0SFG9MVH8BXJ2" },
      ],
    };
    api.answer((_method, url) => {
      if (url.pathname.endsWith("/queries")) return { status: 200, body: report };
      if (url.pathname.includes("/fanouts/")) return { status: 200, body: fanout };
      if (url.pathname.includes("/batches/")) return { status: 200, body: batch };
      return { status: 404, body: {} };
    });
    const got = await api.cli(["fanout", "get", exampleFanout.id]);
    expect(got.code).toBe(0);
    expect(order(got.stdout)).toEqual(["chatgpt", "claude"]);
    const queries = await api.cli(["fanout", "queries", exampleFanout.id]);
    expect(order(queries.stdout)).toEqual(["chatgpt", "claude"]);
    const csv = await api.cli(["fanout", "queries", exampleFanout.id, "--format", "csv"]);
    expect(order(csv.stdout)).toEqual(["chatgpt", "claude"]);
    const batchOut = await api.cli(["batches", "get", exampleBatch.id]);
    expect(batchOut.code).toBe(0);
    expect(order(batchOut.stdout)).toEqual(["chatgpt", "gemini"]);
  });

  it("a citation analysis lists engines in the same order in its tables", async () => {
    const analysis = {
      ...exampleCitationAnalysis,
      engines: [...exampleCitationAnalysis.engines].reverse(),
      textual_mentions: exampleCitationAnalysis.textual_mentions.map((m) => ({ ...m, runs_mentioning_by_engine: Object.fromEntries(Object.entries(m.runs_mentioning_by_engine).reverse()) })),
    };
    api.answer(() => ({ status: 200, body: analysis }));
    const result = await api.cli(["analysis", "get", exampleCitationAnalysis.id]);
    expect(result.code).toBe(0);
    const engines = result.stdout.split("\n").filter((line) => /^(chatgpt|claude|gemini)\s/.test(line)).map((line) => line.split(/\s+/)[0]);
    expect(engines).toEqual([...engines].sort());
    expect(engines.length).toBeGreaterThan(1);
  });
});
