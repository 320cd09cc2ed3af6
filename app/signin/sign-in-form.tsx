"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { buttonClass, inputClass } from "../_components/ui";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        await signIn("email", { email, callbackUrl });
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
        className={`${inputClass} flex-1`}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button className={buttonClass} type="submit" disabled={busy}>
        Send sign-in link
      </button>
    </form>
  );
}
