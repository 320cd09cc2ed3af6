"use server";
// The monitor pages' form actions: each calls the same service as the API, as the signed-in
// person, with the API's request schema and access checks (a foreign id is the API's 404).
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/input";
import { reachableMonitorRow } from "@/lib/monitors/read";
import { createMonitor, deleteMonitor, estimateMonitor, runMonitor, updateMonitor } from "@/lib/monitors/create";
import { MonitorRequest, MonitorUpdateRequest, type MonitorEstimate } from "@/lib/schemas/monitors";
import type { z } from "zod";
import { inFormWords, withoutBillingAddress, type FieldLabels } from "../../_lib/form-words";
import { acting, field, monitorOf, type MonitorActionState } from "./_lib/acting";
import { marketOf } from "../_lib/market";
import { promptLines } from "../_lib/lines";
import { trackedSource } from "./_lib/source";

/** `created`: the new monitor and its webhook secret, which is shown this once (as the 201 of POST /monitors has it). */
export type MonitorFormState = {
  ok: boolean;
  message?: string;
  created?: { id: string; name: string; secret: string };
  /** "What it costs and can see" (intent=estimate): POST /monitors/estimate of the same fields; nothing is created. */
  estimate?: z.input<typeof MonitorEstimate>;
};
export type { MonitorActionState };

// The form's labels by the request paths its fields fill: refusals are shown in these words.
const LABELS: FieldLabels = {
  name: "Name",
  runs: "Runs of each prompt on each engine",
  engines: "Engines",
  "schedule.every": "Every",
  "schedule.at": "Time (UTC)",
  "schedule.weekday": "Weekday",
  monthly_budget_usd: "Monthly budget",
  "judge.engine": "Sentiment judge",
  entities: "Brands and competitors",
  prompts: "Prompts",
  "prompts[].text": "Prompt {n}",
  "prompts[].source": "Prompt {n}'s question",
  "location.country": "Country",
  "location.city": "City",
  language: "Language",
};

/** A whole number typed in a form, or the text as typed (the schema then names the field). */
function int(form: FormData, name: string): number | string | undefined {
  const raw = field(form, name);
  if (raw === undefined) return undefined;
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

function refusal(error: ApiError): string {
  return error.code === "insufficient_credit" ? withoutBillingAddress(error.message) : inFormWords(error.message, LABELS);
}

/**
 * "Track these prompts": a monitor of a fanout's prompts or of a questions cluster, or "New
 * monitor" of a project with prompts typed one per line and a market; its entities the project's. Answers the monitor with its webhook secret, for the form to show once.
 */
export async function createMonitorAction(_prev: MonitorFormState, form: FormData): Promise<MonitorFormState> {
  const principal = await requireSessionPrincipal("/projects");
  try {
    const source = await trackedSource(principal, field(form, "from"), field(form, "cluster"));
    // A project's new monitor: the prompts typed, one per line, and the monitor's market.
    const typed = source.kind === "project" ? promptLines(form.get("prompts")).map((text) => ({ text })) : null;
    if (typed?.length === 0) throw new ApiError("invalid_request", "Prompts: give at least one prompt, one per line.");
    const market = source.kind === "project" ? marketOf(form) : {};
    const engines = form.getAll("engines").filter((v): v is string => typeof v === "string" && v !== "");
    if (engines.length === 0) throw new ApiError("invalid_request", "Tick at least one engine.");
    const every = field(form, "every") ?? "day";
    const body = parseInput(
      MonitorRequest,
      {
        project: source.project,
        name: field(form, "name"),
        prompts: typed ?? source.prompts,
        ...market,
        engines,
        runs: int(form, "runs"),
        schedule: { every, at: field(form, "at") ?? "06:00", ...(every === "week" ? { weekday: int(form, "weekday") } : {}) },
        ...(field(form, "budget") !== undefined ? { monthly_budget_usd: field(form, "budget") } : {}),
        ...(field(form, "judge") !== undefined ? { judge: { engine: field(form, "judge"), sentiment: true } } : {}),
      },
      "form",
    );
    if (field(form, "intent") === "estimate") return { ok: true, estimate: await estimateMonitor(principal, body) };
    const monitor = await createMonitor(principal, body);
    revalidatePath(`/projects/${monitor.project}`);
    return { ok: true, created: { id: monitor.id, name: monitor.name, secret: monitor.webhook_secret } };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: refusal(error) };
    throw error;
  }
}

export async function setMonitorStatusAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  return acting(async () => {
    const id = monitorOf(form);
    const body = parseInput(MonitorUpdateRequest, { status: field(form, "status") }, "form");
    const monitor = await updateMonitor(principal, id, body);
    revalidatePath(`/monitors/${id}`);
    return monitor.status === "paused" ? "Paused: no tick is made until you resume it." : "Resumed: the next tick is at its next slot.";
  }, refusal);
}

export async function runMonitorAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  return acting(async () => {
    const id = monitorOf(form);
    const tick = await runMonitor(principal, id);
    revalidatePath(`/monitors/${id}`);
    if (tick.skip_reason === "insufficient_credit") return { warn: "Skipped: your workspace's credit does not cover a tick. Nothing was started." };
    if (tick.skip_reason === "budget_exhausted") return { warn: "Skipped: a tick would pass this monitor's monthly budget. Nothing was started." };
    return "A tick is running now: its fanout is in the table below.";
  }, refusal);
}

export async function deleteMonitorAction(_prev: MonitorActionState, form: FormData): Promise<MonitorActionState> {
  const principal = await requireSessionPrincipal("/projects");
  let project: string;
  try {
    const id = monitorOf(form);
    project = (await reachableMonitorRow(principal, id)).projectId;
    await deleteMonitor(principal, id);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: refusal(error), at: Date.now() };
    throw error;
  }
  revalidatePath(`/projects/${project}`);
  redirect(`/projects/${project}?monitor_deleted=1`);
}
