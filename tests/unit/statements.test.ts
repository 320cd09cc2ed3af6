// Every statement the app sends is a typed statement (lib/db/statement.ts) whose name on the driver
// is its label and a hash of its text: a statement whose SQL changed can never keep its name, so
// never run under a name a session prepared for its old text (tests/api/statements.test.ts shows
// a session doing exactly that with a name that did not follow the text).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { definedStatements, statementName, type TypedStatement } from "@/lib/db/statement";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (entry === "generated" || entry === "node_modules") return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry) ? [full] : [];
  });
}

const APP_CODE = ["lib", "app", "inngest", "scripts", "cli"].flatMap((dir) => sourceFiles(path.resolve(dir)));
const outsideDb = (file: string) => !file.startsWith(path.resolve("lib/db") + path.sep);

/** The texts a statement renders for these combinations of given parameters (those its SQL accepts). */
function textsOf(statement: TypedStatement<string, unknown>): { name: string; text: string }[] {
  const params = statement.params;
  const combinations: Set<string>[] = [];
  if (params.length <= 10) {
    for (let mask = 0; mask < 2 ** params.length; mask++) combinations.push(new Set(params.filter((_, i) => mask & (2 ** i))));
  } else {
    combinations.push(new Set(params));
    for (const left of params) combinations.push(new Set(params.filter((p) => p !== left)));
  }
  const texts: { name: string; text: string }[] = [];
  for (const given of combinations) {
    try {
      texts.push(statement.render(Object.fromEntries(params.map((p) => [p, given.has(p)]))));
    } catch (error) {
      // A combination the statement's text cannot be made for (it needs a parameter not given).
      if (!/which this call does not give/.test((error as Error).message)) throw error;
    }
  }
  return texts;
}

describe("typed statements", () => {
  beforeAll(async () => {
    // Every module that defines statements, found by what it says: a new one is checked without a change here.
    for (const file of APP_CODE.filter((f) => readFileSync(f, "utf8").includes("defineStatement("))) await import(file);
  });

  it("are all the app defines, each with a label of its own", () => {
    const labels = definedStatements().map((s) => s.label);
    expect(labels.length).toBeGreaterThan(30);
    expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
    for (const label of ["run_by_id", "runs", "batch_with_runs", "run_claim_queued", "run_complete_prompt", "credit_balance_and_hold", "ledger_append", "job_claim", "fanout_head", "analysis_by_id"]) {
      expect(labels).toContain(label);
    }
  });

  it("run each text under the name its label and its hash make, never one name for two texts", () => {
    const byName = new Map<string, string>();
    let texts = 0;
    for (const statement of definedStatements()) {
      const rendered = textsOf(statement);
      expect(rendered.length, `${statement.label} renders no text`).toBeGreaterThan(0);
      for (const { name, text } of rendered) {
        texts++;
        expect(name).toBe(statementName(statement.label, text));
        expect(name).toMatch(/^[a-z][a-z0-9_]*_[0-9a-f]{12}$/);
        expect(name.length).toBeLessThanOrEqual(63);
        const earlier = byName.get(name);
        expect(earlier === undefined || earlier === text, `${name} names two texts`).toBe(true);
        byName.set(name, text);
      }
    }
    expect(texts).toBeGreaterThan(definedStatements().length);
  });

  it("give a statement whose text changed a new name, however small the change", () => {
    const text = "SELECT r.id FROM runs r WHERE r.id = $1";
    expect(statementName("run_by_id", `${text} `)).not.toBe(statementName("run_by_id", text));
    expect(statementName("run_by_id", text.replace("r.id =", "r.id <>"))).not.toBe(statementName("run_by_id", text));
    expect(statementName("run_by_id", text)).toBe(statementName("run_by_id", text));
  });

  it("are the only statements: no raw rows, hand-named statements or PREPARE outside lib/db", () => {
    const offending = APP_CODE.filter(outsideDb).flatMap((file) => {
      const source = readFileSync(file, "utf8");
      const found = [/\bqueryText\b/, /\bTextRow\b/, /rowMode/, /\bPREPARE\b/, /name:\s*["'`][a-z0-9_]+_v\d+["'`]/].filter((pattern) => pattern.test(source));
      return found.map((pattern) => `${path.relative(process.cwd(), file)}: ${pattern}`);
    });
    expect(offending).toEqual([]);
  });
});
