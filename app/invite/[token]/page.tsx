import { requireSessionPrincipal } from "@/lib/auth/session";
import { previewInvitation } from "@/lib/workspaces/invitations";
import { buttonClass, Notice, Page } from "../../_components/ui";
import { acceptAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function InvitePage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await params;
  const { error } = await searchParams;
  const principal = await requireSessionPrincipal(`/invite/${token}`);
  const invitation = await previewInvitation(token);
  return (
    <Page title="Invitation">
      <div className="max-w-lg space-y-4">
        {error ? <Notice tone="error">{error}</Notice> : null}
        {!invitation ? (
          <Notice tone="error">This invitation link is not valid.</Notice>
        ) : invitation.status !== "pending" ? (
          <Notice tone="error">This invitation is {invitation.status} and can no longer be used.</Notice>
        ) : (
          <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <p>
              {invitation.invitedBy} invited you to <strong>{invitation.workspaceName}</strong> as {invitation.role}. You will join as{" "}
              <strong>{principal.user.email}</strong>.
            </p>
            <form action={acceptAction} className="mt-4">
              <input type="hidden" name="token" value={token} />
              <button className={buttonClass} type="submit">
                Join {invitation.workspaceName}
              </button>
            </form>
          </div>
        )}
      </div>
    </Page>
  );
}
