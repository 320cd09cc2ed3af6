// What Next.js cannot route by itself, through a built server started as `npm start` starts it
// (no -H: Next.js takes its own URLs to be http://localhost:<port>, the way that once answered a
// path segment that does not percent-decode with a plain-text 500 whatever proxy.ts rewrote).
// input-hygiene.spec.ts asks the same of the shared e2e server (-H 127.0.0.1).
// Starts its own server (own port and data folder) besides the shared e2e one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, nextServer, runScript, serverTestEnv } from "../helpers/processes";
import { expectHugeMemberIdsNotFound, expectOtherMethodsRefused, expectUndecodableIdsNotFound, rawRequest } from "./unroutable";

test("served as npm start serves it: undecodable ids 404, unroutable methods 405, huge member ids 404, pages their not-found", async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-unroutable-"));
  const env = serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir });
  const server = nextServer(await freePort(), env, { hostname: "localhost" });
  try {
    await runScript("db-migrate", [], env);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "unroutable@example.com", "--api-key", "k"], env)) as {
      workspace_id: string;
      api_key: { key: string };
    };
    await server.start();
    const token = created.api_key.key;
    const checked = await expectUndecodableIdsNotFound(server.base, token, created.workspace_id);
    expect(checked).toBeGreaterThan(60);
    await expectOtherMethodsRefused(server.base, token, created.workspace_id);
    await expectHugeMemberIdsNotFound(server.base, token, created.workspace_id);

    // Pages: a share or invitation token that does not decode is an unknown token.
    expect((await rawRequest(server.base, "GET", "/s/%ZZ")).status).toBe(404);
    expect((await rawRequest(server.base, "GET", "/s/%C3%28.json")).status).toBe(404);
    const invitation = await rawRequest(server.base, "GET", "/invite/%C3%28");
    expect(invitation.status).toBe(200);
    expect(invitation.text).toContain("This invitation link is not valid.");
    expect(server.stderr()).not.toContain("failed to decode param");
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
