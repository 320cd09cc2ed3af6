// Questions analyses in the CLI: the formatter (clusters and their questions, a failed and an
// unfinished analysis), to-fanout's selection of questions, and the real CLI (cli/geoscope.mjs)
// against a stand-in API: --wait [SECONDS], the exit code of a failed analysis, the fanout body
// to-fanout sends, and the ids refused before anything is asked.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { UsageError } from "@/cli/command";
import { clustered, fanoutRequestOf, formatQuestionsAnalysis, selectQuestions } from "@/cli/commands/questions";
import { exampleFanoutEstimate, exampleQuestionsAnalysis } from "@/lib/schemas/examples";
import { QuestionsAnalysis } from "@/lib/schemas/questions";
import { fewerQuestions } from "@/lib/words/questions";
import { standInApi } from "./stand-in";

type Analysis = z.output<typeof QuestionsAnalysis>;

const ID = "fa_01M7XB2Q4K8Z3V6T9R1N5P7C2D";
const PROJECT = "pr_01M86BZ1B8TDMNZ120417K12ZN";

/** The schema's example, with four questions in two clusters given out of order. */
function analysis(changes: Partial<Analysis> = {}): Analysis {
  const base = QuestionsAnalysis.parse(exampleQuestionsAnalysis);
  return QuestionsAnalysis.parse({
    ...base,
    id: ID,
    project_id: PROJECT,
    requested_count: 5,
    questions: [
      { id: "q1", text: "What is the best CRM for a 10-person B2B startup?", cluster_id: "c1", intent: "commercial", specificity: "specific" },
      { id: "q2", text: "HubSpot vs Pipedrive: which is easier for a small sales team?", cluster_id: "c2", intent: "comparison", specificity: null },
      { id: "q3", text: "How much does a CRM cost per user for a small team?", cluster_id: "c1", intent: "commercial", specificity: "broad" },
      { id: "q10", text: "Is Salesforce overkill for a team of five?", cluster_id: "c2", intent: "comparison", specificity: "long_tail" },
    ],
    clusters: [
      { id: "c1", name: "Choosing a CRM", intent: "commercial", question_ids: ["q3", "q1"] },
      { id: "c2", name: "Comparisons", intent: "comparison", question_ids: ["q2", "q10"] },
    ],
    ...changes,
  });
}

