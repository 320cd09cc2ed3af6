import { mailConfigured } from "@/lib/mail/mailer";
import { Notice, Page } from "../_components/ui";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignin: "The sign-in mail could not be sent. Try again in a moment.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const safeCallback = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/account";
  return (
    <Page title="Sign in">
      <div className="max-w-md space-y-4">
        {error ? <Notice tone="error">{ERRORS[error] ?? "Sign-in failed. Try again."}</Notice> : null}
        <p className="text-slate-600">Enter your email address and we will send you a sign-in link.</p>
        {mailConfigured() ? null : (
          <Notice tone="warn">
            This server has no mail server configured (SMTP_URL), so the sign-in link is written to the server log instead of
            being mailed.
          </Notice>
        )}
        <SignInForm callbackUrl={safeCallback} />
      </div>
    </Page>
  );
}
