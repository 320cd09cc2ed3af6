// The account page's CLI logins: listCliTokens and revokeCliToken see only the person's own
// tokens, and a revocation is refused by GET /me on the very next request.
import { beforeAll, describe, expect, it } from "vitest";
import * as me from "@/app/api/v1/me/route";
import { listCliTokens, revokeCliToken } from "@/lib/auth/cli-tokens";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { cliLogin, person, type Person } from "../helpers/people";

useTestDatabase();

let alice: Person;
let bob: Person;
let aliceSecond: { cliToken: string; cliTokenId: string };

/** The person as the account page sees them: a browser session. */
const browser = (p: Person): Principal => ({
  user: { id: p.id, email: p.email },
  credential: { kind: "session", id: p.id, name: "browser" },
  workspaceId: null,
  apiKeyId: null,
});

async function notFound(work: Promise<unknown>) {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("not_found");
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  aliceSecond = await cliLogin(alice.id, "geoscope CLI on desktop");
});

describe("listCliTokens", () => {
  it("lists the person's own tokens in force, newest first, with client name and dates", async () => {
    const { items } = await listCliTokens(browser(alice));
    expect(items.map((t) => t.id)).toEqual([aliceSecond.cliTokenId, alice.cliTokenId]);
    expect(items[0]).toMatchObject({ name: "geoscope CLI on desktop", last_used_at: null });
    expect(Date.parse(items[0]!.created_at)).not.toBeNaN();
    expect(JSON.stringify(items)).not.toContain(aliceSecond.cliToken);
    expect((await listCliTokens(browser(bob))).items.map((t) => t.id)).toEqual([bob.cliTokenId]);
  });

  it("shows when a token was last used", async () => {
    expect((await call(me.GET, "GET", "/me", { token: alice.cliToken })).status).toBe(200);
    const used = (await listCliTokens(browser(alice))).items.find((t) => t.id === alice.cliTokenId);
    expect(used?.last_used_at).not.toBeNull();
  });

  it("leaves out expired tokens", async () => {
    const old = await cliLogin(alice.id, "old laptop");
    await db().cliToken.update({ where: { id: old.cliTokenId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await listCliTokens(browser(alice))).items.map((t) => t.id)).not.toContain(old.cliTokenId);
  });
});

describe("revokeCliToken", () => {
  it("treats someone else's token, or an unknown id, as not found and leaves it working", async () => {
    await notFound(revokeCliToken(browser(alice), bob.cliTokenId));
    await notFound(revokeCliToken(browser(alice), "ct_01JZZZZZZZZZZZZZZZZZZZZZZZ"));
    await notFound(revokeCliToken(browser(alice), "not an id"));
    expect((await call(me.GET, "GET", "/me", { token: bob.cliToken })).status).toBe(200);
    expect((await listCliTokens(browser(bob))).items).toHaveLength(1);
  });

  it("revokes the person's own token on the very next request, remembered or not", async () => {
    // Looked up just before, so the credential cache holds it.
    expect((await call(me.GET, "GET", "/me", { token: aliceSecond.cliToken })).status).toBe(200);
    await revokeCliToken(browser(alice), aliceSecond.cliTokenId);
    const after = await call(me.GET, "GET", "/me", { token: aliceSecond.cliToken });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthenticated");
    expect((await listCliTokens(browser(alice))).items.map((t) => t.id)).toEqual([alice.cliTokenId]);
    // Alice's other CLI login is untouched; revoking again changes nothing.
    expect((await call(me.GET, "GET", "/me", { token: alice.cliToken })).status).toBe(200);
    await revokeCliToken(browser(alice), aliceSecond.cliTokenId);
  });
});
