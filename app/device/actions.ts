"use server";
import { redirect } from "next/navigation";
import { decideDeviceLogin, findPendingDeviceLogin } from "@/lib/auth/device";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { parseInput } from "@/lib/http/input";
import { deviceCodeForm, deviceDecisionForm } from "@/lib/schemas/auth";
import type { z } from "zod";
import { deviceCodeThrottle } from "./throttle";

/** The form's fields through the shared input parsing; null for what no user code or decision can be (NUL, too long, no decision). */
function parsed<S extends z.ZodType>(schema: S, form: FormData, names: string[]): z.output<S> | null {
  try {
    return parseInput(schema, Object.fromEntries(names.map((name) => [name, form.get(name) ?? ""])), "form");
  } catch {
    return null;
  }
}

/** Looks up a typed code; wrong codes (and text no code can be) count against the signed-in person. */
export async function lookUpCodeAction(form: FormData): Promise<void> {
  const input = parsed(deviceCodeForm, form, ["code"]);
  const principal = await requireSessionPrincipal(`/device`);
  if (deviceCodeThrottle.retryAfterMs(principal.user.id) > 0) redirect(`/device?error=throttled`);
  if (!input || !(await findPendingDeviceLogin(input.code))) {
    deviceCodeThrottle.fail(principal.user.id);
    // The code as typed comes back into the field, to be corrected rather than typed again.
    redirect(`/device?error=unknown${input?.code ? `&typed=${encodeURIComponent(input.code)}` : ""}`);
  }
  redirect(`/device?code=${encodeURIComponent(input.code)}`);
}

export async function decideAction(form: FormData): Promise<void> {
  const input = parsed(deviceDecisionForm, form, ["code", "decision"]);
  const principal = await requireSessionPrincipal(input ? `/device?code=${encodeURIComponent(input.code)}` : "/device");
  // A malformed code or decision decides nothing: it is as gone as an expired code.
  const approve = input?.decision === "approve";
  const decided = input !== null && (await decideDeviceLogin(principal.user.id, input.code, approve));
  redirect(`/device?result=${decided ? (approve ? "approved" : "denied") : "gone"}`);
}
