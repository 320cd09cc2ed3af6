// People: the first sign-in (or the admin command) creates the user and their personal workspace,
// with its promotional credit.
import { grantSignupPromo } from "../billing/ledger";
import { db, type Tx } from "../db/client";
import { newId } from "../db/ids";
import { sqlIn } from "../db/sql";
import { personalWorkspaceId } from "../workspaces/access";
import { createPersonalWorkspace } from "../workspaces/create";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type UserWithWorkspace = { id: string; email: string; name: string | null; personalWorkspaceId: string };

/** Finds the user with this email, or creates them with their personal workspace; idempotent. */
export async function ensureUser(emailInput: string, name: string | null = null): Promise<UserWithWorkspace & { created: boolean }> {
  const email = normaliseEmail(emailInput);
  return db().$transaction(async (tx) => {
    // The workspaces' statements run in this Prisma transaction (lib/workspaces owns that table).
    const sql = sqlIn(tx);
    const existing = await tx.user.findUnique({ where: { email } });
    const owned = existing ? await personalWorkspaceId(sql, existing.id) : undefined;
    if (existing && owned) {
      return { id: existing.id, email, name: existing.name, personalWorkspaceId: owned, created: false };
    }
    const user = existing ?? (await tx.user.create({ data: { id: newId("user"), email, name } }));
    const workspace = await createPersonalWorkspace(sql, { userId: user.id, email, name });
    await grantSignupPromo(tx, workspace.id);
    return { id: user.id, email, name: user.name, personalWorkspaceId: workspace.id, created: true };
  });
}

/** The user with this id, or null. */
export function findUserById(id: string) {
  return db().user.findUnique({ where: { id } });
}

/** The user with this email (already normalised), or null. */
export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email } });
}

/** The user with this id, inside the caller's transaction; throws when there is none. */
export function findUserOrThrow(tx: Tx, id: string) {
  return tx.user.findUniqueOrThrow({ where: { id } });
}

/** Sets a user's name, verified time and picture; a field left undefined is kept as it is. */
export function updateUserProfile(id: string, profile: { name?: string | null; emailVerified?: Date | null; image?: string | null }) {
  return db().user.update({
    where: { id },
    data: {
      ...(profile.name !== undefined ? { name: profile.name } : {}),
      ...(profile.emailVerified !== undefined ? { emailVerified: profile.emailVerified } : {}),
      ...(profile.image !== undefined ? { image: profile.image } : {}),
    },
  });
}
