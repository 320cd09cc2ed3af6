// GET /billing, /billing/transactions and /billing/usage through the real route handlers,
// against a fixture of charges across days, engines and products; plus the hold interface's
// refusals, billing off, the signup grant and the operator's credit commands.
import { sqlIn } from "@/lib/db/sql";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { GET as getTransactions } from "@/app/api/v1/billing/transactions/route";
import { GET as getUsage } from "@/app/api/v1/billing/usage/route";
import { AdminUsageError, runBillingAdminCommand } from "@/lib/billing/admin";
import { captureHold, holdCredit, releaseHold, type ChargeActor } from "@/lib/billing/holds";
import { grantPromo, grantSignupPromo, LedgerError, readBalance, recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { presentRunCharge } from "@/lib/billing/present";
import { issueApiKey } from "@/lib/auth/api-keys";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { ApiError } from "@/lib/http/errors";
import { freshPglite } from "../helpers/db";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

const NOW = new Date("2026-11-20T12:00:00Z");
const ADD_CREDIT_URL = "http://localhost:3000/account#billing";

function at(iso: string) {
  vi.setSystemTime(new Date(iso));
}

async function teamWorkspace(adminId: string, name: string) {
  return db().workspace.create({
    data: { id: newId("workspace"), name, kind: "team", memberships: { create: { userId: adminId, role: "admin" } } },
  });
}

type Line = Parameters<typeof holdCredit>[1]["lines"][number];

async function hold(workspaceId: string, actor: ChargeActor, lines: Line[], operationId: string = newId("batch")) {
  return db().$transaction((tx) => holdCredit(sqlIn(tx), { workspaceId, operationId, lines, actor }));
}

function withEnv(vars: Record<string, string | undefined>) {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  };
}

let close: () => Promise<void>;
let alice: Person;
let bob: Person;
let team: { id: string };
let teamKey: { id: string; key: string };
let fixture: { run1: string; batch1: string; analysis: string; queuedHold: string };

beforeAll(async () => {
  close = (await freshPglite()).close;
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  team = await teamWorkspace(alice.id, "Alice's team");
  teamKey = await issueApiKey(alice.id, team.id, "team key");
  const actor: ChargeActor = { userId: alice.id, apiKeyId: teamKey.id };
  const project = await db().project.create({
    data: { id: newId("project"), workspaceId: team.id, name: "Research", slug: "research", createdByUserId: alice.id },
  });

  vi.useFakeTimers({ toFake: ["Date"] });
  // Forty days ago: outside the default window, inside a year's.
  at("2026-10-11T09:00:00Z");
  await db().$transaction((tx) => recordPurchase(tx, { workspaceId: team.id, amountMicros: parseUsd("20.00") }));
  const old = await hold(team.id, actor, [{ product: "prompt", engine: "chatgpt", units: 1 }]);
  await captureHold(old.holds[0]!.id);

  at("2026-11-10T09:00:00Z");
  await db().$transaction((tx) => grantPromo(tx, { workspaceId: team.id, amountMicros: parseUsd("0.04") }));

  // A batch on three engines: gemini fails, so it is released and never charged.
  at("2026-11-17T10:00:00Z");
  const run1 = await db().run.create({
    data: { id: newId("run"), kind: "prompt", workspaceId: team.id, projectId: project.id, engine: "chatgpt", subject: "best crm", input: {} },
  });
  const batch1 = newId("batch");
  const batch = await hold(
    team.id,
    actor,
    [
      { product: "prompt", engine: "chatgpt", units: 1, runId: run1.id },
      { product: "prompt", engine: "claude", units: 1 },
      { product: "prompt", engine: "gemini", units: 1 },
    ],
    batch1,
  );
  await captureHold(run1.id);
  await captureHold({ holdId: batch.holds[1]!.id });
  await releaseHold(batch.holds[2]!.id);

  // Yesterday, a second before midnight UTC: still yesterday's row.
  at("2026-11-19T23:59:59Z");
  const analysis = newId("questionsAnalysis");
  const questions = await hold(team.id, actor, [{ product: "questions", units: 25 }], analysis);
  await captureHold(questions.holds[0]!.id, { actualUnits: 20 });
  const audit = await hold(team.id, actor, [{ product: "audit", units: 1 }]);
  await captureHold(audit.holds[0]!.id);

  at("2026-11-20T00:00:01Z");
  for (let i = 0; i < 2; i++) {
    const p = await hold(team.id, actor, [{ product: "prompt", engine: "chatgpt", units: 1 }]);
    await captureHold(p.holds[0]!.id);
  }
  const queued = await hold(team.id, actor, [{ product: "prompt", engine: "claude", units: 1 }]);

  at(NOW.toISOString());
  fixture = { run1: run1.id, batch1, analysis, queuedHold: queued.holds[0]!.id };
});

