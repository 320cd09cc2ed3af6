// Browser sign-in with next-auth: an emailed sign-in link (SMTP_URL), or, with no mail server,
// the link written to the server log. GitHub and Google sign-in switch on with their env vars.
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "next-auth/adapters";
import type { NextAuthOptions } from "next-auth";
import EmailProvider from "next-auth/providers/email";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { ensureUser, findUserByEmail, findUserById, normaliseEmail, updateUserProfile } from "../accounts/users";
import { authSecret } from "../config/secret";
import { config } from "../config/env";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { unstorableStrings } from "../http/input";
import { log } from "../log";
import { mailConfigured, sendMail } from "../mail/mailer";
import { hashSecret } from "./secrets";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

function adapterUser(u: { id: string; email: string; name: string | null; emailVerified: Date | null; image: string | null }): AdapterUser {
  return { id: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified, image: u.image };
}

/** next-auth's storage on our schema; session tokens are kept only as hashes. */
export const prismaAdapter: Adapter = {
  async createUser(user: Omit<AdapterUser, "id">) {
    const created = await ensureUser(user.email, user.name ?? null);
    const row = await updateUserProfile(created.id, { emailVerified: user.emailVerified ?? null, image: user.image ?? null });
    return adapterUser(row);
  },
  async getUser(id) {
    const row = await findUserById(id);
    return row ? adapterUser(row) : null;
  },
  async getUserByEmail(email) {
    const row = await findUserByEmail(normaliseEmail(email));
    return row ? adapterUser(row) : null;
  },
  async getUserByAccount({ provider, providerAccountId }) {
    const account = await db().account.findUnique({
      where: { provider_providerAccountId: { provider, providerAccountId } },
      include: { user: true },
    });
    return account ? adapterUser(account.user) : null;
  },
  async updateUser(user) {
    const row = await updateUserProfile(user.id, { name: user.name, emailVerified: user.emailVerified, image: user.image });
    return adapterUser(row);
  },
  async linkAccount(account: AdapterAccount) {
    await db().account.create({
      data: {
        id: newId("account"),
        userId: account.userId,
        type: account.type,
        provider: account.provider,
        providerAccountId: account.providerAccountId,
        refresh_token: account.refresh_token ?? null,
        access_token: account.access_token ?? null,
        expires_at: account.expires_at ?? null,
        token_type: account.token_type ?? null,
        scope: account.scope ?? null,
        id_token: account.id_token ?? null,
        session_state: typeof account.session_state === "string" ? account.session_state : null,
      },
    });
  },
  async createSession({ sessionToken, userId, expires }) {
    await db().session.create({ data: { id: newId("session"), sessionTokenHash: hashSecret(sessionToken), userId, expires } });
    return { sessionToken, userId, expires };
  },
  async getSessionAndUser(sessionToken) {
    const row = await db().session.findUnique({ where: { sessionTokenHash: hashSecret(sessionToken) }, include: { user: true } });
    if (!row) return null;
    return { session: { sessionToken, userId: row.userId, expires: row.expires }, user: adapterUser(row.user) };
  },
  async updateSession({ sessionToken, expires }): Promise<AdapterSession | null> {
    const rows = await db().session.updateMany({
      where: { sessionTokenHash: hashSecret(sessionToken) },
      data: expires ? { expires } : {},
    });
    if (rows.count === 0) return null;
    const row = await db().session.findUniqueOrThrow({ where: { sessionTokenHash: hashSecret(sessionToken) } });
    return { sessionToken, userId: row.userId, expires: row.expires };
  },
  async deleteSession(sessionToken) {
    await db().session.deleteMany({ where: { sessionTokenHash: hashSecret(sessionToken) } });
  },
  // next-auth hands us the verification token already hashed with its secret.
  async createVerificationToken({ identifier, token, expires }) {
    await db().verificationToken.create({ data: { identifier: normaliseEmail(identifier), tokenHash: token, expires } });
    return { identifier, token, expires };
  },
  async useVerificationToken({ identifier, token }) {
    const row = await db().verificationToken.findUnique({ where: { tokenHash: token } });
    if (!row || row.identifier !== normaliseEmail(identifier)) return null;
    // Single use: only the caller whose delete removed the row gets it.
    const removed = await db().verificationToken.deleteMany({ where: { tokenHash: token } });
    if (removed.count !== 1) return null;
    return { identifier: row.identifier, token, expires: row.expires };
  },
};

/**
 * The address a sign-in form gave, as next-auth's default normaliser makes it (NFKC, trimmed, lower
 * case, one "@" and no quotes, the first of a comma list, a dot in the domain), and refused like any
 * input holding NUL or half a surrogate pair (lib/http/input.ts): it would reach the database, where
 * NUL was a 500 to anyone signed out. A refusal is next-auth's EmailSignin error on the sign-in page.
 */
export function signInEmail(identifier: string): string {
  const invalid = () => new Error("Invalid email address format.");
  if (unstorableStrings(identifier, "email").length > 0) throw invalid();
  const trimmed = identifier.normalize("NFKC").trim();
  if ((trimmed.match(/@/g) ?? []).length !== 1 || trimmed.includes('"')) throw invalid();
  const [local, domain] = trimmed.toLowerCase().split("@");
  const host = domain?.split(",")[0];
  if (!local || !host || !host.includes(".")) throw invalid();
  return `${local}@${host}`;
}

export function authOptions(): NextAuthOptions {
  const c = config();
  process.env.NEXTAUTH_URL ??= c.PUBLIC_BASE_URL;
  const providers: NextAuthOptions["providers"] = [
    EmailProvider({
      from: c.MAIL_FROM,
      maxAge: 24 * 60 * 60,
      normalizeIdentifier: signInEmail,
      async sendVerificationRequest({ identifier, url }) {
        if (!mailConfigured()) {
          // No mail server: the documented fallback of `npm start` is the server log.
          log.info("sign-in link (no SMTP_URL set, so it was not mailed)", { email: identifier, url });
          return;
        }
        const sent = await sendMail({
          to: identifier,
          subject: "Your geoscope sign-in link",
          text: `Open this link to sign in to geoscope (it works once, for 24 hours):\n${url}\n\nIf you did not ask for it, ignore this mail.`,
        });
        if (!sent) throw new Error("The sign-in mail could not be sent.");
      },
    }),
  ];
  if (c.GITHUB_ID && c.GITHUB_SECRET) providers.push(GitHubProvider({ clientId: c.GITHUB_ID, clientSecret: c.GITHUB_SECRET }));
  if (c.GOOGLE_ID && c.GOOGLE_SECRET) providers.push(GoogleProvider({ clientId: c.GOOGLE_ID, clientSecret: c.GOOGLE_SECRET }));
  return {
    adapter: prismaAdapter,
    secret: authSecret(),
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", signOut: "/signout", verifyRequest: "/signin/check-email", error: "/signin" },
    providers,
    logger: {
      error: (code, metadata) => log.error(`next-auth ${code}`, { metadata: metadata instanceof Error ? metadata.message : String(code) }),
      warn: (code) => log.warn(`next-auth ${code}`),
      debug: () => {},
    },
  };
}
