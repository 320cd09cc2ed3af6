import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config/env";

describe("configuration", () => {
  it("has working defaults for an empty environment", () => {
    const c = parseConfig({});
    expect(c.BILLING_ENABLED).toBe(true);
    expect(c.MIN_CLI_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.MAX_BODY_BYTES).toBe(1024 * 1024);
    expect(c.GEOSCOPE_PGLITE_THREAD).toBe("worker");
  });

  it("builds links for the port the server is told to serve on when PUBLIC_BASE_URL is unset", () => {
    expect(parseConfig({}).PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(parseConfig({ PORT: "3960" }).PUBLIC_BASE_URL).toBe("http://localhost:3960");
    expect(parseConfig({ PORT: "3960", PUBLIC_BASE_URL: "https://geo.example.com/" }).PUBLIC_BASE_URL).toBe("https://geo.example.com");
    expect(() => parseConfig({ PORT: "http" })).toThrow(/PORT/);
  });

  it("treats an empty value as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", BILLING_ENABLED: "" }).BILLING_ENABLED).toBe(true);
  });

  it("stops on a bad value with a message naming the variable", () => {
    const bad: Record<string, string> = {
      BILLING_ENABLED: "maybe",
      MIN_CLI_VERSION: "latest",
      DATABASE_URL: "mysql://x",
      PUBLIC_BASE_URL: "localhost",
      MAX_BODY_BYTES: "-5",
      GEOSCOPE_PGLITE_THREAD: "thread",
    };
    for (const [name, value] of Object.entries(bad)) {
      let error: unknown;
      try {
        parseConfig({ [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(ConfigError);
      expect((error as Error).message, name).toContain(name);
    }
  });

  it("reads booleans the way people write them", () => {
    expect(parseConfig({ BILLING_ENABLED: "false" }).BILLING_ENABLED).toBe(false);
    expect(parseConfig({ BILLING_ENABLED: "0" }).BILLING_ENABLED).toBe(false);
    expect(parseConfig({ BILLING_ENABLED: "yes" }).BILLING_ENABLED).toBe(true);
  });
});