afterAll(async () => {
  vi.useRealTimers();
  await close?.();
});

describe("GET /billing", () => {
  it("shows the balance by bucket, what is held, what is available and the month's spend", async () => {
    const res = await call(getBilling, "GET", "/billing", { token: teamKey.key });
    expect(res.status).toBe(200);
    // 20.00 bought; the 0.04 promotional grant went first; 0.03 is held for a queued claude prompt.
    expect(res.body).toEqual({
      workspace_id: team.id,
      enabled: true,
      balance_usd: "19.88",
      purchased_usd: "19.88",
      promotional_usd: "0.00",
      held_usd: "0.03",
      available_usd: "19.85",
      spend_month_to_date_usd: "0.14",
      add_credit_url: ADD_CREDIT_URL,
    });
  });

  it("counts the month from the 1st UTC", async () => {
    at("2026-12-01T00:00:00Z");
    try {
      const res = await call(getBilling, "GET", "/billing", { token: teamKey.key });
      expect(res.body.spend_month_to_date_usd).toBe("0.00");
    } finally {
      at(NOW.toISOString());
    }
  });

  it("answers for the personal workspace by default and for a named workspace the caller belongs to", async () => {
    const own = await call(getBilling, "GET", "/billing", { token: alice.cliToken });
    expect(own.status).toBe(200);
    expect(own.body.workspace_id).toBe(alice.workspaceId);
    const named = await call(getBilling, "GET", "/billing", { token: alice.cliToken, query: { workspace: team.id } });
    expect(named.body).toMatchObject({ workspace_id: team.id, balance_usd: "19.88" });
  });

  it("answers 404 for a workspace the credential cannot act in, exactly as for one that does not exist", async () => {
    const outsider = await call(getBilling, "GET", "/billing", { token: bob.cliToken, query: { workspace: team.id } });
    const missingId = newId("workspace");
    const missing = await call(getBilling, "GET", "/billing", { token: bob.cliToken, query: { workspace: missingId } });
    // A key acts only in its own workspace, even one its owner belongs to.
    const keyElsewhere = await call(getBilling, "GET", "/billing", { token: teamKey.key, query: { workspace: alice.workspaceId } });
    for (const res of [outsider, missing, keyElsewhere]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    // The message names only the id asked for: apart from it, the two answers are the same.
    expect(outsider.body.error.message).toBe(`No such workspace "${team.id}".`);
    expect(missing.body.error.message.replace(missingId, team.id)).toBe(outsider.body.error.message);
    const query = { workspace: team.id };
    expect((await call(getTransactions, "GET", "/billing/transactions", { token: bob.apiKey, query })).status).toBe(404);
    expect((await call(getUsage, "GET", "/billing/usage", { token: bob.apiKey, query })).status).toBe(404);
  });

  it("answers 401 without a credential", async () => {
    expect((await call(getBilling, "GET", "/billing")).status).toBe(401);
  });
});

describe("GET /billing/transactions", () => {
  it("lists every change to the balance newest first, with the actor and what was charged", async () => {
    const res = await call(getTransactions, "GET", "/billing/transactions", { token: teamKey.key });
    expect(res.status).toBe(200);
    const rows = res.body.items.map((t: any) => [t.kind, t.bucket, t.amount_usd]);
    expect(rows).toEqual([
      ["usage", "purchased", "-0.02"],
      ["usage", "purchased", "-0.02"],
      ["usage", "purchased", "-0.01"],
      ["usage", "purchased", "-0.04"],
      // The claude prompt cost 0.03 and 0.02 promotional credit was left: it pays from both.
      ["usage", "purchased", "-0.01"],
      ["usage", "promo", "-0.02"],
      ["usage", "promo", "-0.02"],
      ["promo_grant", "promo", "0.04"],
      ["usage", "purchased", "-0.02"],
      ["purchase", "purchased", "20.00"],
    ]);
    expect(res.body.next_cursor).toBeNull();

    const chatgpt = res.body.items[6];
    expect(chatgpt).toMatchObject({
      operation_id: fixture.batch1,
      run_id: fixture.run1,
      actor: "alice@example.com",
      api_key_id: teamKey.id,
      created_at: "2026-11-17T10:00:00.000Z",
    });
    expect(chatgpt.description).toContain("chatgpt");
    expect(res.body.items[3]).toMatchObject({ operation_id: fixture.analysis, run_id: null });
    expect(res.body.items[3].description).toContain("20 questions");
    // Credit the service gave, or an operator recorded, has no actor.
    expect(res.body.items[7]).toMatchObject({ actor: null, api_key_id: null, operation_id: null });
    // Balance = sum of transactions, per bucket.
    const sum = (bucket: string) =>
      res.body.items.filter((t: any) => t.bucket === bucket).reduce((s: bigint, t: any) => s + parseUsd(t.amount_usd, { allowNegative: true }), 0n);
    expect(sum("purchased")).toBe(parseUsd("19.88"));
    expect(sum("promo")).toBe(0n);
  });

  it("pages with an opaque cursor until next_cursor is null, without gaps or repeats", async () => {
    const all = (await call(getTransactions, "GET", "/billing/transactions", { token: teamKey.key, query: { limit: 200 } })).body.items;
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { limit: 3, ...(cursor ? { cursor } : {}) };
      const page = await call(getTransactions, "GET", "/billing/transactions", { token: teamKey.key, query });
      expect(page.status).toBe(200);
      sizes.push(page.body.items.length);
      seen.push(...page.body.items.map((t: any) => t.id));
      cursor = page.body.next_cursor;
      if (cursor) expect(cursor).not.toContain("tx_");
    } while (cursor);
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(seen).toEqual(all.map((t: any) => t.id));
  });

  it("refuses limits out of range and cursors this server did not issue with 400", async () => {
    const bad: Record<string, string | number>[] = [
      { limit: 0 },
      { limit: 201 },
      { limit: "ten" },
      { cursor: "not a cursor" },
      { cursor: Buffer.from("t1:tx_123").toString("base64url") },
      { cursor: Buffer.from(`t1:${fixture.run1}`).toString("base64url") },
      { cursor: fixture.run1 },
    ];
    for (const query of bad) {
      const res = await call(getTransactions, "GET", "/billing/transactions", { token: teamKey.key, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toMatch(Object.keys(query)[0]!);
    }
  });
});

describe("GET /billing/usage", () => {
  it("reports what was charged in the last 30 days by day, product and engine; failed work is absent", async () => {
    const res = await call(getUsage, "GET", "/billing/usage", { token: teamKey.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      days: 30,
      total_usd: "0.14",
      rows: [
        { day: "2026-11-20", product: "prompt", engine: "chatgpt", unit: "prompt", operations: 2, units: 2, charged_usd: "0.04" },
        { day: "2026-11-19", product: "audit", engine: null, unit: "url", operations: 1, units: 1, charged_usd: "0.01" },
        // Held for 25 questions, 20 came back: 20 were paid for.
        { day: "2026-11-19", product: "questions", engine: null, unit: "question", operations: 1, units: 20, charged_usd: "0.04" },
        { day: "2026-11-17", product: "prompt", engine: "chatgpt", unit: "prompt", operations: 1, units: 1, charged_usd: "0.02" },
        { day: "2026-11-17", product: "prompt", engine: "claude", unit: "prompt", operations: 1, units: 1, charged_usd: "0.03" },
      ],
    });
    expect(res.body.rows.some((r: any) => r.engine === "gemini")).toBe(false);
  });

  it("counts today as one of the days", async () => {
    const report = async (days: number) => (await call(getUsage, "GET", "/billing/usage", { token: teamKey.key, query: { days } })).body;
    expect((await report(1)).rows.map((r: any) => r.day)).toEqual(["2026-11-20"]);
    expect((await report(1)).total_usd).toBe("0.04");
    expect((await report(3)).rows.map((r: any) => r.day)).toEqual(["2026-11-20", "2026-11-19", "2026-11-19"]);
    expect((await report(4)).rows.at(-1).day).toBe("2026-11-17");
    const year = await report(366);
    expect(year.rows.at(-1)).toEqual({
      day: "2026-10-11", product: "prompt", engine: "chatgpt", unit: "prompt", operations: 1, units: 1, charged_usd: "0.02",
    });
    expect(year.total_usd).toBe("0.16");
  });

  it("refuses days outside 1 to 366 with 400 naming the parameter and its bounds", async () => {
    for (const days of [0, 367, -1, "abc", "1.5"]) {
      const res = await call(getUsage, "GET", "/billing/usage", { token: teamKey.key, query: { days } });
      expect(res.status, String(days)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toContain("days");
      expect(res.body.error.message).toContain("1 to 366");
    }
  });

  it("answers the caller's personal workspace by default: nothing charged there", async () => {
    const res = await call(getUsage, "GET", "/billing/usage", { token: alice.apiKey });
    expect(res.body).toEqual({ days: 30, total_usd: "0.00", rows: [] });
  });
});

describe("holds", () => {
  it("refuses work the available credit does not cover with 402, saying what is needed and available, creating nothing", async () => {
    const ws = await teamWorkspace(alice.id, "Small");
    await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: parseUsd("0.05") }));
    await hold(ws.id, { userId: alice.id, apiKeyId: null }, [{ product: "prompt", engine: "chatgpt", units: 1 }]);
    const projectId = newId("project");
    const error = await db()
      .$transaction(async (tx) => {
        // The work and its hold are created in one transaction: refused credit creates neither.
        await tx.project.create({ data: { id: projectId, workspaceId: ws.id, name: "p", slug: "p", createdByUserId: alice.id } });
        return holdCredit(sqlIn(tx), {
          workspaceId: ws.id,
          operationId: newId("batch"),
          actor: { userId: alice.id, apiKeyId: null },
          lines: [
            { product: "prompt", engine: "chatgpt", units: 1 },
            { product: "prompt", engine: "claude", units: 1 },
          ],
        });
      })
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe("insufficient_credit");
    expect(apiError.status).toBe(402);
    expect(apiError.retryable).toBe(false);
    expect(apiError.message).toContain("needs 0.05 USD");
    expect(apiError.message).toContain("0.03 USD is available");
    expect(apiError.message).toContain(ADD_CREDIT_URL);
    expect(await db().project.findUnique({ where: { id: projectId } })).toBeNull();
    expect(await db().creditHold.count({ where: { workspaceId: ws.id } })).toBe(1);
    expect(await readBalance(db(), ws.id)).toEqual({ promoMicros: 0n, purchasedMicros: 50_000n, heldMicros: 20_000n });
  });

  it("presents a run's charge: held amount, then the amount paid, or 0 once released", async () => {
    const queued = await db().creditHold.findUniqueOrThrow({ where: { id: fixture.queuedHold } });
    expect(presentRunCharge(queued, true)).toEqual({
      status: "held", amount_usd: "0.03", unit: "prompt", units: 1, unit_price_usd: "0.03", pricing_version: "2026-11-29",
    });
    const paid = await db().creditHold.findFirstOrThrow({ where: { operationId: fixture.analysis } });
    expect(presentRunCharge(paid, true)).toMatchObject({ status: "captured", amount_usd: "0.04", units: 20, unit_price_usd: "0.002" });
    const failed = await db().creditHold.findFirstOrThrow({ where: { operationId: fixture.batch1, engine: "gemini" } });
    expect(presentRunCharge(failed, true)).toMatchObject({ status: "released", amount_usd: "0.00" });
    expect(presentRunCharge(queued, false)).toBeNull();
  });
});

