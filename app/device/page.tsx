import { findPendingDeviceLogin } from "@/lib/auth/device";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { buttonClass, dangerButtonClass, Email, inputClass, Notice, Page } from "../_components/ui";
import { decideAction, lookUpCodeAction } from "./actions";
import { deviceCodeThrottle } from "./throttle";

export const dynamic = "force-dynamic";

const RESULTS: Record<string, { tone: "success" | "info" | "error"; text: string }> = {
  approved: { tone: "success", text: "Approved. The CLI is signed in; you can close this page." },
  denied: { tone: "info", text: "Denied. The CLI was not signed in." },
  gone: { tone: "error", text: "That login was already decided or has expired. Run geoscope login again." },
};

export default async function DevicePage({
  searchParams,
}: {
  searchParams: Promise<{ code?: string; error?: string; result?: string; typed?: string }>;
}) {
  const { code, error, result, typed } = await searchParams;
  const principal = await requireSessionPrincipal(code ? `/device?code=${encodeURIComponent(code)}` : "/device");
  let throttled = deviceCodeThrottle.retryAfterMs(principal.user.id) > 0;
  const pending = code && !throttled ? await findPendingDeviceLogin(code) : null;
  if (code && !pending && !throttled) {
    deviceCodeThrottle.fail(principal.user.id);
    throttled = deviceCodeThrottle.retryAfterMs(principal.user.id) > 0;
  }
  const triesLeft = deviceCodeThrottle.failuresLeft(principal.user.id);

  return (
    <Page title="Approve a CLI login">
      <div className="max-w-lg space-y-4">
        {result && RESULTS[result] ? <Notice tone={RESULTS[result].tone}>{RESULTS[result].text}</Notice> : null}
        {throttled || error === "throttled" ? (
          <Notice tone="error">Too many wrong codes. Wait a few minutes, then try again.</Notice>
        ) : null}
        {!throttled && (error === "unknown" || (code && !pending)) ? (
          <Notice tone="error">
            No pending login has that code, or it has expired. Check the code the CLI shows ({triesLeft} more{" "}
            {triesLeft === 1 ? "try" : "tries"} before a pause).
          </Notice>
        ) : null}
        {pending ? (
          <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <p className="text-slate-700">
              <strong data-testid="client-name">{pending.clientName}</strong> wants to sign in to geoscope as{" "}
              <strong className="wrap-anywhere">
                <Email address={principal.user.email} />
              </strong>{" "}
              and act in all your workspaces.
            </p>
            <p className="mt-4 text-sm text-slate-600">Check that the CLI shows this code:</p>
            <p data-testid="user-code" className="mt-1 font-mono text-3xl tracking-widest">
              {pending.userCode}
            </p>
            <form action={decideAction} className="mt-6 flex gap-3">
              <input type="hidden" name="code" value={pending.userCode} />
              <button className={buttonClass} type="submit" name="decision" value="approve">
                Approve
              </button>
              <button className={dangerButtonClass} type="submit" name="decision" value="deny">
                Deny
              </button>
            </form>
          </div>
        ) : result ? null : (
          <>
            {code ? null : (
              <p className="text-slate-600" data-testid="device-help">
                Run <code className="rounded bg-slate-100 px-1 py-0.5 text-sm">geoscope login</code> in a terminal: it prints a code
                like <span className="font-mono">BCDF-GHJK</span> and the address of this page. Type that code here to sign the CLI in
                as <strong className="wrap-anywhere">
                  <Email address={principal.user.email} />
                </strong>
                .
              </p>
            )}
            <form action={lookUpCodeAction} className="flex flex-wrap gap-2">
              <label className="sr-only" htmlFor="code">
                Code shown by the CLI
              </label>
              <input id="code" name="code" required placeholder="XXXX-XXXX" defaultValue={typed ?? (code && !pending ? code : "")} className={`${inputClass} font-mono`} autoComplete="off" />
              <button className={buttonClass} type="submit" disabled={throttled}>
                Continue
              </button>
            </form>
          </>
        )}
      </div>
    </Page>
  );
}
