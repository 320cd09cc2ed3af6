// CLI device login (RFC 8628) through the real handlers: start, poll, approve or deny, the
// token handed out exactly once, and logout.
import { beforeAll, describe, expect, it } from "vitest";
import * as me from "@/app/api/v1/me/route";
import * as poll from "@/app/api/v1/cli/auth/poll/route";
import * as start from "@/app/api/v1/cli/auth/start/route";
import * as token from "@/app/api/v1/cli/auth/token/route";
import { ensureUser } from "@/lib/accounts/users";
import { decideDeviceLogin, findPendingDeviceLogin } from "@/lib/auth/device";
import { hashSecret } from "@/lib/auth/secrets";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person } from "../helpers/people";

useTestDatabase();

let userId: string;
beforeAll(async () => {
  userId = (await ensureUser("dev@example.com")).id;
});

async function begin(clientName = "geoscope CLI on laptop") {
  const res = await call(start.POST, "POST", "/cli/auth/start", { body: { client_name: clientName } });
  expect(res.status).toBe(200);
  return res.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };
}

const pollOnce = (deviceCode: string) => call(poll.POST, "POST", "/cli/auth/poll", { body: { device_code: deviceCode } });

/** Lets the next poll come after the interval without waiting for it. */
async function afterInterval(deviceCode: string) {
  await db().deviceCode.update({ where: { deviceCodeHash: hashSecret(deviceCode) }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });
}

describe("POST /cli/auth/start", () => {
  it("answers the codes, the URLs, the lifetime and the interval", async () => {
    const s = await begin();
    expect(s.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(s.device_code.length).toBeGreaterThanOrEqual(32);
    expect(s.verification_uri).toBe("http://localhost:3000/device");
    expect(s.verification_uri_complete).toBe(`http://localhost:3000/device?code=${s.user_code}`);
    expect(s.expires_in).toBe(600);
    expect(s.interval).toBe(5);
    const row = await db().deviceCode.findUniqueOrThrow({ where: { deviceCodeHash: hashSecret(s.device_code) } });
    expect(JSON.stringify(row)).not.toContain(s.device_code);
  });

  it("requires a client name of 1 to 200 characters", async () => {
    for (const body of [{}, { client_name: "" }, { client_name: "x".repeat(201) }]) {
      const res = await call(start.POST, "POST", "/cli/auth/start", { body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^client_name: /);
    }
  });
});

describe("POST /cli/auth/poll", () => {
  it("is pending, then slow_down when polled faster than the interval", async () => {
    const s = await begin();
    expect((await pollOnce(s.device_code)).body).toEqual({ status: "pending", token: null, token_id: null, email: null });
    expect((await pollOnce(s.device_code)).body.status).toBe("slow_down");
    const row = await db().deviceCode.findUniqueOrThrow({ where: { deviceCodeHash: hashSecret(s.device_code) } });
    expect(row.intervalSeconds).toBe(10);
  });

  it("hands the token out once after approval, then answers expired", async () => {
    const s = await begin("my laptop");
    expect(await findPendingDeviceLogin(s.user_code.toLowerCase().replace("-", ""))).toMatchObject({ clientName: "my laptop" });
    expect(await decideDeviceLogin(userId, s.user_code.toLowerCase(), true)).toBe(true);
    const approved = await pollOnce(s.device_code);
    expect(approved.body).toMatchObject({ status: "approved", email: "dev@example.com" });
    expect(approved.body.token).toMatch(/^gsc_[0-9A-Za-z]{32,}$/);
    expect(approved.body.token_id).toMatch(/^ct_/);
    await afterInterval(s.device_code);
    expect((await pollOnce(s.device_code)).body).toEqual({ status: "expired", token: null, token_id: null, email: null });

    const who = await call(me.GET, "GET", "/me", { token: approved.body.token });
    expect(who.body.credential).toEqual({ kind: "cli_token", id: approved.body.token_id, name: "my laptop" });
  });

  it("gives the token to only one of two racing polls", async () => {
    const s = await begin();
    await decideDeviceLogin(userId, s.user_code, true);
    const [a, b] = await Promise.all([pollOnce(s.device_code), pollOnce(s.device_code)]);
    const tokens = [a.body.token, b.body.token].filter(Boolean);
    expect(tokens).toHaveLength(1);
  });

  it("answers denied after a denial", async () => {
    const s = await begin();
    expect(await decideDeviceLogin(userId, s.user_code, false)).toBe(true);
    expect((await pollOnce(s.device_code)).body.status).toBe("denied");
  });

  it("answers expired after the lifetime, and the code can no longer be approved", async () => {
    const s = await begin();
    await db().deviceCode.update({ where: { deviceCodeHash: hashSecret(s.device_code) }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await pollOnce(s.device_code)).body.status).toBe("expired");
    expect(await decideDeviceLogin(userId, s.user_code, true)).toBe(false);
  });

  it("leaves exactly one outcome when approve and deny race", async () => {
    const s = await begin();
    const results = await Promise.all([decideDeviceLogin(userId, s.user_code, true), decideDeviceLogin(userId, s.user_code, false)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const status = (await pollOnce(s.device_code)).body.status;
    expect(status).toBe(results[0] ? "approved" : "denied");
  });

  it("refuses an unknown device code", async () => {
    const res = await pollOnce("not-a-device-code");
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("device_code");
  });
});

describe("CLI tokens", () => {
  it("log out with DELETE /cli/auth/token, effective on the next request", async () => {
    const p = await person("logout@example.com");
    const out = await call(token.DELETE, "DELETE", "/cli/auth/token", { token: p.cliToken });
    expect(out.status).toBe(204);
    expect((await call(me.GET, "GET", "/me", { token: p.cliToken })).status).toBe(401);
  });

  it("cannot log out an API key through the CLI endpoint", async () => {
    const p = await person("keyonly@example.com");
    const res = await call(token.DELETE, "DELETE", "/cli/auth/token", { token: p.apiKey });
    expect(res.status).toBe(400);
    expect((await call(me.GET, "GET", "/me", { token: p.apiKey })).status).toBe(200);
  });

  it("expire after 90 days without use, and each use extends them", async () => {
    const p = await person("idle@example.com");
    const before = await db().cliToken.findUniqueOrThrow({ where: { id: p.cliTokenId } });
    expect(before.expiresAt.getTime() - before.createdAt.getTime()).toBeGreaterThanOrEqual(90 * 24 * 3600 * 1000 - 5000);
    await db().cliToken.update({ where: { id: p.cliTokenId }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await call(me.GET, "GET", "/me", { token: p.cliToken })).status).toBe(401);
  });
});
