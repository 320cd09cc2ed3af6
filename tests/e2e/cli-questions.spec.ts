// `geoscope questions` end to end: the real CLI (cli/geoscope.mjs) against the built server and the
// simulated engines. Signed in by device login, it generates a questions analysis and waits for it
// (clusters and their questions; --json the stored body), estimates and creates a fanout of one
// cluster's questions, and reads the fanout's prompts back with their source.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";

const EMAIL = `cli-questions-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-cli-questions-"));

test.describe.configure({ mode: "serial" });

const cli = cliAs({ configDir: CONFIG_DIR });

async function cliJson<T>(args: string[]): Promise<T> {
  const result = await cli([...args, "--json"]);
  expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as T;
}

type Analysis = {
  id: string;
  status: string;
  requested_count: number;
  questions: { id: string; text: string; cluster_id: string }[];
  clusters: { id: string; name: string; intent: string; question_ids: string[] }[];
};

let project = "";
let analysis: Analysis;

test("login, then questions --wait prints clusters and their questions", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  project = (await cliJson<{ id: string }>(["projects", "create", "CLI questions"])).id;
  expect(project).toMatch(/^pr_/);

  const human = await cli(["questions", "crm for small teams", "--project", project, "--count", "12", "--wait"]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stderr).toMatch(/questions analysis fa_\w+: completed\n$/);
  const lines = human.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^questions analysis fa_\w+: completed · crm for small teams$/);
  expect(lines[1]).toMatch(/^11 of 12 questions in \d+ clusters · \w+ \(.+\)/);
  // Why 11 (the simulator, like a model, writes one twice), and what is paid.
  expect(`${lines[2]} ${lines[3]}`).toBe("The engine's answer held 11 different questions, not 12 (a question written twice counts once); only those 11 are paid for.");
  expect(human.stdout).toMatch(/\nc1 .+ \((informational|commercial|transactional|navigational|comparison), \d+\)\n {2}q\d+ +\S/);
  for (const line of lines.slice(2)) expect(line.length, line).toBeLessThanOrEqual(80);

  // The same analysis as stored: `questions get` and `analysis get` print it alike.
  const id = /questions analysis (fa_\w+)/.exec(lines[0]!)![1]!;
  const got = await cli(["questions", "get", id]);
  expect(got.code, got.stderr).toBe(0);
  expect(got.stdout).toBe(human.stdout);
  expect((await cli(["analysis", "get", id])).stdout).toBe(human.stdout);
  const listed = await cli(["analyses", "list", "--kind", "questions", "--project", project]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(id);
});

test("questions --wait --json is the stored body, with no more questions than asked for", async () => {
  test.setTimeout(120_000);
  const result = await cli(["questions", "crm for small teams", "--project", project, "--count", "12", "--wait", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  analysis = JSON.parse(result.stdout) as Analysis;
  expect(analysis).toMatchObject({ status: "completed", requested_count: 12 });
  expect(analysis.questions.length).toBeGreaterThan(0);
  expect(analysis.questions.length).toBeLessThanOrEqual(12);
  expect(analysis.clusters.map((c) => c.id)).toContain("c1");
  expect((await cli(["questions", "get", analysis.id, "--json"])).stdout).toBe(result.stdout);
});

test("questions to-fanout: an estimate of cluster c1, then the fanout, its prompts carrying their source", async () => {
  test.setTimeout(240_000);
  const c1 = analysis.clusters.find((c) => c.id === "c1")!;
  const estimate = await cliJson<{ prompts: number; engines: string[]; runs: number }>(["questions", "to-fanout", analysis.id, "--cluster", "c1", "--estimate", "--engines", "chatgpt", "--runs", "1"]);
  expect(estimate).toMatchObject({ prompts: c1.question_ids.length, engines: ["chatgpt"], runs: 1 });
  const human = await cli(["questions", "to-fanout", analysis.id, "--cluster", "c1", "--estimate", "--engines", "chatgpt", "--runs", "1"]);
  expect(human.code, human.stderr).toBe(0);
  // The prompts it was made for, numbered (each question's text), then the figures.
  const n = c1.question_ids.length;
  const texts = c1.question_ids.map((id) => analysis.questions.find((q) => q.id === id)!.text);
  expect(human.stdout.startsWith(`prompts (${n}):\n${texts.map((t, i) => `${String(i + 1).padStart(String(n).length)}. ${t}`).join("\n")}\n\n`)).toBe(true);
  expect(human.stdout).toContain(`${n === 1 ? "1 prompt" : `${n} prompts`} × 1 engine (chatgpt) × 1 run = ${n === 1 ? "1 execution" : `${n} executions`}\n`);

  const unknown = await cli(["questions", "to-fanout", analysis.id, "--cluster", "c99", "--estimate"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(`${analysis.id} has no cluster c99; its clusters: c1 (${c1.name})`);

  const created = await cli(["questions", "to-fanout", analysis.id, "--cluster", "c1", "--engines", "chatgpt", "--runs", "1", "--wait"]);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stdout).toMatch(/^fanout fo_\w+: completed · crm for small teams\n/);
  const fanoutId = /^fanout (fo_\w+)/.exec(created.stdout)![1]!;

  type Fanout = { prompt_count: number; prompts: { text: string; source: { kind: string; analysis_id: string; question_id: string } | null }[] };
  const fanout = await cliJson<Fanout>(["fanout", "get", fanoutId]);
  expect(fanout.prompt_count).toBe(c1.question_ids.length);
  const text = new Map(analysis.questions.map((q) => [q.id, q.text]));
  expect(fanout.prompts.map((p) => p.source)).toEqual(analysis.questions.filter((q) => c1.question_ids.includes(q.id)).map((q) => ({ kind: "question", analysis_id: analysis.id, question_id: q.id })));
  for (const p of fanout.prompts) expect(p.text).toBe(text.get(p.source!.question_id));
});
