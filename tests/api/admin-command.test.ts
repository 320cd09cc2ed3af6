// The operator's command, run as a real subprocess against its own PGlite folder: how a
// self-hosted install gets its first credential without a browser.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-admin-"));
const env = { ...process.env, GEOSCOPE_DATA_DIR: dataDir, DATABASE_URL: "", VITEST: "" };
const tsx = path.resolve("node_modules/.bin/tsx");
// Each subprocess compiles the scripts and opens PGlite: tens of seconds on a loaded 2-core machine.
const SPAWN_TIMEOUT_MS = 180_000;

function run(script: string, args: string[]) {
  const result = spawnSync(tsx, [script, ...args], { env, encoding: "utf8", timeout: SPAWN_TIMEOUT_MS });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run admin", { timeout: 3 * SPAWN_TIMEOUT_MS }, () => {
  it("bootstraps a user with a personal workspace and an API key, printed as JSON", () => {
    expect(run("scripts/db-migrate.ts", []).code).toBe(0);
    const created = run("scripts/admin.ts", ["user:create", "--email", "Ops@Example.com", "--api-key", "bootstrap"]);
    expect(created.code, created.stderr).toBe(0);
    // What it did, in one line on stderr; the JSON alone on stdout.
    expect(created.stderr).toMatch(/^admin: created ops@example\.com \(us_\w+\) with the personal workspace ws_\w+, and made the API key "bootstrap" \(ak_\w+\); its secret is in api_key\.key, shown this once \(PGlite in .+\)\n$/);
    const out = JSON.parse(created.stdout);
    expect(out.user).toMatchObject({ email: "ops@example.com", created: true });
    expect(out.workspace_id).toMatch(/^ws_/);
    expect(out.api_key).toMatchObject({ name: "bootstrap", workspace_id: out.workspace_id, revoked_at: null });
    expect(out.api_key.key).toMatch(/^gsk_/);

    // Run again: the same user, no second workspace; credit can be added to it.
    const again = JSON.parse(run("scripts/admin.ts", ["user:create", "--email", "ops@example.com"]).stdout);
    expect(again).toMatchObject({ user: { id: out.user.id, created: false }, workspace_id: out.workspace_id });
    const credit = run("scripts/admin.ts", ["credit:add", "--workspace", out.workspace_id, "--usd", "25.00", "--note", "invoice 1"]);
    expect(credit.code).toBe(0);
    expect(JSON.parse(credit.stdout).billing).toMatchObject({ purchased_usd: "25.00", promotional_usd: "5.00" });
    expect(credit.stderr).toBe(`admin: added 25.00 USD of purchased credit ("invoice 1") to ${out.workspace_id}: balance 30.00 USD, available 30.00 USD (PGlite in ${path.join(dataDir, "pglite")})\n`);
  });

  it("works on an empty data folder before the server ever started: it applies the migrations first and says so", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "geoscope-admin-empty-"));
    const result = spawnSync(tsx, ["scripts/admin.ts", "user:create", "--email", "first@example.com"], { env: { ...env, GEOSCOPE_DATA_DIR: empty }, encoding: "utf8", timeout: SPAWN_TIMEOUT_MS });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^admin: applied \d+ pending migrations to PGlite in .+\nadmin: created first@example\.com /);
    expect(JSON.parse(result.stdout).user).toMatchObject({ email: "first@example.com", created: true });
  });

  it("refuses bad arguments with the usage and exit code 2", () => {
    for (const args of [["user:create"], ["user:create", "--email", "nope"], ["frobnicate"], ["user:create", "--email", "a@b.c", "--bogus"]]) {
      const res = run("scripts/admin.ts", args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr, args.join(" ")).toContain("usage:");
      expect(res.stdout).toBe("");
    }
  });
});
