// Paths Next.js cannot percent-decode, taken literally by the request guard (lib/http/path-encoding.ts).
import { describe, expect, it } from "vitest";
import { decodedPath, literalPath } from "@/lib/http/path-encoding";

describe("literalPath", () => {
  it("escapes the % of each segment that does not decode, so it decodes to the text as sent", () => {
    expect(literalPath("/api/v1/projects/%ZZ")).toBe("/api/v1/projects/%25ZZ");
    expect(literalPath("/api/v1/projects/%C3%28")).toBe("/api/v1/projects/%25C3%2528");
    expect(literalPath("/api/v1/projects%ZZ/x")).toBe("/api/v1/projects%25ZZ/x");
    // Only the segments that do not decode; the others keep their escapes.
    expect(literalPath("/s/caf%C3%A9/%E2%82")).toBe("/s/caf%C3%A9/%25E2%2582");
    for (const sent of ["/api/v1/projects/%ZZ", "/api/v1/projects/%C3%28", "/a/100%"]) {
      expect(decodeURIComponent(literalPath(sent)!)).toBe(sent);
    }
  });

  it("leaves a path that decodes alone", () => {
    expect(literalPath("/api/v1/projects/pr_01ARZ3NDEKTSV4RRFFQ69G5FAV")).toBeNull();
    expect(literalPath("/api/v1/projects/caf%C3%A9%2Fx%25")).toBeNull();
  });
});

describe("decodedPath", () => {
  it("decodes where it can, else answers the path as sent", () => {
    expect(decodedPath("/api/v1/projects%25ZZ")).toBe("/api/v1/projects%ZZ");
    expect(decodedPath("/api/v1/caf%C3%A9")).toBe("/api/v1/café");
    expect(decodedPath("/api/v1/%ZZ")).toBe("/api/v1/%ZZ");
  });
});
