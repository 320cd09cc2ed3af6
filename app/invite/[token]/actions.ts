"use server";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { sessionPrincipal } from "@/lib/auth/session";
import { config } from "@/lib/config/env";
import { ApiError, notFound } from "@/lib/http/errors";
import { InvitationToken } from "@/lib/schemas/workspaces";
import { acceptInvitation } from "@/lib/workspaces/create";
import { INVITATION_COOKIE, INVITATION_RESUME_PATH } from "../resume/cookie";

export async function acceptAction(form: FormData): Promise<void> {
  const posted = form.get("token");
  const token = typeof posted === "string" ? posted : "";
  // Encoded: a posted token is any text (a NUL in a Location header would be a 500, a "/" another path).
  const invitationPath = `/invite/${encodeURIComponent(token)}`;
  // Signed out meanwhile: back to the invitation, which offers sign-in (never a sign-in URL carrying the token).
  const principal = await sessionPrincipal();
  if (!principal) redirect(invitationPath);
  try {
    // Text no invitation token can be is no such invitation (and never reaches the database).
    if (!InvitationToken.safeParse(token).success) throw notFound("invitation");
    await acceptInvitation(principal.user.id, token);
  } catch (error) {
    if (error instanceof ApiError) redirect(`${invitationPath}?error=${encodeURIComponent(error.message)}`);
    throw error;
  }
  redirect("/account#workspaces");
}

/**
 * Before a signed-out invitee asks for a sign-in link: keeps the token in a cookie of this
 * browser, so the link's callback is INVITATION_RESUME_PATH rather than a URL holding the token
 * (the sign-in link is written to the server log when no mail server is set).
 */
export async function rememberInvitationAction(token: string): Promise<string> {
  if (!InvitationToken.safeParse(token).success) return "/account";
  (await cookies()).set(INVITATION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: config().PUBLIC_BASE_URL.startsWith("https:"),
    path: "/invite",
    maxAge: 24 * 60 * 60,
  });
  return INVITATION_RESUME_PATH;
}
