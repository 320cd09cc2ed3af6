"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { useHydrated } from "../_components/hydrated";
import { buttonClass, inputClass } from "../_components/ui";

/** `prepare`: runs before the link is asked for and answers where the link should land instead of `callbackUrl`. */
export function SignInForm({ callbackUrl, prepare }: { callbackUrl: string; prepare?: () => Promise<string> }) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  return (
    <form
      className="flex flex-wrap gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        await signIn("email", { email, callbackUrl: prepare ? await prepare() : callbackUrl });
      }}
    >
      <label className="sr-only" htmlFor="email">
        Email
      </label>
      <input
        id="email"
        name="email"
        type="email"
        required
        autoComplete="email"
        placeholder="you@example.com"
        className={`${inputClass} min-w-48 flex-1`}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button className={buttonClass} type="submit" disabled={busy || !hydrated}>
        Send sign-in link
      </button>
    </form>
  );
}
