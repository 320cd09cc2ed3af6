// Monitors and their ticks as the API shows them: rows in (./rows.ts), JSON out. A tick's status
// and charge are stored once it closes; while its fanout runs they are its live figures, read
// with the row, so a tick always says what its fanout says.
import type { z } from "zod";
import { formatUsd } from "../billing/money";
import { billingSettings } from "../billing/settings";
import { statusOfCounts } from "../runs/status";
import type { Monitor, MonitorSummary, Tick, TickSummary } from "../schemas/monitors";
import type { ENGINE_IDS } from "../schemas/common";
import { tickSummary } from "../words/ticks";
import type { MonitorRow, StoredPrompt, TickRow } from "./rows";
import { scheduleOf } from "./schedule";
import type { TickFigures } from "./series";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A tick's status: stored once closed; while its fanout runs, the fanout's (running until the tick closes). */
function tickStatus(row: TickRow): z.input<typeof Tick>["status"] {
  if (row.completedAt || !row.fanoutId) return row.status;
  return statusOfCounts(row.live, row.live.started) === "queued" ? "queued" : "running";
}

type EngineIdValue = (typeof ENGINE_IDS)[number];

/** `figures`: what tickFiguresOf read for the tick's summary (a tick not in it has no figures yet). */
export function presentTickSummary(row: TickRow, figures: TickFigures, billingEnabled = billingSettings().enabled): z.input<typeof TickSummary> {
  const charged = row.completedAt ? (row.chargedMicros ?? 0n) : row.live.captured;
  const status = tickStatus(row);
  return {
    id: row.id,
    version: row.version,
    scheduled_for: row.scheduledFor.toISOString(),
    trigger: row.trigger,
    status,
    skip_reason: row.skipReason,
    summary: tickSummary({ status, figures: figures.get(row.id) ?? null }),
    fanout_id: row.fanoutId,
    analysis_id: row.analysisId,
    comparisons: row.comparisons.map((c) => ({ a: c.a as EngineIdValue, b: c.b as EngineIdValue, analysis_id: c.analysis_id })),
    charged_usd: billingEnabled ? formatUsd(charged) : null,
    error: (row.error ?? null) as z.input<typeof Tick>["error"],
    created_at: row.createdAt.toISOString(),
    completed_at: iso(row.completedAt),
  };
}

export function presentTick(row: TickRow, figures: TickFigures, billingEnabled = billingSettings().enabled): z.input<typeof Tick> {
  return { ...presentTickSummary(row, figures, billingEnabled), monitor_id: row.monitorId };
}

function summaryFieldsOf(row: MonitorRow, figures: TickFigures) {
  return {
    id: row.id,
    project: row.projectId,
    name: row.name,
    status: row.status,
    version: row.version,
    engines: row.engines as z.input<typeof Monitor>["engines"],
    runs: row.runsPerPrompt,
    schedule: scheduleOf({ every: row.every, minute: row.minute, weekday: row.weekday }),
    location: (row.location ?? null) as z.input<typeof Monitor>["location"],
    language: row.language,
    entities: row.entities,
    monthly_budget_usd: row.budgetMicros === null ? null : formatUsd(row.budgetMicros),
    // Monitors made before the digest have no alerts.digest: off.
    alerts: { webhook_url: row.alerts.webhook_url, email: row.alerts.email, min_change: row.alerts.min_change, digest: row.alerts.digest ?? "off" },
    judge: (row.judge ?? null) as z.input<typeof Monitor>["judge"],
    next_run_at: row.nextRunAt.toISOString(),
    last_tick: row.lastTick ? presentTickSummary(row.lastTick, figures) : null,
    spend_month_to_date_usd: formatUsd(row.spendMicros),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy?.email ?? null,
  };
}

/** `figures`: what its last tick's summary reads (lastTickFiguresOf). */
export function presentMonitor(row: MonitorRow, prompts: readonly StoredPrompt[], figures: TickFigures): z.input<typeof Monitor> {
  return {
    ...summaryFieldsOf(row, figures),
    prompts: prompts.map((p) => ({ text: p.text, source: p.source ?? null, location: p.location ?? null, language: p.language ?? null })),
  };
}

export function presentMonitorSummary(row: MonitorRow, figures: TickFigures): z.input<typeof MonitorSummary> {
  return { ...summaryFieldsOf(row, figures), prompt_count: row.promptCount };
}
