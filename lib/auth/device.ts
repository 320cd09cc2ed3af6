// CLI device login (spec 5.4, RFC 8628): the CLI starts, the person compares the user code in
// the browser and approves or denies, the CLI polls and receives its token exactly once. The
// requests' services are in ./create.ts; this file holds device_codes' statements and rules.
import { randomInt } from "node:crypto";
import { findUserOrThrow } from "../accounts/users";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { CLI_TOKEN_IDLE_LIFETIME_MS } from "./authenticate";
import { insertCliToken } from "./cli-tokens";
import { formatUserCode } from "./present";
import { SECRET_PREFIX, hashSecret, newSecret } from "./secrets";

// RFC 8628 section 6.1: consonants only, so no words and no look-alike characters.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const SLOW_DOWN_STEP_SECONDS = 5;

/** Upper case, no dashes or spaces: how a user code is stored and compared. */
export function normaliseUserCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "");
}

const USER_CODE = new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`);

/**
 * The stored form of a typed user code, or null for text that no user code can be (a NUL or
 * anything else outside the alphabet): like a malformed id, it is unknown without asking the database.
 */
function storedUserCode(input: string): string | null {
  const code = normaliseUserCode(input);
  return USER_CODE.test(code) ? code : null;
}

function newUserCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/**
 * Stores a new pending login for `deviceCode` (kept only as a hash) under a new user code, which
 * it answers (stored form).
 */
export async function insertDeviceLogin(
  deviceCode: string,
  login: { clientName: string; intervalSeconds: number; ttlSeconds: number },
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await db().deviceCode.create({
        data: {
          id: newId("deviceCode"),
          deviceCodeHash: hashSecret(deviceCode),
          userCode,
          clientName: login.clientName,
          intervalSeconds: login.intervalSeconds,
          expiresAt: new Date(Date.now() + login.ttlSeconds * 1000),
        },
      });
      return userCode;
    } catch (error) {
      // 20^8 codes: a clash with a live one is rare, but is retried rather than failed.
      if (attempt < 5 && (error as { code?: string }).code === "P2002") continue;
      throw error;
    }
  }
}

/** The login started with this device code, or null. */
export function findDeviceLogin(deviceCode: string) {
  return db().deviceCode.findUnique({ where: { deviceCodeHash: hashSecret(deviceCode) } });
}

type PolledLogin = { id: string; lastPolledAt: Date | null; intervalSeconds: number };

/**
 * Records a poll at `now`; true when it came sooner than the interval allows: it is then
 * answered slow_down, and the interval grows (RFC 8628 3.5).
 */
export async function recordDevicePoll(row: PolledLogin, now: Date): Promise<boolean> {
  const tooSoon = row.lastPolledAt && now.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000;
  await db().deviceCode.update({
    where: { id: row.id },
    data: { lastPolledAt: now, ...(tooSoon ? { intervalSeconds: row.intervalSeconds + SLOW_DOWN_STEP_SECONDS } : {}) },
  });
  return Boolean(tooSoon);
}

/**
 * Hands out an approved login's CLI token exactly once, even to two polls racing each other: the
 * token (its secret shown this once, stored only as a hash), or null when another poll took it.
 */
export async function handOutCliToken(
  row: { id: string; clientName: string; approvedByUserId: string | null },
  now: Date,
): Promise<{ token: string; tokenId: string; email: string } | null> {
  return db().$transaction(async (tx) => {
    const claimed = await tx.deviceCode.updateMany({ where: { id: row.id, status: "approved" }, data: { status: "spent" } });
    if (claimed.count !== 1) return null;
    const user = await findUserOrThrow(tx, row.approvedByUserId!);
    const token = newSecret(SECRET_PREFIX.cliToken);
    const cliToken = await insertCliToken(tx, {
      userId: user.id,
      name: row.clientName,
      tokenHash: hashSecret(token),
      expiresAt: new Date(now.getTime() + CLI_TOKEN_IDLE_LIFETIME_MS),
    });
    await tx.deviceCode.update({ where: { id: row.id }, data: { cliTokenId: cliToken.id } });
    return { token, tokenId: cliToken.id, email: user.email };
  });
}

export type DeviceRequest = { userCode: string; clientName: string; expiresAt: Date };

/** A pending, unexpired login for this user code, for the approval page to show. */
export async function findPendingDeviceLogin(userCodeInput: string): Promise<DeviceRequest | null> {
  const userCode = storedUserCode(userCodeInput);
  if (userCode === null) return null;
  const row = await db().deviceCode.findUnique({ where: { userCode } });
  if (!row || row.status !== "pending" || row.expiresAt <= new Date()) return null;
  return { userCode: formatUserCode(row.userCode), clientName: row.clientName, expiresAt: row.expiresAt };
}

/**
 * Approves or denies a pending login. Returns false when it was no longer pending (expired,
 * already decided): approve and deny racing leave exactly one outcome.
 */
export async function decideDeviceLogin(userId: string, userCodeInput: string, approve: boolean): Promise<boolean> {
  const userCode = storedUserCode(userCodeInput);
  if (userCode === null) return false;
  const decided = await db().deviceCode.updateMany({
    where: { userCode, status: "pending", expiresAt: { gt: new Date() } },
    data: { status: approve ? "approved" : "denied", approvedByUserId: userId, decidedAt: new Date() },
  });
  return decided.count === 1;
}
