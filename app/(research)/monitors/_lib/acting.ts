// What the monitor pages' server actions share: reading a form's fields, the monitor it names
// (checked as the API checks the path's id: a malformed one is a missing one), and an action's
// outcome as the page shows it (a refusal in the form's words, the time it answered).
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { parseParams } from "@/lib/http/input";
import { MonitorId } from "@/lib/schemas/monitors";

/** `at`: when the action answered, so the page shows the latest outcome. */
export type MonitorActionState = { ok: boolean; message?: string; at?: number; warn?: boolean };

/** A field as typed, trimmed; undefined when empty. */
export function field(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** The monitor the form names, its id checked as the API checks the path's (malformed = missing). */
export function monitorOf(form: FormData): string {
  return parseParams(z.object({ monitor_id: MonitorId }), { monitor_id: field(form, "id") ?? "" }).monitor_id;
}

/** Runs an action's work: what it says (a warning when it says `{warn}`), or the API's refusal in `refusal`'s words. */
export async function acting(work: () => Promise<string | { warn: string }>, refusal: (error: ApiError) => string): Promise<MonitorActionState> {
  try {
    const said = await work();
    return typeof said === "string" ? { ok: true, message: said, at: Date.now() } : { ok: true, message: said.warn, warn: true, at: Date.now() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: refusal(error), at: Date.now() };
    throw error;
  }
}