describe("billing off", () => {
  let restore: () => void;
  afterEach(() => restore?.());

  it("holds nothing and reports enabled false, with every money field still a string", async () => {
    restore = withEnv({ BILLING_ENABLED: "false" });
    const before = await readBalance(db(), team.id);
    const holdsBefore = await db().creditHold.count({ where: { workspaceId: team.id } });
    const outcome = await hold(team.id, { userId: alice.id, apiKeyId: null }, [{ product: "prompt", engine: "claude", units: 1000 }]);
    expect(outcome).toEqual({ enabled: false, holds: [], totalMicros: 0n });
    expect(await readBalance(db(), team.id)).toEqual(before);
    expect(await db().creditHold.count({ where: { workspaceId: team.id } })).toBe(holdsBefore);

    const summary = await call(getBilling, "GET", "/billing", { token: teamKey.key });
    expect(summary.status).toBe(200);
    // The claude prompt queued while billing was on is still held; nothing new is.
    expect(summary.body).toMatchObject({ enabled: false, held_usd: "0.03", available_usd: "19.85", balance_usd: "19.88" });
    // What was charged before billing was switched off stays charged, and the total is its sum.
    const usage = await call(getUsage, "GET", "/billing/usage", { token: teamKey.key });
    expect(usage.body.rows.length).toBeGreaterThan(0);
    expect(usage.body.rows.every((r: any) => /^\d+\.\d{2,6}$/.test(r.charged_usd))).toBe(true);
    const sum = usage.body.rows.reduce((total: bigint, r: any) => total + parseUsd(r.charged_usd), 0n);
    expect(parseUsd(usage.body.total_usd)).toBe(sum);
    expect(usage.body.total_usd).toBe("0.14");
  });

  it("shows held 0.00 and available equal to the balance where nothing is held", async () => {
    restore = withEnv({ BILLING_ENABLED: "false" });
    const summary = await call(getBilling, "GET", "/billing", { token: bob.apiKey });
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ enabled: false, held_usd: "0.00" });
    expect(summary.body.available_usd).toBe(summary.body.balance_usd);
    const usage = await call(getUsage, "GET", "/billing/usage", { token: bob.apiKey });
    expect(usage.body).toEqual({ days: 30, total_usd: "0.00", rows: [] });
  });
});

