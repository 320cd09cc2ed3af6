"use client";
// signOut posts to next-auth's /api/auth/signout with its CSRF token, then leaves for `callbackUrl`.
import { signOut } from "next-auth/react";
import { useState } from "react";
import { useHydrated } from "../_components/hydrated";
import { buttonClass } from "../_components/ui";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className={buttonClass}
      disabled={busy || !hydrated}
      onClick={async () => {
        setBusy(true);
        await signOut({ callbackUrl: "/signout" });
      }}
    >
      Sign out
    </button>
  );
}
