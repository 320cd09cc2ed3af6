// Redirect resolution and the SSRF-safe fetcher under it, against a small server on loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import { resolveRedirect, resolveRedirects } from "@/lib/engines/redirects";
import { isAllowedAddress } from "@/lib/net/address";
import { UnsafeUrlError, safeFetch, safeRequest } from "@/lib/net/safe-fetch";
import { envelopeOf } from "./envelope";

let server: Server;
let origin: string;
let host: string;
const seen: string[] = [];
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const path = req.url ?? "/";
    if (path.startsWith("/go/")) {
      // A little delay so concurrent requests overlap.
      setTimeout(() => {
        res.writeHead(302, { location: `https://www.example.org/page/${path.slice(4)}#top` });
        res.end();
      }, 20);
    } else if (path === "/get-only") {
      if (req.method === "HEAD") res.writeHead(405, { allow: "GET" }).end();
      else res.writeHead(301, { location: "https://news.example.net/story" }).end("moved");
    } else if (path === "/relative") res.writeHead(302, { location: "/elsewhere?x=1" }).end();
    else if (path === "/no-location") res.writeHead(302).end();
    else if (path === "/to-private") res.writeHead(302, { location: "http://10.0.0.7/admin" }).end();
    else if (path === "/to-self") res.writeHead(302, { location: `${origin}/big` }).end();
    else if (path === "/big") res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(10_000));
    else if (path === "/hang") return;
    else res.writeHead(404).end("not found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  host = `127.0.0.1:${port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
);
beforeEach(() => {
  seen.length = 0;
  maxInFlight = 0;
});

const options = () => ({ hosts: [host], timeoutMs: 1000, concurrency: 2, allowLoopback: true });

describe("redirect resolution", () => {
  it("reads the Location of an allow-listed redirect without following it", async () => {
    expect(await resolveRedirect(`${origin}/go/a`, options())).toEqual({ location: "https://www.example.org/page/a#top", status: 302, error: null });
    expect(seen).toEqual(["HEAD /go/a"]);
  });

  it("falls back to GET when HEAD gives no redirect", async () => {
    expect(await resolveRedirect(`${origin}/get-only`, options())).toEqual({ location: "https://news.example.net/story", status: 301, error: null });
    expect(seen).toEqual(["HEAD /get-only", "GET /get-only"]);
  });

  it("resolves a relative Location against the redirect URL", async () => {
    expect((await resolveRedirect(`${origin}/relative`, options())).location).toBe(`${origin}/elsewhere?x=1`);
  });

  it("leaves a redirect that gives no Location unresolved, and the source keeps the engine's hint", async () => {
    const raw = `${origin}/no-location`;
    const outcome = await resolveRedirect(raw, options());
    expect(outcome).toEqual({ location: null, status: 302, error: "no redirect (HTTP 302)" });
    const gemini = {
      candidates: [{ content: { parts: [{ text: "Answer." }] }, groundingMetadata: { webSearchQueries: ["q"], groundingChunks: [{ web: { uri: raw, title: "example.org" } }] } }],
    };
    const [source] = normalizeEnvelope(envelopeOf("gemini", [gemini], { [raw]: outcome })).result.sources;
    expect(source).toMatchObject({ url: raw, raw_url: raw, resolution: "unresolved", domain: null, domain_hint: "example.org" });
  });

  it("never asks a host that is not allow-listed", async () => {
    const outcome = await resolveRedirect(`${origin}/go/a`, { ...options(), hosts: ["vertexaisearch.cloud.google.com"] });
    expect(outcome).toEqual({ location: null, status: null, error: "host not allow-listed" });
    expect(seen).toEqual([]);
  });

  it("refuses private and loopback addresses unless the test-only allowance is given", async () => {
    const refused = await resolveRedirect(`${origin}/go/a`, { ...options(), allowLoopback: false });
    expect(refused.location).toBeNull();
    expect(refused.error).toMatch(/private or reserved/);
    // A name that resolves to loopback is refused the same way, after DNS.
    const byName = await resolveRedirect(`http://localhost:${host.split(":")[1]}/go/a`, { ...options(), hosts: ["localhost"], allowLoopback: false });
    expect(byName.error).toMatch(/private or reserved/);
    const metadata = await resolveRedirect("http://169.254.169.254/latest/meta-data/", { ...options(), hosts: ["169.254.169.254"] });
    expect(metadata.error).toMatch(/private or reserved/);
    expect(seen).toEqual([]);
  });

  it("gives up after the timeout and leaves the redirect unresolved", async () => {
    // /hang never answers: only the timeout can end this, and the error says it did.
    const outcome = await resolveRedirect(`${origin}/hang`, { ...options(), timeoutMs: 200 });
    expect(outcome.location).toBeNull();
    expect(outcome.error).toMatch(/FetchTimeoutError/);
  });

  it("resolves many links with small concurrency, each once", async () => {
    const urls = Array.from({ length: 8 }, (_, i) => `${origin}/go/${i}`);
    const outcomes = await resolveRedirects([...urls, urls[0]!], options());
    expect(Object.keys(outcomes)).toHaveLength(8);
    expect(outcomes[urls[3]!]!.location).toBe("https://www.example.org/page/3#top");
    expect(seen).toHaveLength(8);
    expect(maxInFlight).toBeLessThanOrEqual(2);
  });
});

describe("SSRF-safe fetch", () => {
  it("returns redirects instead of following them", async () => {
    const response = await safeRequest(`${origin}/to-self`, { allowLoopback: true });
    expect(response.status).toBe(302);
    expect(response.address).toBe("127.0.0.1");
  });

  it("follows redirects itself and checks every hop", async () => {
    const followed = await safeFetch(`${origin}/to-self`, { allowLoopback: true });
    expect(followed.status).toBe(200);
    expect(followed.redirects).toEqual([`${origin}/big`]);
    await expect(safeFetch(`${origin}/to-private`, { allowLoopback: true })).rejects.toThrow(UnsafeUrlError);
  });

  it("stops reading at the byte cap and says the body was truncated", async () => {
    const response = await safeRequest(`${origin}/big`, { allowLoopback: true, maxBytes: 1000 });
    expect(response.body.length).toBe(1000);
    expect(response.truncated).toBe(true);
  });

  it("refuses URLs that are not plain http(s)", async () => {
    await expect(safeRequest("file:///etc/passwd")).rejects.toThrow(UnsafeUrlError);
    await expect(safeRequest("http://user:pass@example.com/")).rejects.toThrow(UnsafeUrlError);
    await expect(safeRequest("http://[::1]:80/")).rejects.toThrow(UnsafeUrlError);
  });

  it.each([
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.20.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fd00::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["64:ff9b::a00:1", false],
    ["8.8.8.8", true],
    ["93.184.216.34", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["not-an-ip", false],
  ])("address %s allowed: %s", (ip, allowed) => {
    expect(isAllowedAddress(ip)).toBe(allowed);
  });

  it("allows loopback, and only loopback, with the test-only allowance", () => {
    expect(isAllowedAddress("127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress("::1", { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress("10.0.0.1", { allowLoopback: true })).toBe(false);
  });
});
