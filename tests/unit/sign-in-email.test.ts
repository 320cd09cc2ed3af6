// The address the sign-in form gives, before next-auth looks it up (lib/auth/nextauth.ts).
import { describe, expect, it } from "vitest";
import { signInEmail } from "@/lib/auth/nextauth";

describe("signInEmail", () => {
  it("normalises as next-auth's default does", () => {
    expect(signInEmail("  Ana@Example.COM ")).toBe("ana@example.com");
    expect(signInEmail("ana@example.com,other")).toBe("ana@example.com");
    expect(signInEmail("josé@exämple.de")).toBe("josé@exämple.de");
    for (const bad of ["ana", "a@b@c.com", '"a"@b.com', "ana@localhost", "@example.com"]) {
      expect(() => signInEmail(bad), bad).toThrow("Invalid email address format.");
    }
  });

  it("refuses NUL and unpaired surrogates, which would otherwise reach the database", () => {
    expect(() => signInEmail("a\u0000b@example.com")).toThrow("Invalid email address format.");
    expect(() => signInEmail("a\ud800@example.com")).toThrow("Invalid email address format.");
  });
});
