"use client";
// A monitor's alert controls: "Send test webhook" (a ping now, then how it went), the alert
// settings (webhook URL, email, the weekly digest, the smallest change worth an alert) and "New webhook secret"
// (asked first: the secret the webhook's receiver checks changes; the new one is shown once,
// with a copy button). Each answers in a line below.
import { useState } from "react";
import { useFormAction } from "../../../_components/form-action";
import { SecretOnce } from "../../../_components/secret-once";
import { buttonClass, inputClass, subtleButtonClass } from "../../../_components/ui";
import { rotateWebhookSecretAction, sendTestWebhookAction, updateAlertsAction, type SecretActionState } from "../[monitor_id]/actions";
import type { MonitorActionState } from "../_lib/acting";
import { ActionOutcome } from "./action-outcome";

const IDLE: MonitorActionState = { ok: true };

type Settings = { webhook_url: string | null; email: boolean; min_change: number; digest: "off" | "weekly" };

export function AlertControls({ id, alerts }: { id: string; alerts: Settings }) {
  const ping = useFormAction(sendTestWebhookAction, IDLE);
  const save = useFormAction(updateAlertsAction, IDLE);
  const rotate = useFormAction<SecretActionState>(rotateWebhookSecretAction, IDLE);
  const [confirming, setConfirming] = useState(false);
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
      <details className="mt-3 text-sm" open={!alerts.webhook_url && !alerts.email && alerts.digest !== "weekly"}>
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
          <label className="flex items-start gap-2">
            <input name="digest" type="checkbox" defaultChecked={alerts.digest === "weekly"} className="mt-1" data-testid="alert-digest" />
            <span>
              Weekly digest e-mail to the monitor's creator
              <span className="block text-xs text-slate-500">
                The week's summary, significant changes and top opportunities, on the schedule's weekday (Mondays for a daily monitor) once that day's tick has run.
              </span>
            </span>
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
      <div className="mt-3 text-sm" data-testid="webhook-secret-control">
        {confirming ? (
          <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900" role="group" aria-label="Confirm">
            <p>
              Make a new webhook secret? Alerts raised from now on are signed with it, so your receiver must check them with the new one; retries of alerts
              raised before keep the old one. The new secret is shown once.
            </p>
            <form {...rotate.form} onSubmit={(e) => { setConfirming(false); rotate.form.onSubmit(e); }} className="mt-2 flex flex-wrap gap-2">
              <input type="hidden" name="id" value={id} />
              <button type="submit" className={buttonClass} disabled={rotate.pending} data-testid="confirm-rotate-secret">
                Make a new secret
              </button>
              <button type="button" className={subtleButtonClass} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </form>
          </div>
        ) : (
          <button type="button" className={subtleButtonClass} disabled={rotate.pending} onClick={() => setConfirming(true)} data-testid="rotate-secret">
            {rotate.pending ? "Making a new secret…" : "New webhook secret"}
          </button>
        )}
        {rotate.state.ok && rotate.state.secret ? (
          <SecretOnce key={rotate.state.secret} label="The new webhook secret, shown this once" secret={rotate.state.secret} testId="webhook-secret">
            Store it now where your receiver checks signatures; the old secret signs no new alert.
          </SecretOnce>
        ) : null}
      </div>
      <ActionOutcome states={[ping.state, save.state, rotate.state]} testId="alert-action-outcome" />
    </div>
  );
}