describe("signup grant", () => {
  let restore: () => void;
  afterEach(() => restore?.());

  it("gives a new personal workspace 5.00 of promotional credit by default, spent before purchased credit", async () => {
    restore = withEnv({ SIGNUP_PROMO_USD: undefined });
    const ws = await teamWorkspace(bob.id, "signup");
    await db().$transaction((tx) => grantSignupPromo(tx, ws.id));
    const key = await issueApiKey(bob.id, ws.id, "k");
    const summary = await call(getBilling, "GET", "/billing", { token: key.key });
    expect(summary.body).toMatchObject({ promotional_usd: "5.00", purchased_usd: "0.00", available_usd: "5.00" });
    const list = await call(getTransactions, "GET", "/billing/transactions", { token: key.key });
    expect(list.body.items).toEqual([
      expect.objectContaining({ kind: "promo_grant", bucket: "promo", amount_usd: "5.00", actor: null }),
    ]);
  });

  it("follows SIGNUP_PROMO_USD, and 0 grants nothing", async () => {
    restore = withEnv({ SIGNUP_PROMO_USD: "0" });
    const none = await teamWorkspace(bob.id, "none");
    expect(await db().$transaction((tx) => grantSignupPromo(tx, none.id))).toBeNull();
    expect(await db().ledgerTransaction.count({ where: { workspaceId: none.id } })).toBe(0);
    restore();
    restore = withEnv({ SIGNUP_PROMO_USD: "2.50" });
    const some = await teamWorkspace(bob.id, "some");
    await db().$transaction((tx) => grantSignupPromo(tx, some.id));
    expect((await readBalance(db(), some.id)).promoMicros).toBe(2_500_000n);
  });
});

