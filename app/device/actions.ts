"use server";
import { redirect } from "next/navigation";
import { decideDeviceLogin, findPendingDeviceLogin } from "@/lib/auth/device";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { deviceCodeThrottle } from "./throttle";

/** Looks up a typed code; wrong codes count against the signed-in person. */
export async function lookUpCodeAction(form: FormData): Promise<void> {
  const code = String(form.get("code") ?? "").trim();
  const principal = await requireSessionPrincipal(`/device`);
  if (deviceCodeThrottle.retryAfterMs(principal.user.id) > 0) redirect(`/device?error=throttled`);
  if (!(await findPendingDeviceLogin(code))) {
    deviceCodeThrottle.fail(principal.user.id);
    redirect(`/device?error=unknown`);
  }
  redirect(`/device?code=${encodeURIComponent(code)}`);
}

export async function decideAction(form: FormData): Promise<void> {
  const code = String(form.get("code") ?? "");
  const approve = form.get("decision") === "approve";
  const principal = await requireSessionPrincipal(`/device?code=${encodeURIComponent(code)}`);
  const decided = await decideDeviceLogin(principal.user.id, code, approve);
  redirect(`/device?result=${decided ? (approve ? "approved" : "denied") : "gone"}`);
}
