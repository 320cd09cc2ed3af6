"use server";
import { redirect } from "next/navigation";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { acceptInvitation } from "@/lib/workspaces/invitations";

export async function acceptAction(form: FormData): Promise<void> {
  const token = String(form.get("token") ?? "");
  const principal = await requireSessionPrincipal(`/invite/${token}`);
  try {
    await acceptInvitation(principal.user.id, token);
  } catch (error) {
    if (error instanceof ApiError) redirect(`/invite/${token}?error=${encodeURIComponent(error.message)}`);
    throw error;
  }
  redirect("/account#workspaces");
}
