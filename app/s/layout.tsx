// Public share pages (decisions.md "Sharing"): read without an account, never indexed, and sending
// no referrer to the pages they link to. The same headers come from next.config.mjs.
import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default function ShareLayout({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-6 sm:px-6 sm:py-8">
      <header className="mb-6 text-sm text-slate-500">
        Shared from{" "}
        <a href="/" className="font-semibold text-slate-700 hover:text-slate-900">
          geoscope
        </a>{" "}
        · read-only
      </header>
      {children}
    </div>
  );
}
