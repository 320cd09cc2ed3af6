// The one answer for an unknown, malformed, revoked or rotated-away share token: the same page for
// every reason, so it tells nobody which.
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Link unavailable" };

export default function ShareNotFound() {
  return (
    <main className="max-w-lg">
      <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Link unavailable</h1>
      <p className="mt-3 text-slate-700">This link does not work: it may have been revoked or replaced.</p>
      <p className="mt-2 text-slate-600">If someone sent it to you, ask them for a new link.</p>
    </main>
  );
}
