import { sessionPrincipal } from "@/lib/auth/session";
import { mailConfigured } from "@/lib/mail/mailer";
import { PERSONAL_INVITATION_REFUSED } from "@/lib/workspaces/present";
import { previewInvitation } from "@/lib/workspaces/read";
import { buttonClass, Email, Notice, Page } from "../../_components/ui";
import { SignInForm } from "../../signin/sign-in-form";
import { acceptAction, rememberInvitationAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function InvitePage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await params;
  const { error } = await searchParams;
  const [principal, invitation] = await Promise.all([sessionPrincipal(), previewInvitation(token)]);
  return (
    <Page title="Invitation">
      <div className="max-w-lg space-y-4">
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!invitation ? (
          <Notice tone="error">This invitation link is not valid.</Notice>
        ) : invitation.status !== "pending" ? (
          <Notice tone="error">This invitation is {invitation.status} and can no longer be used.</Notice>
        ) : invitation.toPersonalWorkspace ? (
          <Notice tone="error">{PERSONAL_INVITATION_REFUSED}</Notice>
        ) : (
          <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <p data-testid="invitation">
              <span className="wrap-anywhere">
                <Email address={invitation.invitedBy} />
              </span> invited you to <strong>{invitation.workspaceName}</strong> on geoscope as{" "}
              {invitation.role}.
            </p>
            {principal ? (
              <>
                <p className="mt-2">
                  You will join as <strong className="wrap-anywhere">
                    <Email address={principal.user.email} />
                  </strong>
                  .{" "}
                  <a href="/signout" className="text-sm text-slate-500 underline">
                    Not you?
                  </a>
                </p>
                <form action={acceptAction} className="mt-4">
                  <input type="hidden" name="token" value={token} />
                  <button className={buttonClass} type="submit">
                    Join {invitation.workspaceName}
                  </button>
                </form>
              </>
            ) : (
              <div className="mt-4 space-y-3">
                <p className="text-slate-600">
                  Sign in with your email to join: we send you a sign-in link, and opening it in this browser brings you back here.
                </p>
                {mailConfigured() ? null : (
                  <Notice tone="warn">This server has no mail server configured (SMTP_URL), so the sign-in link is written to the server log.</Notice>
                )}
                <SignInForm callbackUrl="/account" prepare={rememberInvitationAction.bind(null, token)} />
              </div>
            )}
          </div>
        )}
      </div>
    </Page>
  );
}
