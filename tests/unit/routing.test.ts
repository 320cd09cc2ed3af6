import { describe, expect, it } from "vitest";
import { routeMatcher } from "@/lib/http/routing";

const match = routeMatcher([
  { method: "GET", path: "/runs" },
  { method: "GET", path: "/runs/{run_id}" },
  { method: "POST", path: "/fanouts/estimate" },
  { method: "GET", path: "/fanouts/{fanout_id}" },
  { method: "GET", path: "/runs/{object_id}/share" },
  { method: "POST", path: "/runs/{object_id}/share" },
  { method: "DELETE", path: "/runs/{object_id}/share" },
]);

describe("route matching for the 404/405 envelope", () => {
  it("finds known methods on known paths, HEAD on GET paths, and OPTIONS anywhere known", () => {
    expect(match("GET", "/runs").kind).toBe("found");
    expect(match("GET", "/runs/dr_x").kind).toBe("found");
    expect(match("HEAD", "/runs/dr_x").kind).toBe("found");
    expect(match("OPTIONS", "/runs").kind).toBe("found");
    expect(match("delete", "/runs/dr_x/share").kind).toBe("found");
  });

  it("calls a path no template matches unknown", () => {
    expect(match("GET", "/nope").kind).toBe("unknown_path");
    expect(match("GET", "/runs/a/b").kind).toBe("unknown_path");
    expect(match("GET", "/").kind).toBe("unknown_path");
  });

  it("names the allowed methods for a wrong one", () => {
    expect(match("POST", "/runs")).toEqual({ kind: "wrong_method", allowed: ["GET"] });
    expect(match("PUT", "/runs/dr_x/share")).toEqual({ kind: "wrong_method", allowed: ["GET", "POST", "DELETE"] });
  });

  it("prefers a static segment over a parameter, as Next.js routes do", () => {
    expect(match("GET", "/fanouts/estimate")).toEqual({ kind: "wrong_method", allowed: ["POST"] });
    expect(match("GET", "/fanouts/fo_123").kind).toBe("found");
  });
});