describe("operator credit commands", () => {
  it("credit:add records a purchase, or with --promo a promotional grant, each with its description", async () => {
    const ws = await teamWorkspace(bob.id, "ops");
    const bought = (await runBillingAdminCommand("credit:add", ["--workspace", ws.id, "--usd", "25.00", "--note", "invoice 42"])) as any;
    expect(bought.transaction).toMatchObject({ kind: "purchase", bucket: "purchased", amount_usd: "25.00", description: "invoice 42" });
    const given = (await runBillingAdminCommand("credit:add", ["--workspace", ws.id, "--usd", "1.5", "--promo"])) as any;
    expect(given.transaction).toMatchObject({ kind: "promo_grant", bucket: "promo", amount_usd: "1.50" });
    expect(given.billing).toMatchObject({ balance_usd: "26.50", promotional_usd: "1.50", purchased_usd: "25.00" });

    const fixed = (await runBillingAdminCommand("credit:adjust", ["--workspace", ws.id, "--usd", "-3.00", "--note", "double-entered"])) as any;
    expect(fixed.transaction).toMatchObject({ kind: "adjustment", bucket: "purchased", amount_usd: "-3.00", description: "double-entered" });
    expect(fixed.billing.purchased_usd).toBe("22.00");
  });

  it("refuses malformed amounts, missing notes, unknown workspaces and corrections below zero", async () => {
    const ws = await teamWorkspace(bob.id, "ops2");
    const usage = [
      ["credit:add", ["--workspace", ws.id, "--usd", "1e3"]],
      ["credit:add", ["--workspace", ws.id, "--usd", "-5.00"]],
      ["credit:add", ["--workspace", ws.id, "--usd", "0.0000001"]],
      ["credit:add", ["--workspace", ws.id]],
      ["credit:add", ["--usd", "1.00"]],
      ["credit:add", ["--workspace", ws.id, "--usd", "1.00", "--bogus"]],
      ["credit:adjust", ["--workspace", ws.id, "--usd", "-1.00"]],
      ["credit:refund", ["--workspace", ws.id, "--usd", "1.00"]],
    ] as const;
    for (const [command, argv] of usage) {
      await expect(runBillingAdminCommand(command, [...argv]), `${command} ${argv.join(" ")}`).rejects.toBeInstanceOf(AdminUsageError);
    }
    await expect(runBillingAdminCommand("credit:add", ["--workspace", newId("workspace"), "--usd", "1.00"])).rejects.toThrow(/no workspace/);
    await expect(
      runBillingAdminCommand("credit:adjust", ["--workspace", ws.id, "--usd", "-1.00", "--note", "too much"]),
    ).rejects.toBeInstanceOf(LedgerError);
    expect(await db().ledgerTransaction.count({ where: { workspaceId: ws.id } })).toBe(0);
  });
});
