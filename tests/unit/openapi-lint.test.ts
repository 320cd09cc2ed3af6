// The OpenAPI document through two linters nobody here wrote, as an outside tester runs them:
// Redocly CLI (`redocly lint`, its recommended rules): no error and no warning; Spectral (its
// `spectral:oas` rules, .spectral.yaml): no error but its known OpenAPI 3.1 false positive
// (`array-items` on a tuple, which 3.1 writes `prefixItems` with `items: false`), no warning.
// Both run from node_modules with every outgoing connection and name lookup refused and recorded
// (tests/helpers/no-network.cjs): they must work offline, on a clean clone.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/http/openapi";

const root = path.resolve(import.meta.dirname, "..", "..");
const dir = mkdtempSync(path.join(tmpdir(), "geoscope-openapi-lint-"));
const file = path.join(dir, "openapi.json");
const networkLog = path.join(dir, "network.log");
let doc: ReturnType<typeof buildOpenApiDocument>;

/** Runs a linter's binary offline; its stdout (JSON), and what it tried to reach. */
function lint(bin: string, args: string[]): { status: number | null; stdout: string; stderr: string; network: string } {
  writeFileSync(networkLog, "");
  const result = spawnSync(path.join(root, "node_modules", ".bin", bin), args, {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(root, "tests", "helpers", "no-network.cjs")}`.trim(),
      NO_NETWORK_LOG: networkLog,
      // Redocly CLI sends usage telemetry unless told not to (the test below proves it then sends nothing).
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, network: readFileSync(networkLog, "utf8") };
}

beforeAll(() => {
  // As a deployment serves it: a localhost server URL is itself a warning (no-server-example.com).
  doc = buildOpenApiDocument({ serverUrl: "https://geoscope.acme.dev/api/v1" });
  writeFileSync(file, JSON.stringify(doc, null, 2));
});

describe("the OpenAPI document, linted offline", { timeout: 180_000 }, () => {
  it("has no error and no warning under Redocly's recommended rules", () => {
    const run = lint("redocly", ["lint", "--extends", "recommended", "--format", "json", file]);
    expect(run.network).toBe("");
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  });

  it("has no error under Spectral's spectral:oas rules but array-items on OpenAPI 3.1 tuples, and no warning", () => {
    const run = lint("spectral", ["lint", "--ruleset", path.join(root, ".spectral.yaml"), "--format", "json", "--quiet", file]);
    expect(run.network).toBe("");
    const problems = JSON.parse(run.stdout) as { code: string; path: string[]; message: string; severity: number }[];
    const falsePositive = (p: (typeof problems)[number]) => {
      if (p.code !== "array-items" || p.path.at(-1) !== "items") return false;
      const schema = p.path.slice(0, -1).reduce<any>((node, key) => node?.[key], doc);
      return Array.isArray(schema?.prefixItems) && schema.items === false;
    };
    expect(problems.filter((p) => !falsePositive(p)).map((p) => `${p.code} (severity ${p.severity}) at ${p.path.join(".")}: ${p.message}`)).toEqual([]);
    // The tuples are there (intervals), so the exception above is exercised, not dead.
    expect(problems.filter(falsePositive).length).toBeGreaterThan(0);
  });

  it("would see a linter reach the network: the guard records and refuses fetch, https and lookups", () => {
    writeFileSync(networkLog, "");
    const script = `
      const dns = require("node:dns");
      fetch("https://registry.npmjs.org/").catch(() => {});
      require("node:https").get("https://example.org/").on("error", () => {});
      dns.lookup("example.net", () => {});`;
    spawnSync(process.execPath, ["-e", script], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: `--require ${path.join(root, "tests", "helpers", "no-network.cjs")}`, NO_NETWORK_LOG: networkLog },
    });
    const seen = readFileSync(networkLog, "utf8");
    expect(seen).toContain("connect registry.npmjs.org:443");
    expect(seen).toContain("connect example.org:443");
    expect(seen).toContain("lookup example.net");
  });
});
