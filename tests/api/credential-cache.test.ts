// The credential cache's limits: a remembered credential is read again from the database after
// CREDENTIAL_CACHE_MS, and a CLI token is refused once its expiry passes even while remembered.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_CACHE_MS, cachedPrincipal, rememberPrincipal } from "@/lib/auth/credential-cache";
import type { Principal } from "@/lib/auth/principal";
import { useTestDatabase } from "../helpers/app";

useTestDatabase();

const principal = (id: string): Principal => ({
  user: { id: "us_test", email: "cache@example.com" },
  credential: { kind: "cli_token", id, name: "laptop" },
  workspaceId: null,
  apiKeyId: null,
});

describe("credential cache", () => {
  it("answers for CREDENTIAL_CACHE_MS, then sends the next request to the database", () => {
    const now = Date.now();
    rememberPrincipal("hash-ttl", principal("ct_ttl"), null, now);
    expect(cachedPrincipal("hash-ttl", now + CREDENTIAL_CACHE_MS - 1)?.credential.id).toBe("ct_ttl");
    expect(cachedPrincipal("hash-ttl", now + CREDENTIAL_CACHE_MS)).toBeNull();
  });

  it("refuses a remembered CLI token once it expired", () => {
    const now = Date.now();
    rememberPrincipal("hash-expiring", principal("ct_expiring"), new Date(now + 1000), now);
    expect(cachedPrincipal("hash-expiring", now + 999)).not.toBeNull();
    expect(cachedPrincipal("hash-expiring", now + 1000)).toBeNull();
  });
});
