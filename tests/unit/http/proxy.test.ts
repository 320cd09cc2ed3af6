// proxy.ts: what reaches it (the matcher), what it rewrites, and that it logs what it took literally.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { config, proxy } from "@/proxy";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("proxy", () => {
  it("runs only for paths holding a %", () => {
    expect(config.matcher).toEqual(["/(.*%.*)"]);
  });

  it("rewrites an undecodable segment to its literal text, and logs the method and the API path", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    const response = proxy(new NextRequest("http://localhost:3000/api/v1/projects/%C3%28"));
    expect(response.headers.get("x-middleware-rewrite")).toBe("http://localhost:3000/api/v1/projects/%25C3%2528");
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: "info", message: "path segment does not percent-decode; taken literally", method: "GET", path: "/api/v1/projects/%C3%28" },
    ]);
  });

  it("keeps a page's token out of the log, and passes a path that decodes straight through", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    proxy(new NextRequest("http://localhost:3000/invite/abc%ZZ"));
    expect(JSON.parse(lines[0]!).path).toBe("/invite/…");
    const passed = proxy(new NextRequest("http://localhost:3000/api/v1/projects/caf%C3%A9"));
    expect(passed.headers.get("x-middleware-next")).toBe("1");
    expect(lines).toHaveLength(1);
  });
});
