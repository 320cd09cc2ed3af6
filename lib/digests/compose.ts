// What a weekly digest says (docs/decisions.md "Weekly digests"), read when its first attempt is
// made: the latest completed tick's summary (lib/words/ticks.ts, as GET …/ticks says it), the
// significant changes of the week's ticks by the alerts' own rule (lib/monitors/series.ts), the
// top lost prompts and citation targets of the latest completed tick's visibility analysis
// (lib/opportunities, computed as its creator, not stored), and the monitor's address.
import { changeSummary } from "../alerts/words";
import { config } from "../config/env";
import { standalone } from "../db/sql";
import { ApiError } from "../http/errors";
import { opportunityFigures } from "../opportunities/create";
import { presentTickSummary } from "../monitors/present";
import { tickFiguresOf, tickRow } from "../monitors/read";
import type { MonitorRow } from "../monitors/rows";
import { ticksSignificantChanges } from "../monitors/series";
import { latestCompletedTickId, ticksAnalysedBetween } from "../monitors/store";
import { citationTargetSentence, lostPromptSentence, lostPromptsLead } from "../words/opportunities";
import { digestMail, type DigestFacts, type DigestMail } from "../words/digests";

/** Lost prompts and citation targets a digest lists. */
export const DIGEST_OPPORTUNITIES = 3;

const DAY_MS = 86_400_000;

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
  const latestId = await latestCompletedTickId(session, monitor.id);
  const latest = latestId ? await tickRow(session, latestId) : null;
  const anchor = due?.scheduledFor ?? createdAt;
  const weekTicks = await ticksAnalysedBetween(session, monitor.id, new Date(anchor.getTime() - 7 * DAY_MS), anchor);
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
