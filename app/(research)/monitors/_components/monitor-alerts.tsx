// A monitor's alerts on its page: its settings and controls (a test ping, the settings form), the
// alerts newest first (each in its one sentence, linking its tick), and every delivery: channel,
// status, attempts, the last attempt's status and when (or when the next one is due).
import type { z } from "zod";
import type { Alert, AlertList } from "@/lib/schemas/alerts";
import { CellLabel, Section, tableCellClass, tableClass, tableHeadClass, tableRowClass } from "../../../_components/ui";
import { Tag } from "../../../s/_components/bits";
import { when } from "../../../s/_lib/view";
import { AlertControls } from "./alert-controls";

type AlertBody = z.input<typeof Alert>;
type DeliveryBody = AlertBody["deliveries"][number];

const KIND_WORDS: Record<AlertBody["kind"], string> = {
  significant_change: "change",
  tick_failed: "tick failed",
  tick_skipped: "tick skipped",
  ping: "test",
};

const kindTone = (kind: AlertBody["kind"]) => (kind === "significant_change" ? "indigo" : kind === "ping" ? "slate" : "amber");
const deliveryTone = (status: DeliveryBody["status"]) => (status === "delivered" ? "emerald" : status === "failed" ? "rose" : "amber");

function AlertRow({ alert }: { alert: AlertBody }) {
  return (
    <tr className={tableRowClass} data-testid="alert-row" data-kind={alert.kind}>
      <td className={`${tableCellClass} order-1 whitespace-nowrap text-slate-600`}>{when(alert.created_at)}</td>
      <td className={`${tableCellClass} order-2`}>
        <Tag tone={kindTone(alert.kind)}>{KIND_WORDS[alert.kind]}</Tag>
      </td>
      <td className={`${tableCellClass} order-3 w-full sm:w-auto`}>{alert.summary}</td>
    </tr>
  );
}

function DeliveryRow({ alert, delivery }: { alert: AlertBody; delivery: DeliveryBody }) {
  const last = delivery.last_status === null ? "—" : delivery.last_status;
  const at = delivery.status === "pending" && delivery.next_attempt_at ? `next ${when(delivery.next_attempt_at)}` : when(delivery.last_attempt_at);
  return (
    <tr className={tableRowClass} data-testid="delivery-row" data-channel={delivery.channel} data-status={delivery.status}>
      <td className={`${tableCellClass} order-1`}>
        <Tag tone={kindTone(alert.kind)}>{KIND_WORDS[alert.kind]}</Tag>
        <span className="ml-1.5 text-xs text-slate-500">{when(alert.created_at)}</span>
      </td>
      <td className={`${tableCellClass} order-2`}>{delivery.channel}</td>
      <td className={`${tableCellClass} order-3`}>
        <Tag tone={deliveryTone(delivery.status)}>{delivery.status}</Tag>
      </td>
      <td className={`${tableCellClass} order-4 tabular-nums sm:text-right`}>
        <CellLabel>attempts</CellLabel>
        {delivery.attempts}
      </td>
      <td className={`${tableCellClass} order-5`} title={delivery.last_error ?? undefined}>
        <CellLabel>last status</CellLabel>
        <span data-testid="delivery-last-status">{last}</span>
        {delivery.last_error && delivery.status !== "delivered" ? <span className="ml-1.5 text-xs text-slate-500">{delivery.last_error}</span> : null}
      </td>
      <td className={`${tableCellClass} order-6 whitespace-nowrap text-slate-600`}>{at}</td>
    </tr>
  );
}

export function MonitorAlerts({
  id,
  alerts,
  page,
  olderHref,
}: {
  id: string;
  alerts: { webhook_url: string | null; email: boolean; min_change: number; digest: "off" | "weekly" };
  page: z.input<typeof AlertList>;
  olderHref: string | null;
}) {
  const where = [alerts.webhook_url ? `a webhook to ${alerts.webhook_url}` : null, alerts.email ? "an email to the monitor's creator" : null].filter(Boolean).join(" and ");
  const deliveries = page.items.flatMap((alert) => alert.deliveries.map((delivery) => ({ alert, delivery })));
  return (
    <Section
      id="alerts"
      title="Alerts"
      description={`A change of visibility of at least ${alerts.min_change} points that the data supports, a failed or skipped tick (once until a tick completes), or a test. ${where ? `Each goes out as ${where}.` : "They go nowhere yet: set a webhook URL or turn email on."}`}
    >
      <AlertControls id={id} alerts={alerts} />
      {page.items.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600" data-testid="no-alerts">
          No alert yet.
        </p>
      ) : (
        <>
          <table className={`${tableClass} mt-4`} data-testid="alerts-table">
            <thead className={tableHeadClass}>
              <tr>
                <th className="py-1 pr-3">When</th>
                <th className="pr-3">Kind</th>
                <th>Alert</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((alert) => (
                <AlertRow key={alert.id} alert={alert} />
              ))}
            </tbody>
          </table>
          <h3 className="mt-6 text-sm font-semibold text-slate-700">Deliveries</h3>
          {deliveries.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">None: these alerts were raised while the monitor had no webhook URL and no email.</p>
          ) : (
            <table className={`${tableClass} mt-2`} data-testid="deliveries-table">
              <thead className={tableHeadClass}>
                <tr>
                  <th className="py-1 pr-3">Alert</th>
                  <th className="pr-3">Channel</th>
                  <th className="pr-3">Status</th>
                  <th className="pr-3 text-right">Attempts</th>
                  <th className="pr-3">Last status</th>
                  <th>When</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map(({ alert, delivery }) => (
                  <DeliveryRow key={`${alert.id}-${delivery.channel}`} alert={alert} delivery={delivery} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {olderHref ? (
        <nav aria-label="Older alerts" className="mt-3 text-sm">
          <a className="text-indigo-700 hover:underline" href={olderHref}>
            Older alerts →
          </a>
        </nav>
      ) : null}
    </Section>
  );
}
