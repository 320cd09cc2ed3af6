// A monitor's weekly digests on its page: whether the digest is on and when it goes, then the last
// digests newest first (the week, how it went, to whom, when, and why one was not sent).
import type { z } from "zod";
import type { DigestList } from "@/lib/schemas/digests";
import { CellLabel, Email, Section, tableCellClass, tableClass, tableHeadClass, tableRowClass } from "../../../_components/ui";
import { Tag } from "../../../s/_components/bits";
import { when } from "../../../s/_lib/view";

type DigestBody = z.input<typeof DigestList>["items"][number];

const WEEKDAYS = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"];

const STATUS_WORDS: Record<DigestBody["status"], string> = { pending: "pending", sent: "sent", logged: "logged", not_sent: "not sent", failed: "failed" };
const statusTone = (s: DigestBody["status"]) => (s === "sent" ? "emerald" : s === "pending" ? "indigo" : s === "failed" ? "rose" : "amber");

export function MonitorDigests({ digest, schedule, items }: { digest: "off" | "weekly"; schedule: { every: string; weekday: number | null }; items: readonly DigestBody[] }) {
  const day = schedule.every === "week" ? WEEKDAYS[(schedule.weekday ?? 1) - 1] : "Mondays";
  const state =
    digest === "weekly"
      ? `On: a digest goes to the monitor's creator on ${day}, once that day's tick has run (a week whose day has no tick, or while paused, has none).`
      : "Off: turn on “Weekly digest” in the alert settings above to receive one a week.";
  return (
    <Section id="digests" title="Weekly digests" description={`The week's summary, significant changes and top opportunities, by e-mail. ${state}`}>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-digests">
          No digest yet.
        </p>
      ) : (
        <table className={tableClass} data-testid="digests-table">
          <thead className={tableHeadClass}>
            <tr>
              <th className="py-1 pr-3">Week</th>
              <th className="pr-3">Status</th>
              <th className="pr-3">To</th>
              <th className="pr-3">Sent</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id} className={tableRowClass} data-testid="digest-row" data-status={d.status}>
                <td className={`${tableCellClass} order-1 whitespace-nowrap`}>{d.week}</td>
                <td className={`${tableCellClass} order-2`}>
                  <Tag tone={statusTone(d.status)}>{STATUS_WORDS[d.status]}</Tag>
                </td>
                <td className={`${tableCellClass} order-3 wrap-anywhere text-slate-600 sm:min-w-32`}>
                  <CellLabel>to</CellLabel>
                  {d.recipient ? <Email address={d.recipient} /> : "—"}
                </td>
                <td className={`${tableCellClass} order-4 whitespace-nowrap text-slate-600`}>
                  <CellLabel>sent</CellLabel>
                  {d.sent_at ? when(d.sent_at) : "—"}
                </td>
                <td className={`${tableCellClass} order-5 w-full text-slate-600 sm:w-auto`}>{d.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
