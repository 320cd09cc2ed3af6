// CLI device login (spec 5.4, RFC 8628): the CLI starts, the person compares the user code in
// the browser and approves or denies, the CLI polls and receives its token exactly once.
import { randomInt } from "node:crypto";
import type { z } from "zod";
import { findUserOrThrow } from "../accounts/users";
import { config } from "../config/env";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import type { CLIAuthPoll, CLIAuthStart } from "../schemas/auth";
import { CLI_TOKEN_IDLE_LIFETIME_MS } from "./authenticate";
import { insertCliToken, revokeCliTokenById } from "./cli-tokens";
import type { Principal } from "./principal";
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

export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function newUserCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

export async function startDeviceLogin(clientName: string): Promise<z.input<typeof CLIAuthStart>> {
  const { PUBLIC_BASE_URL, DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } = config();
  const deviceCode = newSecret();
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await db().deviceCode.create({
        data: {
          id: newId("deviceCode"),
          deviceCodeHash: hashSecret(deviceCode),
          userCode,
          clientName,
          intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
          expiresAt: new Date(Date.now() + DEVICE_CODE_TTL_SECONDS * 1000),
        },
      });
      const verification = `${PUBLIC_BASE_URL}/device`;
      return {
        device_code: deviceCode,
        user_code: formatUserCode(userCode),
        verification_uri: verification,
        verification_uri_complete: `${verification}?code=${formatUserCode(userCode)}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    } catch (error) {
      // 20^8 codes: a clash with a live one is rare, but is retried rather than failed.
      if (attempt < 5 && (error as { code?: string }).code === "P2002") continue;
      throw error;
    }
  }
}

type Poll = z.input<typeof CLIAuthPoll>;
const answer = (status: Poll["status"]): Poll => ({ status, token: null, token_id: null, email: null });

export async function pollDeviceLogin(deviceCode: string): Promise<Poll> {
  const row = await db().deviceCode.findUnique({ where: { deviceCodeHash: hashSecret(deviceCode) } });
  if (!row) {
    throw new ApiError("invalid_request", "device_code: unknown device code; start again with POST /cli/auth/start.");
  }
  const now = new Date();
  if (row.status === "spent" || row.expiresAt <= now) return answer("expired");

  // Polling faster than the interval is answered slow_down, and the interval grows (RFC 8628 3.5).
  const tooSoon = row.lastPolledAt && now.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000;
  await db().deviceCode.update({
    where: { id: row.id },
    data: { lastPolledAt: now, ...(tooSoon ? { intervalSeconds: row.intervalSeconds + SLOW_DOWN_STEP_SECONDS } : {}) },
  });
  if (tooSoon) return answer("slow_down");
  if (row.status === "pending") return answer("pending");
  if (row.status === "denied") return answer("denied");

  // Approved: hand out the token exactly once, even to two polls racing each other.
  return db().$transaction(async (tx) => {
    const claimed = await tx.deviceCode.updateMany({ where: { id: row.id, status: "approved" }, data: { status: "spent" } });
    if (claimed.count !== 1) return answer("expired");
    const user = await findUserOrThrow(tx, row.approvedByUserId!);
    const token = newSecret(SECRET_PREFIX.cliToken);
    const cliToken = await insertCliToken(tx, {
      userId: user.id,
      name: row.clientName,
      tokenHash: hashSecret(token),
      expiresAt: new Date(now.getTime() + CLI_TOKEN_IDLE_LIFETIME_MS),
    });
    await tx.deviceCode.update({ where: { id: row.id }, data: { cliTokenId: cliToken.id } });
    return { status: "approved" as const, token, token_id: cliToken.id, email: user.email };
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

/** DELETE /cli/auth/token: revokes the CLI token the request was made with. */
export async function revokeCurrentCliToken(principal: Principal): Promise<void> {
  if (principal.credential.kind !== "cli_token") {
    throw new ApiError("invalid_request", "This request was not made with a CLI token; revoke API keys with DELETE /api-keys/{key_id}.");
  }
  await revokeCliTokenById(principal.credential.id);
}
