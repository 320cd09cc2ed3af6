import { mailConfigured } from "@/lib/mail/mailer";
import { Page } from "../../_components/ui";

export const dynamic = "force-dynamic";

export default function CheckEmailPage() {
  return (
    <Page title="Check your email">
      <p className="max-w-md text-slate-700">
        {mailConfigured()
          ? "A sign-in link is on its way. Open it in this browser to continue; it works once, for 24 hours."
          : "This server has no mail server configured: the sign-in link was written to the server log. Open it in this browser to continue."}
      </p>
    </Page>
  );
}
