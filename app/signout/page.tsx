// next-auth's sign-out page (pages.signOut), in the app's look.
import { sessionPrincipal } from "@/lib/auth/session";
import { Email, Page, subtleButtonClass } from "../_components/ui";
import { SignOutButton } from "./sign-out-button";

export const dynamic = "force-dynamic";

export default async function SignOutPage() {
  const principal = await sessionPrincipal();
  return (
    <Page title="Sign out">
      <div className="max-w-md space-y-4">
        {principal ? (
          <>
            <p className="text-slate-700">
              You are signed in as <strong className="wrap-anywhere">
                <Email address={principal.user.email} />
              </strong>. Sign out of this browser?
            </p>
            <div className="flex flex-wrap gap-2">
              <SignOutButton />
              <a href="/account" className={subtleButtonClass}>
                Back to your account
              </a>
            </div>
            <p className="text-sm text-slate-500">API keys and CLI logins keep working; revoke them on the account page.</p>
          </>
        ) : (
          <p className="text-slate-700">
            You are signed out.{" "}
            <a href="/signin" className="text-indigo-700 underline">
              Sign in
            </a>
          </p>
        )}
      </div>
    </Page>
  );
}
