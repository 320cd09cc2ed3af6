// The signed-in browser user, for server components and server actions.
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { findUserByEmail } from "../accounts/users";
import { authOptions } from "./nextauth";
import type { Principal } from "./principal";

/** The browser session's principal, or null when nobody is signed in. */
export async function sessionPrincipal(): Promise<Principal | null> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  if (!email) return null;
  const user = await findUserByEmail(email);
  if (!user) return null;
  return {
    user: { id: user.id, email: user.email },
    credential: { kind: "session", id: user.id, name: "browser" },
    workspaceId: null,
    apiKeyId: null,
  };
}

/** The principal, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireSessionPrincipal(returnTo: string): Promise<Principal> {
  const principal = await sessionPrincipal();
  if (!principal) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return principal;
}