describe("formatQuestionsAnalysis", () => {
  it("prints the header, then each cluster with its questions in the cluster's order, ids aligned", () => {
    const text = formatQuestionsAnalysis(analysis());
    expect(text).toBe(
      [
        `questions analysis ${ID}: completed · CRM software for small B2B teams`,
        "4 of 5 questions in 2 clusters · chatgpt (gpt-5.4-2026-10-01) · captured $0.006",
        // Fewer than asked for: why, and what is paid.
        "The engine's answer held 4 different questions, not 5 (a question written twice",
        "counts once); only those 4 are paid for.",
        "",
        "c1 Choosing a CRM (commercial, 2)",
        "  q3   How much does a CRM cost per user for a small team?  [broad]",
        "  q1   What is the best CRM for a 10-person B2B startup?  [specific]",
        "",
        "c2 Comparisons (comparison, 2)",
        "  q2   HubSpot vs Pipedrive: which is easier for a small sales team?",
        "  q10  Is Salesforce overkill for a team of five?  [long_tail]",
      ].join("\n"),
    );
  });

  it("says why only when fewer came back than were asked for, and what is paid only when charged", () => {
    expect(formatQuestionsAnalysis(analysis({ requested_count: 4 })).split("\n")[2]).toBe("");
    const shared = analysis({ charge: null });
    expect(fewerQuestions(shared, false)).toBe("The engine's answer held 4 different questions, not 5 (a question written twice counts once).");
    expect(formatQuestionsAnalysis(shared)).toContain("\nThe engine's answer held 4 different questions, not 5 (a question written twice\ncounts once).\n\n");
    expect(fewerQuestions(analysis({ status: "running", questions: [], clusters: [] }), true)).toBeNull();
    expect(fewerQuestions(analysis({ questions: analysis().questions.slice(0, 1) }), true)).toMatch(/held 1 different question, not 5 .*; only that one is paid for\.$/);
  });

  it("wraps long questions at 80 columns under their text", () => {
    const long = "Which CRM integrates with Gmail, Outlook, Slack, QuickBooks and Zapier without a paid add-on for each of them?";
    const a = analysis({ questions: [{ id: "q1", text: long, cluster_id: "c1", intent: "commercial", specificity: "long_tail" }], clusters: [{ id: "c1", name: "Integrations", intent: "commercial", question_ids: ["q1"] }] });
    const lines = formatQuestionsAnalysis(a).split("\n");
    for (const line of lines.slice(2)) expect(line.length, line).toBeLessThanOrEqual(80);
    const at = lines.indexOf("c1 Integrations (commercial, 1)");
    expect(lines[at + 1]).toMatch(/^ {2}q1 {2}Which CRM/);
    expect(lines[at + 2]).toMatch(/^ {6}\S/);
    expect(lines.at(-1)).toMatch(/\[long_tail\]$/);
  });

  it("lists questions no cluster names last, and says when a completed analysis has none", () => {
    const a = analysis({ clusters: [{ id: "c1", name: "Choosing a CRM", intent: "commercial", question_ids: ["q1"] }] });
    const groups = clustered(a);
    expect(groups.map((g) => [g.cluster?.id ?? null, g.questions.map((q) => q.id)])).toEqual([["c1", ["q1"]], [null, ["q2", "q3", "q10"]]]);
    expect(formatQuestionsAnalysis(a)).toContain("\n(no cluster, 3)\n  q2 ");
    expect(formatQuestionsAnalysis(analysis({ questions: [], clusters: [] }))).toMatch(/0 of 5 questions in 0 clusters.*\nThe engine's answer held no usable question; nothing is paid for\.\n\n\(no questions\)$/);
  });

  it("prints a failed analysis's error code and message, and no clusters", () => {
    const text = formatQuestionsAnalysis(
      analysis({
        status: "failed", questions: [], clusters: [], provenance: null,
        error: { code: "engine_malformed_response", message: "The engine's reply did not have the requested structure.", engine: "chatgpt", retryable: false },
        charge: { status: "released", amount_usd: "0.00", unit: "question", units: 0, unit_price_usd: "0.002", pricing_version: "2026-11-01" },
      }),
    );
    expect(text).toBe(
      [
        `questions analysis ${ID}: failed · CRM software for small B2B teams`,
        "5 questions requested · charge released",
        "error: engine_malformed_response: The engine's reply did not have the requested structure.",
      ].join("\n"),
    );
  });

  it("says a queued or running analysis is not generated yet, and how to wait for it", () => {
    for (const status of ["queued", "running"] as const) {
      const text = formatQuestionsAnalysis(analysis({ status, questions: [], clusters: [], provenance: null, charge: null, completed_at: null }));
      expect(text).toBe(
        [`questions analysis ${ID}: ${status} · CRM software for small B2B teams`, "5 questions requested", `Not generated yet. Wait for it with: geoscope questions get ${ID} --wait`].join("\n"),
      );
    }
  });
});

describe("selectQuestions", () => {
  const a = analysis();
  const ids = (clusters: string[], questions: string[]) => selectQuestions(a, clusters, questions).map((q) => q.id);

  it("takes every question when no cluster or question is named", () => {
    expect(ids([], [])).toEqual(["q1", "q2", "q3", "q10"]);
  });

  it("takes the named clusters' and questions' questions once each, in the analysis's order", () => {
    expect(ids(["c1"], [])).toEqual(["q1", "q3"]);
    expect(ids([], ["q10", "q2"])).toEqual(["q2", "q10"]);
    expect(ids(["c1"], ["q3", "q10"])).toEqual(["q1", "q3", "q10"]);
    expect(ids(["c1", "c2"], [])).toEqual(["q1", "q2", "q3", "q10"]);
  });

  it("refuses an unknown cluster or question, naming it and the valid ones", () => {
    expect(() => ids(["c9"], [])).toThrow(UsageError);
    expect(() => ids(["c9"], [])).toThrow(`${ID} has no cluster c9; its clusters: c1 (Choosing a CRM), c2 (Comparisons)`);
    expect(() => ids(["c1"], ["q4"])).toThrow(`${ID} has no question q4; its questions: q1, q2, q3, q10`);
  });

  it("makes fanout prompts that name their question, in the analysis's project, named after the topic", () => {
    const body = fanoutRequestOf(a, selectQuestions(a, ["c2"], []), { runs: 2 });
    expect(body).toEqual({
      prompts: [
        { text: "HubSpot vs Pipedrive: which is easier for a small sales team?", source: { kind: "question", analysis_id: ID, question_id: "q2" } },
        { text: "Is Salesforce overkill for a team of five?", source: { kind: "question", analysis_id: ID, question_id: "q10" } },
      ],
      project: PROJECT,
      name: "CRM software for small B2B teams",
      runs: 2,
    });
    expect(fanoutRequestOf(a, a.questions, { name: "mine" }).name).toBe("mine");
  });
});

// ---------- the real CLI against a stand-in API ----------

const api = standInApi();
const { seen, cli } = api;

const queued = () => analysis({ status: "queued", questions: [], clusters: [], provenance: null, completed_at: null });

describe("geoscope questions", () => {
  it("without --wait: POST /questions, the queued analysis and how to wait for it", async () => {
    api.answer(() => ({ status: 202, body: queued() }));
    const result = await cli(["questions", "crm for small teams", "--project", PROJECT, "--count", "12"]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/questions"]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ topic: "crm for small teams", project: PROJECT, count: 12 });
    expect(result.stdout).toContain(`geoscope questions get ${ID} --wait`);
  });

  it("--wait asks again with ?wait=30 until it has finished; --json prints the last body", async () => {
    const answers = [analysis({ status: "running", questions: [], clusters: [], provenance: null }), analysis()];
    api.answer((method) => (method === "POST" ? { status: 202, body: queued() } : { status: 200, body: answers.shift() }));
    const result = await cli(["questions", "crm", "--project", PROJECT, "--wait", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/questions", `GET /api/v1/analyses/${ID}?wait=30`, `GET /api/v1/analyses/${ID}?wait=30`]);
    expect(result.stderr).toBe([`questions analysis ${ID}: queued`, `questions analysis ${ID}: running`, `questions analysis ${ID}: completed`, ""].join("\n"));
    expect(JSON.parse(result.stdout)).toEqual(analysis());
  });

  it("--wait SECONDS waits no longer than that, then prints it unfinished", async () => {
    api.answer((method) => (method === "POST" ? { status: 202, body: queued() } : { status: 200, body: queued() }));
    const result = await cli(["questions", "crm", "--wait", "2", "--project", PROJECT]);
    expect(result.code, result.stderr).toBe(0);
    const asked = seen.filter((s) => s.method === "GET").map((s) => s.url);
    expect(asked[0]).toBe(`/api/v1/analyses/${ID}?wait=2`);
    for (const url of asked) expect(url).toMatch(/\?wait=[12]$/);
    expect(result.stdout).toContain("Not generated yet");
  });

  it("a failed analysis exits 1, with its error", async () => {
    const failed = analysis({ status: "failed", questions: [], clusters: [], provenance: null, error: { code: "engine_error", message: "The engine failed.", engine: "chatgpt", retryable: true } });
    api.answer(() => ({ status: 200, body: failed }));
    const result = await cli(["questions", "get", ID]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error: engine_error: The engine failed.");
    expect((await cli(["analysis", "get", ID, "--json"])).code).toBe(1);
  });

  it("analysis get prints a questions analysis with the same formatter; analyses list is analysis list", async () => {
    api.answer(() => ({ status: 200, body: analysis() }));
    const result = await cli(["analysis", "get", ID]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${formatQuestionsAnalysis(analysis())}\n`);
    api.answer(() => ({ status: 200, body: { items: [], next_cursor: null } }));
    const listed = await cli(["analyses", "list", "--kind", "questions"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(["/api/v1/analyses?kind=questions"]);
  });

  it("refuses a citation analysis's id before asking", async () => {
    for (const command of ["get", "to-fanout"]) {
      const result = await cli(["questions", command, "ca_01M86BZ1B8TDMNZ120417K12ZN"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("is a citation analysis: see it with geoscope analysis get ca_01M86BZ1B8TDMNZ120417K12ZN");
      expect(seen).toEqual([]);
    }
  });
});

describe("geoscope questions to-fanout", () => {
  it("--estimate sends the chosen questions with their source to POST /fanouts/estimate", async () => {
    api.answer((method) => (method === "GET" ? { status: 200, body: analysis() } : { status: 200, body: exampleFanoutEstimate }));
    const result = await cli(["questions", "to-fanout", ID, "--cluster", "c1", "--question", "q10", "--engines", "chatgpt,claude", "--runs", "2", "--estimate"]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/analyses/${ID}`, "POST /api/v1/fanouts/estimate"]);
    const body = JSON.parse(seen[1]!.body);
    expect(body.prompts.map((p: { source: { question_id: string } }) => p.source.question_id)).toEqual(["q1", "q3", "q10"]);
    expect(body).toMatchObject({ project: PROJECT, engines: ["chatgpt", "claude"], runs: 2 });
    // The prompts sent come first, numbered, then the estimate (the stand-in's, of one prompt).
    expect(result.stdout).toMatch(/^prompts \(3\):\n1\. .+\n2\. .+\n3\. .+\n\n1 prompt × 2 engines \(chatgpt, claude\) × 2 runs = 4 executions\n/);
  });

  it("refuses an unknown cluster, listing the valid ones, and sends nothing", async () => {
    api.answer(() => ({ status: 200, body: analysis() }));
    const result = await cli(["questions", "to-fanout", ID, "--cluster", "c7"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("has no cluster c7; its clusters: c1 (Choosing a CRM), c2 (Comparisons)");
    expect(seen.map((s) => s.method)).toEqual(["GET"]);
  });

  it("refuses an analysis that has not completed", async () => {
    api.answer(() => ({ status: 200, body: queued() }));
    const result = await cli(["questions", "to-fanout", ID]);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`${ID} is queued: it has no questions yet`);
    expect(seen.map((s) => s.method)).toEqual(["GET"]);
  });
});
