// A monitor's weekly digest in words (docs/decisions.md "Weekly digests"): the mail's subject, its
// plain text and a simple HTML copy of the same lines, from facts lib/digests reads. Every sentence
// is one the product already says elsewhere: the tick's summary (lib/words/ticks.ts), each
// significant change as its alert says it (lib/alerts/words.ts), each lost prompt and citation
// target as an opportunity list says it (lib/words/opportunities.ts). Pure.
import { counted } from "./format";

/** How many significant changes the mail lists one by one; the rest are counted. */
export const DIGEST_CHANGES_LISTED = 10;

export type DigestFacts = {
  monitorName: string;
  /** The monitor's page. */
  monitorUrl: string;
  monitorId: string;
  /** "2026-W48". */
  week: string;
  /** The Monday (00:00 UTC) the week starts on. */
  weekStart: Date;
  /** The scheduled tick of the digest's day, whose end made the digest due. */
  dueTick: { scheduledFor: Date; status: string; skipReason: string | null } | null;
  /** The latest completed (or partial) tick with its summary; null when none has completed. */
  latest: { scheduledFor: Date; summary: readonly string[] } | null;
  /** The week's ticks compared with the one before them, and what the series' test called a change, each said as its alert says it. */
  changes: { ticksCompared: number; found: ReadonlyArray<{ at: Date; sentence: string }> };
  /** From the latest completed tick's visibility analysis. */
  opportunities:
    | { kind: "none"; why: string }
    | { kind: "listed"; at: Date; brand: string; lead: string; lost: readonly string[]; targets: readonly string[] };
};

export type DigestMail = { subject: string; text: string; html: string };

/** "2026-11-23 06:00 UTC", as the alert emails write a tick's time. */
export const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export const digestSubject = (monitorName: string, week: string) => `Weekly digest: ${monitorName} (week ${week})`;

const SKIPPED: Record<string, string> = {
  insufficient_credit: "the workspace's credit did not cover it",
  budget_exhausted: "it would have taken the monitor past its monthly budget",
};

function dueTickLine(t: NonNullable<DigestFacts["dueTick"]>): string {
  const at = `Its tick of ${utcMinute(t.scheduledFor)}`;
  if (t.status === "skipped") return `${at} was skipped${t.skipReason ? `: ${SKIPPED[t.skipReason] ?? t.skipReason}` : ""}.`;
  if (t.status === "failed") return `${at} failed: no answer came back from it.`;
  if (t.status === "partial") return `${at} completed with some runs failed.`;
  return `${at} completed.`;
}

type Block = { heading: string | null; lines: readonly string[]; list: "bullets" | "numbers" | "none" };

function blocks(f: DigestFacts): Block[] {
  const weekEnd = new Date(f.weekStart.getTime() + 6 * 86_400_000);
  const out: Block[] = [
    {
      heading: null,
      list: "none",
      lines: [`The weekly digest of the monitor "${f.monitorName}", week ${f.week} (${utcDay(f.weekStart)} to ${utcDay(weekEnd)}).`, ...(f.dueTick ? [dueTickLine(f.dueTick)] : [])],
    },
  ];
  out.push(
    f.latest
      ? { heading: `What its latest completed tick (${utcMinute(f.latest.scheduledFor)}) says`, list: "bullets", lines: f.latest.summary }
      : { heading: "Its latest completed tick", list: "none", lines: ["No tick of this monitor has completed yet, so there are no figures to report."] },
  );
  const { found, ticksCompared } = f.changes;
  const changeLines =
    found.length > 0
      ? [
          ...found.slice(0, DIGEST_CHANGES_LISTED).map((c) => `${utcDay(c.at)}: ${c.sentence}`),
          ...(found.length > DIGEST_CHANGES_LISTED ? [`and ${counted(found.length - DIGEST_CHANGES_LISTED, "more change")} beyond chance (the monitor's page lists every one).`] : []),
        ]
      : ticksCompared === 0
        ? ["No tick this week had an earlier completed tick of its version to compare with, so no change can be told."]
        : [`No change this week was beyond what chance explains (${counted(ticksCompared, "tick")} compared with the one before, by the series' test, as alerts use it).`];
  out.push({ heading: "Significant changes this week", list: found.length > 0 ? "bullets" : "none", lines: changeLines });
  const o = f.opportunities;
  if (o.kind === "none") out.push({ heading: "Top opportunities", list: "none", lines: [o.why] });
  else {
    out.push({ heading: `Top opportunities (from the visibility analysis of the tick of ${utcMinute(o.at)})`, list: "none", lines: [o.lead] });
    if (o.lost.length) out.push({ heading: `Prompts where a competitor is named more often than ${o.brand}`, list: "numbers", lines: o.lost });
    if (o.targets.length) out.push({ heading: `Pages cited where a competitor is named and ${o.brand} is not`, list: "numbers", lines: o.targets });
  }
  out.push({
    heading: null,
    list: "none",
    lines: [
      `The monitor: ${f.monitorUrl}`,
      `You receive this because the monitor's weekly digest is on (alerts.digest "weekly"); turn it off on the monitor's page, or with PATCH /monitors/${f.monitorId} {"alerts": {"digest": "off"}}.`,
    ],
  });
  return out;
}

function textOf(bs: readonly Block[]): string {
  return bs
    .map((b) => {
      const lines = b.lines.map((l, i) => (b.list === "bullets" ? `- ${l}` : b.list === "numbers" ? `${i + 1}. ${l}` : l));
      return [...(b.heading ? [`${b.heading}:`] : []), ...lines].join("\n");
    })
    .join("\n\n");
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The lines as HTML, the monitor's address a link. */
function htmlOf(bs: readonly Block[], f: DigestFacts): string {
  const line = (l: string) => escape(l).replace(escape(f.monitorUrl), `<a href="${escape(f.monitorUrl)}">${escape(f.monitorUrl)}</a>`);
  const body = bs
    .map((b) => {
      const heading = b.heading ? `<h3 style="margin:16px 0 4px;font-size:15px">${escape(b.heading)}</h3>` : "";
      if (b.list === "none") return heading + b.lines.map((l) => `<p style="margin:4px 0">${line(l)}</p>`).join("");
      const tag = b.list === "bullets" ? "ul" : "ol";
      return `${heading}<${tag} style="margin:4px 0;padding-left:20px">${b.lines.map((l) => `<li>${line(l)}</li>`).join("")}</${tag}>`;
    })
    .join("\n");
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.45;color:#1e293b;max-width:640px">\n<h2 style="font-size:17px">${escape(digestSubject(f.monitorName, f.week))}</h2>\n${body}\n</body></html>`;
}

export function digestMail(f: DigestFacts): DigestMail {
  const bs = blocks(f);
  return { subject: digestSubject(f.monitorName, f.week), text: textOf(bs), html: htmlOf(bs, f) };
}
