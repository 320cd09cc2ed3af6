// `geoscope opportunities` (the real CLI against a stand-in API): the body it sends, the tables
// led by the summary, --json as sent, --format csv a section at a time, and options refused
// before any request.
import { describe, expect, it } from "vitest";
import { exampleOpportunityAnalysis } from "@/lib/schemas/opportunities";
import { exampleRateCard, exampleRun } from "@/lib/schemas/examples";
import { standInApi } from "./stand-in";

const api = standInApi();
const VA = "va_01JD4M9RZ6XQ7W8V5T3S2R1P0N";
const example = structuredClone(exampleOpportunityAnalysis);

describe("geoscope opportunities", { timeout: 60_000 }, () => {
  it("posts the analysis and brand and prints the summary, then each section with its n", async () => {
    api.answer(() => ({ status: 201, body: example }));
    const human = await api.cli(["opportunities", VA, "--brand", "HubSpot"]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/opportunity-analyses"]);
    expect(JSON.parse(api.seen[0]!.body!)).toEqual({ analysis: VA, brand: "HubSpot" });
    const lines = human.stdout.split("\n");
    expect(lines.slice(0, example.summary.length)).toEqual(example.summary);
    expect(example.summary[0]).toBe("Competitors are named more often than HubSpot, beyond what chance explains, on 1 of 3 prompts (4 answers).");
    expect(human.stdout).toMatch(/best crm for small sales teams\s+Pipedrive\s+4 of 4 \(100%, 51–100%\)\s+0 of 4 \(0%, 0–49%\)\s+\+100 points\s+\+30 to \+100 points/);
    expect(human.stdout).toMatch(/https:\/\/www\.g2\.com\/categories\/crm\s+3 of 4\s+Pipedrive \(3\)/);
    expect(human.stdout).toMatch(/https:\/\/blog\.hubspot\.com\/sales\/crm\s+3 of 12\s+1 of 3\s+Claude \(API\) 2, ChatGPT \(API\) 1/);
    expect(human.stdout).toMatch(/best crm small sales team\s+ChatGPT \(API\)\s+2 of 2/);
  });

  it("counts one prompt and one answer in the singular", async () => {
    api.answer(() => ({ status: 201, body: { ...example, totals: { ...example.totals, runs: 1, prompts: 1, lost_prompts: 1 } } }));
    const human = await api.cli(["opportunities", VA]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`for HubSpot (from ${example.analysis_id}): 1 answer, 1 of 1 prompt lost ·`);
  });

  it("--json prints the body as sent; --format csv --section one section, figures as the pages write them", async () => {
    api.answer(() => ({ status: 201, body: example }));
    const json = await api.cli(["opportunities", VA, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(example);
    const csv = await api.cli(["opportunities", VA, "--format", "csv", "--section", "citation_targets"]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split("\r\n")).toEqual([
      "rank,url,domain,owner,runs_citing,n,competitors,run_ids",
      "1,https://www.g2.com/categories/crm,g2.com,,3,4,Pipedrive (3),dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A dr_01JD4M9RZ6XQ7W8V5T3S2R1P0B dr_01JD4M9RZ6XQ7W8V5T3S2R1P0C",
      "",
    ]);
    const lost = await api.cli(["opportunities", VA, "--format", "csv", "--section", "lost_prompts"]);
    expect(lost.stdout.split("\r\n")[1]).toBe(
      "1,best crm for small sales teams,4,Pipedrive,4,100%,51%,100%,HubSpot,0,0%,0%,49%,100%,30%,100%,Pipedrive is the easiest pipeline tool for small sales teams.,dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A dr_01JD4M9RZ6XQ7W8V5T3S2R1P0B dr_01JD4M9RZ6XQ7W8V5T3S2R1P0C dr_01JD4M9RZ6XQ7W8V5T3S2R1P0D",
    );
  });

  it("reads a stored list with `opportunities get`", async () => {
    api.answer(() => ({ status: 200, body: example }));
    const got = await api.cli(["opportunities", "get", example.id, "--json"]);
    expect(got.code, got.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/analyses/${example.id}`]);
    expect(JSON.parse(got.stdout)).toEqual(example);
  });

  it("refuses --format without --section, an unknown section or format, and --format with --json, before any request", async () => {
    api.answer(() => ({ status: 201, body: example }));
    for (const args of [["--format", "csv"], ["--format", "csv", "--section", "pages"], ["--format", "xlsx", "--section", "own_pages"], ["--section", "own_pages"], ["--format", "csv", "--section", "own_pages", "--json"]]) {
      const result = await api.cli(["opportunities", VA, ...args]);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
    expect(api.seen).toEqual([]);
  });

  it("--audit URL: says the price first, then starts a page audit of each page named in the list's project; refuses a page not in the list before asking", async () => {
    const page = example.own_pages[0]!.url;
    const run = { ...exampleRun, id: "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0Z", kind: "audit", status: "queued", input: { url: page }, engine: null, model: null, batch_id: null, result: null, usage: null, completed_at: null };
    api.answer((method, url) =>
      method === "POST" ? { status: 202, body: run } : url.pathname.endsWith("/pricing") ? { status: 200, body: exampleRateCard } : { status: 200, body: example },
    );
    const result = await api.cli(["opportunities", "get", example.id, "--audit", page]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/analyses/${example.id}`, "GET /api/v1/pricing", "POST /api/v1/audits"]);
    expect(JSON.parse(api.seen[2]!.body)).toEqual({ url: page, project: example.project_id });
    expect(result.stderr).toContain("auditing 1 page at $0.01 each: $0.01 held from your credit");
    expect(result.stderr).toContain(`started: ${run.id}`);
    const refused = await api.cli(["opportunities", "get", example.id, "--audit", "https://elsewhere.example/"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--audit https://elsewhere.example/: not a page of ${example.id}`);
    expect(api.seen.map((s) => s.method)).toEqual(["GET"]);
  });
});
