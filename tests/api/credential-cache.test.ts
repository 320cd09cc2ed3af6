// The credential cache's limits: a remembered credential is read again from the database after
// CREDENTIAL_CACHE_MS, a CLI token is refused once its expiry passes even while remembered, and
// a credential revoked while it was being read is not remembered.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_CACHE_MS, cachedPrincipal, credentialsRevoked, lookUpCredential, rememberPrincipal } from "@/lib/auth/credential-cache";
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

  it("does not remember a credential whose revocation is heard while it is being read", async () => {
    // The read saw the row before the revocation committed; the notice arrives before it returns.
    const read = async () => {
      credentialsRevoked(["hash-racing"]);
      return { principal: principal("ct_racing"), expiresAt: null };
    };
    expect((await lookUpCredential("hash-racing", read))?.credential.id).toBe("ct_racing");
    expect(cachedPrincipal("hash-racing")).toBeNull();
    // Without a revocation, the same read is remembered.
    await lookUpCredential("hash-calm", async () => ({ principal: principal("ct_calm"), expiresAt: null }));
    expect(cachedPrincipal("hash-calm")?.credential.id).toBe("ct_calm");
  });
});
