// Operator commands against a running server on the embedded database (#32): `npm run admin`
// cannot open PGlite while `next start` holds it, so the server carries the command out through its
// loopback operator endpoint, whose token lives in the data folder (0600) and never in the log.
// Also, through the same built server: required text refused alike, before anything is charged.
// Starts its own server (own port and data folder) besides the shared e2e one.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, nextServer, runScript, serverTestEnv } from "../helpers/processes";
import { rawRequest } from "./unroutable";

/** `npm run admin -- …` to its end: exit code, stdout and stderr. */
async function admin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const stdout = await runScript("admin", args, env);
    return { code: 0, stdout, stderr: "" };
  } catch (error) {
    const message = (error as Error).message;
    return { code: Number(/exited (\d+)/.exec(message)?.[1] ?? 1), stdout: "", stderr: message };
  }
}

test("npm run admin works against the running server: credit added shows in GET /billing, and it says what it did", async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-operator-"));
  const env = serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir });
  const server = nextServer(await freePort(), env);
  try {
    await runScript("db-migrate", [], env);
    await server.start();

    // The server holds the folder; the command still makes a user and a key, through the server.
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "ops@example.com", "--api-key", "ops"], env)) as {
      workspace_id: string;
      api_key: { key: string };
    };
    const headers = { authorization: `Bearer ${created.api_key.key}`, "content-type": "application/json" };
    const billing = async () => (await (await fetch(`${server.base}/api/v1/billing`, { headers })).json()) as Record<string, string>;
    expect(await billing()).toMatchObject({ purchased_usd: "0.00", promotional_usd: "5.00", available_usd: "5.00" });

    const tsx = path.resolve("node_modules/.bin/tsx");
    const added = spawnSync(tsx, ["scripts/admin.ts", "credit:add", "--workspace", created.workspace_id, "--usd", "25.00", "--note", "invoice 42"], {
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).billing).toMatchObject({ purchased_usd: "25.00", available_usd: "30.00" });
    expect(added.stderr).toMatch(
      new RegExp(`^admin: added 25\\.00 USD of purchased credit \\("invoice 42"\\) to ${created.workspace_id}: balance 30\\.00 USD, available 30\\.00 USD \\(carried out by the running server, pid \\d+\\)\\n$`),
    );
    expect(await billing()).toMatchObject({ purchased_usd: "25.00", promotional_usd: "5.00", balance_usd: "30.00", available_usd: "30.00" });
    const transactions = (await (await fetch(`${server.base}/api/v1/billing/transactions`, { headers })).json()) as { items: { description: string; amount_usd: string }[] };
    expect(transactions.items[0]).toMatchObject({ description: "invoice 42", amount_usd: "25.00" });

    // A usage mistake is still the usage and exit 2; a failure is exit 1 with the reason.
    const usage = await admin(["credit:add", "--workspace", created.workspace_id], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--usd is required");
    const missing = await admin(["credit:add", "--workspace", "ws_01JAAAAAAAAAAAAAAAAAAAAAAA", "--usd", "1.00"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no workspace ws_01JAAAAAAAAAAAAAAAAAAAAAAA");

    // The token: in a file only its owner reads, checked by the endpoint, never in the log.
    const file = path.join(dataDir, "operator.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const operator = JSON.parse(readFileSync(file, "utf8")) as { url: string; token: string };
    expect(new URL(operator.url).hostname).toBe("127.0.0.1");
    expect(server.stderr()).not.toContain(operator.token);
    expect(server.stderr()).toContain("operator command done");
    const body = JSON.stringify({ command: "credit:add", args: ["--workspace", created.workspace_id, "--usd", "1000.00"] });
    for (const authorization of [undefined, "Bearer nope", `Bearer ${operator.token}x`]) {
      const refused = await fetch(`${operator.url}/commands`, { method: "POST", headers: authorization ? { authorization } : {}, body });
      expect(refused.status).toBe(401);
    }
    expect((await billing()).purchased_usd).toBe("25.00");

    // Required text through the built server: whitespace only is 400 naming the field, nothing held.
    const project = (await (await fetch(`${server.base}/api/v1/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Ops" }) })).json()) as { id: string };
    const blank = await rawRequest(server.base, "POST", "/api/v1/prompts", { token: created.api_key.key, body: JSON.stringify({ prompt: "   \n  ", project: project.id }) });
    expect(blank.status).toBe(400);
    expect(JSON.parse(blank.text).error.message).toBe("prompt: must be 1 to 4000 characters after trimming spaces");
    const brands = await rawRequest(server.base, "PATCH", `/api/v1/projects/${project.id}`, {
      token: created.api_key.key,
      body: JSON.stringify({ context: { brands: ["", "  "] } }),
    });
    expect(brands.status).toBe(400);
    expect(JSON.parse(brands.text).error.message).toBe("context.brands[0]: must be 1 to 100 characters after trimming spaces; context.brands[1]: must be 1 to 100 characters after trimming spaces");
    expect(await billing()).toMatchObject({ held_usd: "0.00", available_usd: "30.00" });

    // A killed server leaves its file behind: the command sees that its process is gone and opens the folder itself.
    await server.kill();
    const stopped = await admin(["credit:add", "--workspace", created.workspace_id, "--usd", "1.00"], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout).billing.purchased_usd).toBe("26.00");
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
