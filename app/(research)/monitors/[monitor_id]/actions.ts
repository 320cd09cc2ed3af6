"use server";
// The monitor page's settings (PATCH /monitors/{id}: name, schedule, budget, judge) and alert
// controls: a test ping to the webhook (POST /monitors/{id}/alerts/test),
// the alert settings (PATCH /monitors/{id} alerts) and a new webhook secret (POST
// /monitors/{id}/webhook-secret/rotate), each the API's own service as the signed-in person, with
// its request schema and access checks (a foreign id is the API's 404).
import { revalidatePath } from "next/cache";
import { testWebhook } from "@/lib/alerts/create";
import { alertOf } from "@/lib/alerts/read";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/input";
import { rotateWebhookSecret, updateMonitor } from "@/lib/monitors/create";
import { MonitorUpdateRequest } from "@/lib/schemas/monitors";
import { inFormWords, type FieldLabels } from "../../../_lib/form-words";
import { acting, field, monitorOf, type MonitorActionState } from "../_lib/acting";

const LABELS: FieldLabels = { "alerts.webhook_url": "Webhook URL", "alerts.min_change": "Smallest change (points)" };
/** How long the ping's answer waits for its first attempt (the webhook has 10 s). */
const PING_WAIT_MS = 12_000;

const refusal = (error: ApiError) => inFormWords(error.message, LABELS);

/** "Send test webhook": a ping now, then how its first attempt went (or that it is still on its way). */
export async function sendTestWebhookAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  return acting(async () => {
    const id = monitorOf(form);
    let alert = await testWebhook(principal, id);
    const deadline = Date.now() + PING_WAIT_MS;
    const first = () => alert.deliveries.find((d) => d.channel === "webhook");
    while (first()?.status === "pending" && first()?.last_status === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      alert = (await alertOf(id, alert.id)) ?? alert;
    }
    revalidatePath(`/monitors/${id}`);
    const d = first();
    if (d?.status === "delivered") return `Test webhook delivered: your endpoint answered ${d.last_status}.`;
    if (!d || d.last_status === null) return { warn: "Test webhook sent; no answer yet. Its delivery is in the table below." };
    return { warn: `Test webhook not delivered: ${d.last_error ?? d.last_status}. It is tried again like any alert (see the deliveries below).` };
  }, refusal);
}

/** The alert settings: the webhook URL (checked by the audit fetcher's address rules), email, the weekly digest, the smallest change. */
export async function updateAlertsAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  return acting(async () => {
    const id = monitorOf(form);
    const minChange = field(form, "min_change");
    const body = parseInput(
      MonitorUpdateRequest,
      {
        alerts: {
          webhook_url: field(form, "webhook_url") ?? null,
          email: form.get("email") === "on",
          digest: form.get("digest") === "on" ? "weekly" : "off",
          ...(minChange !== undefined ? { min_change: /^\d+$/.test(minChange) ? Number(minChange) : minChange } : {}),
        },
      },
      "form",
    );
    await updateMonitor(principal, id, body);
    revalidatePath(`/monitors/${id}`);
    return "Alert settings saved.";
  }, refusal);
}

const SETTING_LABELS: FieldLabels = {
  name: "Name",
  "schedule.every": "Every",
  "schedule.at": "At (UTC)",
  "schedule.weekday": "On",
  monthly_budget_usd: "Monthly budget",
  "judge.engine": "Sentiment judge",
};

/**
 * The settings that keep the monitor's version (PATCH /monitors/{id}): its name, schedule, monthly
 * budget and sentiment judge. Only what the form changed is sent (each field's value when the page
 * was drawn rides along as `was_…`): a schedule sent again would move the next run to the next slot
 * after now, over a slot still to be run.
 */
export async function updateSettingsAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  return acting(
    async () => {
      const id = monitorOf(form);
      const changed = (name: string) => (field(form, name) ?? "") !== (field(form, `was_${name}`) ?? "");
      const every = field(form, "every") ?? "day";
      const weekday = field(form, "weekday");
      const scheduleChanged = changed("every") || changed("at") || (every === "week" && changed("weekday"));
      const judge = field(form, "judge");
      const input = {
        ...(changed("name") && field(form, "name") !== undefined ? { name: field(form, "name") } : {}),
        ...(scheduleChanged
          ? { schedule: { every, at: field(form, "at") ?? "", ...(every === "week" ? { weekday: weekday && /^\d+$/.test(weekday) ? Number(weekday) : (weekday ?? 1) } : {}) } }
          : {}),
        ...(changed("budget") ? { monthly_budget_usd: field(form, "budget") ?? null } : {}),
        ...(changed("judge") ? { judge: judge ? { engine: judge, sentiment: true } : null } : {}),
      };
      if (Object.keys(input).length === 0) return "Nothing changed.";
      await updateMonitor(principal, id, parseInput(MonitorUpdateRequest, input, "form"));
      revalidatePath(`/monitors/${id}`);
      return "Settings saved; the monitor's series goes on (same version).";
    },
    (error) => inFormWords(error.message, SETTING_LABELS),
  );
}

/** A rotation's outcome: the new secret, which the page shows this once. */
export type SecretActionState = MonitorActionState & { secret?: string };

/** "New webhook secret": alerts raised from now on are signed with it; the old one signs none of them. */
export async function rotateWebhookSecretAction(_prev: SecretActionState, form: FormData): Promise<SecretActionState> {
  const principal = await requireSessionPrincipal("/projects");
  try {
    const monitor = await rotateWebhookSecret(principal, monitorOf(form));
    return { ok: true, secret: monitor.webhook_secret, message: "A new webhook secret: alerts raised from now on are signed with it.", at: Date.now() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: refusal(error), at: Date.now() };
    throw error;
  }
}
