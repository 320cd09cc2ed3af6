// The fuzzers of tests/api/fuzz.test.ts (tests/helpers/fuzz.ts: path, query and body generators)
// against the built server, so a defect only the real server shows (Next.js's routing, Node.js's
// HTTP parser, the request guard) cannot pass again: `npm run fuzz -- --server` sends the same
// seeded cases over HTTP to `next start` on a PostgreSQL database it seeds and reads, so "a 4xx
// changed nothing" is checked exactly as in-process. Every mutation of every endpoint once, with a
// fixed seed (FUZZ_SEED). Starts its own server (own port and database) besides the shared e2e one.
import { spawn } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createTestDatabase, type TestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, repoRoot, runScript, serverTestEnv, type NextServer } from "../helpers/processes";

const SEED = process.env.FUZZ_SEED ?? "20260522";

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

test("fuzzed requests to the built server: no 5xx, the envelope on every 4xx, nothing changed by a 4xx", async () => {
  test.setTimeout(1_200_000);
  const database: TestDatabase = await createTestDatabase();
  const env = serverTestEnv({ DATABASE_URL: database.url, GEOSCOPE_VALIDATE_RESPONSES: "true", BILLING_ENABLED: "true" });
  let server: NextServer | undefined;
  try {
    await runScript("db-migrate", [], env);
    server = nextServer(await freePort(), env);
    await server.start();
    const fuzzed = await run(
      path.join(repoRoot, "node_modules", ".bin", "tsx"),
      [path.join(repoRoot, "scripts", "fuzz.ts"), "--server", server.base, "--database-url", database.url, "--seed", SEED, "--rounds", "1"],
      { ...env, DATABASE_URL: "" },
    );
    const summary = /fuzz: (\d+) cases in [\d.]+ s, (\d+) failed/.exec(fuzzed.stdout);
    expect(summary, `${fuzzed.stdout}\n${fuzzed.stderr}`).not.toBeNull();
    expect(fuzzed.stdout).toContain(`over HTTP to ${server.base}`);
    // The failures, each with its request, response and replay command, are the assertion's message.
    expect(Number(summary![2]), fuzzed.stdout.slice(fuzzed.stdout.indexOf("\n\n"))).toBe(0);
    expect(fuzzed.code).toBe(0);
    expect(Number(summary![1])).toBeGreaterThan(400);
    expect(server.stderr()).not.toMatch(/⨯|failed to decode param|unhandled error/);
  } finally {
    await server?.kill();
    await database.drop();
  }
});
