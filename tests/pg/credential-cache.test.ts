// The credential cache across instances on PostgreSQL: an API key this instance has just
// accepted (and remembers) is refused here as soon as another instance revokes it, long before
// the cache's own expiry, because the revocation reaches every instance by LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { cachedCredentialCount } from "@/lib/auth/credential-cache";
import { ensureListening, stopNotifier } from "@/lib/changes/notify";
import { usePostgresDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";
import { runToEnd } from "../helpers/processes";

const database = usePostgresDatabase();
let dana: Person;

beforeAll(async () => {
  dana = await person("dana@example.com");
});

afterAll(async () => {
  await stopNotifier();
});

function revokeOnInstanceB(keyId: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database().url };
  // Under VITEST the app refuses to open a database from the environment.
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  return runToEnd("node_modules/.bin/tsx", ["tests/pg/fixtures/revoke-key.ts", dana.id, dana.email, keyId], env);
}

describe("credential cache across instances", () => {
  it("refuses a remembered API key as soon as another instance revokes it", async () => {
    await ensureListening();
    expect((await call(getMe, "GET", "/me", { token: dana.apiKey })).status).toBe(200);
    expect(cachedCredentialCount()).toBeGreaterThan(0);
    expect((await call(getMe, "GET", "/me", { token: dana.apiKey })).status).toBe(200);

    const remembered = cachedCredentialCount();
    expect(await revokeOnInstanceB(dana.apiKeyId)).toContain("revoked");
    // Told, not timed out: an entry that expires leaves the cache only when next looked up, and
    // nothing looks it up here, so the entry leaving means B's revocation reached this instance.
    await expect.poll(() => cachedCredentialCount(), { interval: 20, timeout: 60_000 }).toBe(remembered - 1);
    expect((await call(getMe, "GET", "/me", { token: dana.apiKey })).status).toBe(401);
    // The person's other credential is untouched.
    expect((await call(getMe, "GET", "/me", { token: dana.cliToken })).status).toBe(200);
  });
});
