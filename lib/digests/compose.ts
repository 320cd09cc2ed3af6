// What a weekly digest says (docs/decisions.md "Weekly digests"), read when its first attempt is
// made: the latest completed tick's summary (lib/words/ticks.ts, as GET …/ticks says it), the
// significant changes of the week's ticks by the alerts' own rule (lib/monitors/series.ts), the
// top lost prompts and citation targets of the latest completed tick's visibility analysis
// (lib/opportunities, computed as its creator, not stored), and the monitor's address.
import { changeSummary } from "../alerts/words";
import { config } from "../config/env";
import { date, defineStatement, text } from "../db/statement";
import { standalone } from "../db/sql";
import { ApiError } from "../http/errors";
import { opportunityFigures } from "../opportunities/create";
import { presentTickSummary, tickFiguresOf, tickRow, type MonitorRow } from "../monitors/read";
import { ticksSignificantChanges } from "../monitors/series";
import { citationTargetSentence, lostPromptSentence, lostPromptsLead } from "../words/opportunities";
import { digestMail, type DigestFacts, type DigestMail } from "../words/digests";

/** Lost prompts and citation targets a digest lists. */
export const DIGEST_OPPORTUNITIES = 3;

const DAY_MS = 86_400_000;

/** The monitor's latest tick that completed (or partly did). */
const LATEST_COMPLETED = defineStatement({
  label: "digest_latest_completed_tick",
  params: ["monitor"],
  columns: { id: text("t.id") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t WHERE t.monitor_id = ${p.monitor} AND t.status IN ('completed', 'partial') AND t.completed_at IS NOT NULL
    ORDER BY t.scheduled_for DESC, t.id DESC LIMIT 1`,
});

/** The week's ticks with an analysis: scheduled in the 7 days up to the digest's tick. */
const WEEK_TICKS = defineStatement({
  label: "digest_week_ticks",
  params: ["monitor", "from", "to"],
  columns: { id: text("t.id"), scheduledFor: date("t.scheduled_for") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t WHERE t.monitor_id = ${p.monitor} AND t.analysis_id IS NOT NULL AND t.status IN ('completed', 'partial')
      AND t.scheduled_for > ${p.from}::timestamptz AT TIME ZONE 'UTC' AND t.scheduled_for <= ${p.to}::timestamptz AT TIME ZONE 'UTC'
    ORDER BY t.scheduled_for`,
});

/** The Monday 00:00 UTC of a moment's ISO week. */
export function isoWeekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

async function opportunitiesOf(monitor: MonitorRow, creatorId: string, latest: { analysisId: string | null; scheduledFor: Date } | null): Promise<DigestFacts["opportunities"]> {
  if (!latest?.analysisId) return { kind: "none", why: "No completed tick has a visibility analysis yet, so there are no opportunities to list." };
  if (!monitor.entities.some((e) => e.role === "brand")) {
    return { kind: "none", why: "The monitor tracks no brand (only competitors), so no prompt can be lost to a competitor: add a brand to its entities to see opportunities." };
  }
  try {
    const { figures } = await opportunityFigures({ user: creatorId, own: null }, { analysis: latest.analysisId });
    return {
      kind: "listed",
      at: latest.scheduledFor,
      brand: figures.brand,
      lead: lostPromptsLead(figures),
      lost: figures.lost_prompts.slice(0, DIGEST_OPPORTUNITIES).map((l) => lostPromptSentence(figures.brand, l)),
      // Pages the brand can be cited on first; a competitor's own page only after them, said as such.
      targets: [...figures.citation_targets.filter((t) => !t.owner), ...figures.citation_targets.filter((t) => t.owner)].slice(0, DIGEST_OPPORTUNITIES).map((t) => citationTargetSentence(figures.brand, t)),
    };
  } catch (error) {
    // The tick's analysis tracks no brand (an earlier version's entities), or is out of the creator's reach.
    if (error instanceof ApiError && (error.code === "invalid_request" || error.code === "not_found")) {
      return { kind: "none", why: `No opportunities could be listed from the latest tick's analysis: ${error.message.replace(/^brand: /, "")}.` };
    }
    throw error;
  }
}

/** The digest of `week` for the monitor, after its tick `dueTickId`, as its creator reads it. */
export async function composeDigest(monitor: MonitorRow, creatorId: string, week: string, dueTickId: string | null, createdAt: Date): Promise<DigestMail> {
  const session = standalone();
  const due = dueTickId ? await tickRow(session, dueTickId) : null;
  const latestId = (await LATEST_COMPLETED.first(session, { monitor: monitor.id }))?.id;
  const latest = latestId ? await tickRow(session, latestId) : null;
  const anchor = due?.scheduledFor ?? createdAt;
  const weekTicks = await WEEK_TICKS.query(session, { monitor: monitor.id, from: new Date(anchor.getTime() - 7 * DAY_MS), to: anchor });
  const minChange = monitor.alerts.min_change ?? 10;
  const [figures, changes] = await Promise.all([
    latest ? tickFiguresOf([{ tick: latest, monitor }], session) : Promise.resolve(new Map()),
    ticksSignificantChanges(weekTicks.map((t) => t.id), minChange, session),
  ]);
  const at = new Map(weekTicks.map((t) => [t.id, t.scheduledFor]));
  return digestMail({
    monitorName: monitor.name,
    monitorId: monitor.id,
    monitorUrl: `${config().PUBLIC_BASE_URL}/monitors/${monitor.id}`,
    week,
    weekStart: isoWeekStart(anchor),
    dueTick: due ? { scheduledFor: due.scheduledFor, status: due.status, skipReason: due.skipReason } : null,
    latest: latest ? { scheduledFor: latest.scheduledFor, summary: presentTickSummary(latest, figures).summary } : null,
    changes: {
      ticksCompared: changes.filter((c) => c.compared).length,
      found: changes.flatMap((c) => c.changes.map((change) => ({ at: at.get(c.tickId)!, sentence: changeSummary(change) }))),
    },
    opportunities: await opportunitiesOf(monitor, creatorId, latest),
  });
}
