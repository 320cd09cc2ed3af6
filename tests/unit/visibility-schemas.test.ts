// The visibility schemas (lib/schemas/visibility.ts): what a request may say, in words a user can
// act on, and that what the computation produces is what the response schemas describe.
import { describe, expect, it } from "vitest";
import { Mention, MentionPage, MentionsQuery, VisibilityAnalysis, VisibilityAnalysisRequest } from "@/lib/schemas/visibility";
import { computeVisibilityAnalysis } from "@/lib/visibility";

const messages = (body: unknown) => {
  const r = VisibilityAnalysisRequest.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("VisibilityAnalysisRequest", () => {
  it("takes its example and entities with only a name and a role", () => {
    const example = (VisibilityAnalysisRequest.meta()!.examples as unknown[])[0];
    expect(VisibilityAnalysisRequest.safeParse(example).success).toBe(true);
    const parsed = VisibilityAnalysisRequest.parse({ ids: ["dr_01M7W4N5HZGWT0SFG9MVH8BXJ1"], entities: [{ name: "  Acme  ", role: "brand" }] });
    expect(parsed.entities![0]!.name).toBe("Acme");
    expect(VisibilityAnalysisRequest.parse({ ids: ["rq_01M7W4N5HXERYES03KX8C5YJ5R"] }).use_project_context).toBeUndefined();
  });

  it("names the field and the rule of every bad input", () => {
    expect(messages({ ids: [] })).toEqual(["ids: must have at least 1 id"]);
    expect(messages({ ids: Array.from({ length: 1001 }, () => "dr_x") })).toEqual(["ids: must have at most 1000 ids"]);
    expect(messages({ ids: ["dr_x"], entities: [] })).toEqual(["entities: must have at least 1 entity when given"]);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "   ", role: "brand" }] })).toEqual(["entities.0.name: must be 1 to 100 characters after trimming spaces"]);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "Acme", role: "partner" }] })[0]).toMatch(/^entities\.0\.role: /);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "Acme", role: "brand", aliases: Array.from({ length: 21 }, (_, i) => `a${i}`) }] })).toEqual(["entities.0.aliases: must have at most 20 aliases"]);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "Acme", role: "brand", domains: ["not a domain"] }] })[0]).toMatch(/^entities\.0\.domains\.0: must be a domain name/);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "Acme", role: "brand", colour: "red" }] })[0]).toMatch(/colour/);
    expect(messages({ ids: ["dr_x"], entities: [{ name: "Acme", role: "brand" }, { name: "ACME ", role: "competitor" }] })).toEqual(["entities.1.name: repeats entities[0].name"]);
    expect(messages({ ids: ["dr_x"], use_project_context: false })).toEqual(["entities: must be given when use_project_context is false"]);
    expect(messages({ ids: ["dr_x"], entities: Array.from({ length: 51 }, (_, i) => ({ name: `E${i}`, role: "competitor" })) })).toEqual(["entities: must have at most 50 entities"]);
  });
});

describe("response schemas", () => {
  const figures = computeVisibilityAnalysis(
    [
      { run_id: "dr_01M7W4N5HZGWT0SFG9MVH8BXJ1", engine: "chatgpt", country: "US", prompt: "best crm", status: "completed", kind: "prompt", answer: "1. Acme leads.\n2. HubSpot follows.", search_queries: [], cited_urls: ["https://acme.example/a"] },
      { run_id: "dr_01M7W4N5J0ABHVH2C49R0R6QV7", engine: "claude", country: null, prompt: "best crm", status: "completed", kind: "prompt", answer: "", search_queries: [], cited_urls: [] },
    ],
    { entities: [{ name: "Acme", role: "brand", aliases: [], domains: ["acme.example"], case_sensitive: false }, { name: "HubSpot", role: "competitor", aliases: [], domains: [], case_sensitive: false }] },
  );

  it("describe what the computation produces", () => {
    const { mentions, ...rest } = figures;
    const analysis = {
      id: "va_01M8A2Q6W1S2ZD2R6X3V4B5N7M",
      kind: "visibility",
      status: "completed",
      subject: "best crm",
      summary: [],
      run_count: rest.run_ids.length,
      created_at: "2026-11-26T09:30:00.000Z",
      completed_at: "2026-11-26T09:30:00.000Z",
      project_id: "pr_01M6GDXDT8KGYAFXTZVXZHNXKE",
      created_by: "alice@acme.example",
      error: null,
      charge: null,
      ...rest,
      // Not judged (decisions.md "Judged visibility").
      rows: rest.rows.map((row) => ({ ...row, sentiment: null })),
      judge: null,
      discovered: null,
      agreement: null,
    };
    const parsed = VisibilityAnalysis.safeParse(analysis);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(parsed.data!.excluded_runs).toEqual([{ run_id: "dr_01M7W4N5J0ABHVH2C49R0R6QV7", reason: "no_answer" }]);
    for (const m of mentions) expect(Mention.safeParse(m).success).toBe(true);
    expect(MentionPage.safeParse({ items: mentions, next_cursor: null }).success).toBe(true);
  });

  it("reads the mentions query's filters", () => {
    expect(MentionsQuery.parse({ counted: "false", format: "csv" })).toEqual({ counted: "false", format: "csv", limit: 50 });
    expect(MentionsQuery.safeParse({ counted: "yes" }).success).toBe(false);
  });
});
