"use client";
// A monitor's alert controls: "Send test webhook" (a ping now, then how it went) and the alert
// settings (webhook URL, email, the smallest change worth an alert). Each answers in a line below.
import { useFormAction } from "../../../_components/form-action";
import { buttonClass, inputClass, subtleButtonClass } from "../../../_components/ui";
import { sendTestWebhookAction, updateAlertsAction } from "../[monitor_id]/actions";
import type { MonitorActionState } from "../_lib/acting";
import { ActionOutcome } from "./action-outcome";

const IDLE: MonitorActionState = { ok: true };

type Settings = { webhook_url: string | null; email: boolean; min_change: number };

export function AlertControls({ id, alerts }: { id: string; alerts: Settings }) {
  const ping = useFormAction(sendTestWebhookAction, IDLE);
  const save = useFormAction(updateAlertsAction, IDLE);
  return (
    <div data-testid="alert-controls">
      <div className="flex flex-wrap items-center gap-2">
        {alerts.webhook_url ? (
          <form {...ping.form}>
            <input type="hidden" name="id" value={id} />
            <button type="submit" className={buttonClass} disabled={ping.pending} data-testid="test-webhook">
              {ping.pending ? "Sending…" : "Send test webhook"}
            </button>
          </form>
        ) : (
          <p className="text-sm text-slate-600">Set a webhook URL below to send alerts, and a test, to it.</p>
        )}
      </div>
      <details className="mt-3 text-sm" open={!alerts.webhook_url && !alerts.email}>
        <summary className="cursor-pointer text-slate-600">Alert settings</summary>
        <form {...save.form} className="mt-2 grid gap-3 sm:max-w-xl" data-testid="alert-settings">
          <input type="hidden" name="id" value={id} />
          <label className="grid gap-1">
            <span className="font-medium text-slate-700">Webhook URL</span>
            <input
              name="webhook_url"
              type="url"
              defaultValue={alerts.webhook_url ?? ""}
              placeholder="https://hooks.example.com/geoscope"
              className={inputClass}
              data-testid="alert-webhook-url"
            />
            <span className="text-xs text-slate-500">http or https on a public address; each POST is signed with the monitor's webhook secret. Empty: no webhook.</span>
          </label>
          <label className="flex items-center gap-2">
            <input name="email" type="checkbox" defaultChecked={alerts.email} data-testid="alert-email" />
            <span>Email the monitor's creator, one message per tick</span>
          </label>
          <label className="grid gap-1">
            <span className="font-medium text-slate-700">Smallest change (points)</span>
            <input name="min_change" inputMode="numeric" defaultValue={String(alerts.min_change)} className={`${inputClass} w-24`} data-testid="alert-min-change" />
          </label>
          <div>
            <button type="submit" className={subtleButtonClass} disabled={save.pending} data-testid="save-alerts">
              {save.pending ? "Saving…" : "Save alert settings"}
            </button>
          </div>
        </form>
      </details>
      <ActionOutcome states={[ping.state, save.state]} testId="alert-action-outcome" />
    </div>
  );
}
