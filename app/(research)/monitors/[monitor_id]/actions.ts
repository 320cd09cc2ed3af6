"use server";
// The monitor page's settings (PATCH /monitors/{id}: name, schedule, budget, judge), what it
// measures (prompts, engines, runs, market, brands: a new version; POST /monitors/estimate for
// what that would cost) and alert
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
import { estimateMonitor, rotateWebhookSecret, updateMonitor } from "@/lib/monitors/create";
import { keptPrompts } from "@/lib/monitors/prompts";
import { getMonitor } from "@/lib/monitors/read";
import { getProject } from "@/lib/projects/read";
import { MonitorRequest, MonitorUpdateRequest, type MonitorEstimate } from "@/lib/schemas/monitors";
import { entitiesFromContext, type EntityContext } from "@/lib/visibility/entities";
import type { z } from "zod";
import { inFormWords, type FieldLabels } from "../../../_lib/form-words";
import { acting, field, monitorOf, type MonitorActionState } from "../_lib/acting";
import { sameEngines } from "../_lib/measure";
import { promptBoxes, promptLines } from "../../_lib/lines";

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

const MEASURE_LABELS: FieldLabels = {
  prompts: "Prompts",
  "prompts[].text": "Prompt {n}",
  "prompts[].source": "Prompt {n}'s question",
  engines: "Engines",
  runs: "Runs of each prompt on each engine",
  "location.country": "Country",
  "location.city": "City",
  language: "Language",
  entities: "Brands and competitors",
};

/** A measure's outcome; `estimate`: what a tick of the fields as typed would cost and could see (nothing changed). */
export type MeasureActionState = MonitorActionState & { estimate?: z.input<typeof MonitorEstimate> };

/**
 * What the monitor measures (PATCH /monitors/{id}): its prompts (one per line; a line that was a
 * prompt keeps that prompt's question and market), engines, runs, market and, when asked, the
 * project's brands and competitors as they are now. Only what the form changed is sent (each
 * field's value when the page was drawn rides along as `was_…`); a change is version + 1, a new
 * series. `intent=estimate` prices a tick of the fields as typed instead (POST /monitors/estimate)
 * and changes nothing.
 */
export async function updateMeasureAction(_prev: MeasureActionState, form: FormData): Promise<MeasureActionState> {
  const principal = await requireSessionPrincipal("/projects");
  let estimate: MeasureActionState["estimate"];
  const outcome = await acting(
    async () => {
      const id = monitorOf(form);
      const monitor = await getMonitor(principal, id);
      const changed = (name: string) => (field(form, name) ?? "") !== (field(form, `was_${name}`) ?? "");
      // One box per prompt (a prompt spans several lines) or one prompt per line.
      const each = form.get("prompts_mode") === "each";
      const given = each || form.get("prompts") !== null;
      const typed = each ? promptBoxes(form.getAll("prompt")) : promptLines(form.get("prompts"));
      const were = each ? promptBoxes(form.getAll("was_prompt")) : promptLines(form.get("was_prompts"));
      const engines = form.getAll("engines").filter((v): v is string => typeof v === "string" && v !== "");
      const runs = field(form, "runs");
      const country = field(form, "country");
      const city = field(form, "city");
      const entities =
        form.get("entities") === "project" ? entitiesFromContext(((await getProject(principal, monitor.project))?.context ?? {}) as EntityContext) : undefined;
      if (given && typed.length === 0) throw new ApiError("invalid_request", each ? "Prompts: give at least one prompt." : "Prompts: give at least one prompt, one per line.");
      if (engines.length === 0) throw new ApiError("invalid_request", "Engines: tick at least one engine.");
      if (entities?.length === 0) throw new ApiError("invalid_request", "Brands and competitors: the project names none now; add them on the project's page.");
      const input = {
        ...(given && JSON.stringify(typed) !== JSON.stringify(were) ? { prompts: keptPrompts(typed, monitor.prompts) } : {}),
        ...(!sameEngines(engines, (field(form, "was_engines") ?? "").split(",")) ? { engines } : {}),
        ...(changed("runs") ? { runs: runs && /^\d+$/.test(runs) ? Number(runs) : (runs ?? "") } : {}),
        ...(changed("country") || changed("city") ? { location: country ? { country, ...(city ? { city } : {}) } : null } : {}),
        ...(changed("language") ? { language: field(form, "language") ?? null } : {}),
        ...(entities ? { entities: entities.map((e) => ({ name: e.name, role: e.role, aliases: e.aliases, domains: e.domains, case_sensitive: e.case_sensitive })) } : {}),
      };
      if (city && !country) throw new ApiError("invalid_request", "City: choose its country first.");
      if (field(form, "intent") === "estimate") {
        const asked = parseInput(MonitorUpdateRequest, input, "form");
        const body = parseInput(
          MonitorRequest,
          {
            project: monitor.project,
            prompts: asked.prompts ?? keptPrompts(monitor.prompts.map((p) => p.text), monitor.prompts),
            engines: asked.engines ?? monitor.engines,
            runs: asked.runs ?? monitor.runs,
            entities: asked.entities ?? monitor.entities,
            schedule: { every: monitor.schedule.every, at: monitor.schedule.at, ...(monitor.schedule.every === "week" ? { weekday: monitor.schedule.weekday } : {}) },
            ...(monitor.monthly_budget_usd ? { monthly_budget_usd: monitor.monthly_budget_usd } : {}),
            ...(monitor.judge ? { judge: { engine: monitor.judge.engine, sentiment: true } } : {}),
            alerts: { min_change: monitor.alerts.min_change },
          },
          "form",
        );
        estimate = await estimateMonitor(principal, body);
        // The estimate says it all (and that nothing was changed); no line under the form.
        return "";
      }
      if (Object.keys(input).length === 0) return "Nothing changed.";
      const updated = await updateMonitor(principal, id, parseInput(MonitorUpdateRequest, input, "form"));
      revalidatePath(`/monitors/${id}`);
      if (updated.version === monitor.version) return `That is what it measures already: still version ${updated.version}.`;
      return `What it measures changed: version ${updated.version}, a new series from the next tick. Version ${monitor.version}'s series stays readable on this page (Version, above the charts).`;
    },
    (error) => inFormWords(error.message, MEASURE_LABELS),
  );
  return estimate && outcome.ok ? { ...outcome, estimate } : outcome;
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
