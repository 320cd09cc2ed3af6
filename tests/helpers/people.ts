// Sets up people and credentials for API tests through the same services the app uses.
import { ensureUser } from "@/lib/accounts/users";
import { issueApiKey } from "@/lib/auth/api-keys";
import { decideDeviceLogin } from "@/lib/auth/device";
import { pollDeviceLogin, startDeviceLogin } from "@/lib/auth/create";
import { db } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";

export type Person = { id: string; email: string; workspaceId: string; apiKey: string; apiKeyId: string; cliToken: string; cliTokenId: string };

/** A person with a personal workspace, an API key for it, and a CLI token from a real device login. */
export async function person(email: string): Promise<Person> {
  const user = await ensureUser(email);
  const key = await issueApiKey(user.id, user.personalWorkspaceId, `${email} key`);
  const cli = await cliLogin(user.id);
  return { id: user.id, email: user.email, workspaceId: user.personalWorkspaceId, apiKey: key.key, apiKeyId: key.id, ...cli };
}

export async function cliLogin(userId: string, clientName = "test laptop"): Promise<{ cliToken: string; cliTokenId: string }> {
  const start = await startDeviceLogin(clientName);
  await decideDeviceLogin(userId, start.user_code, true);
  const poll = await pollDeviceLogin(start.device_code);
  if (poll.status !== "approved" || !poll.token || !poll.token_id) throw new Error(`device login did not approve: ${poll.status}`);
  return { cliToken: poll.token, cliTokenId: poll.token_id };
}

/** Adds `userId` to a workspace directly, as an accepted invitation would. */
export async function addMember(workspaceId: string, userId: string, role: "admin" | "member") {
  return db().membership.create({ data: { workspaceId, userId, role } });
}

/** The person acting through their CLI token, for calling services directly. */
export function principalOf(p: Person): Principal {
  return { user: { id: p.id, email: p.email }, credential: { kind: "cli_token", id: p.cliTokenId, name: "test" }, workspaceId: null, apiKeyId: null };
}
