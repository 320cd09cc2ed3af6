// The audit fetcher against server-side request forgery: every way of naming this machine or
// its private network, directly and behind a redirect, is refused before a byte is sent. A
// canary listening on loopback (v4 and, when available, v6) at the port every vector points
// at must see no connection at all over the whole table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchPage, type AuditFetchOptions } from "@/lib/audits/fetch";
import { probe } from "@/lib/audits/probes";
import { listen, resolverFor, type Listening } from "./support";

let canary: Listening;
let canary6: Listening | null = null;
let redirector: Listening;
let P: number;
const canaryHits: string[] = [];
const redirectorHits: string[] = [];

const REDIRECTOR = "redirector.example";

beforeAll(async () => {
  const record = (where: string) => (socket: { remoteAddress?: string }) => canaryHits.push(`${where} connection from ${socket.remoteAddress}`);
  canary = await listen((req, res) => {
    canaryHits.push(`v4 ${req.method} ${req.url}`);
    res.end("canary");
  });
  canary.server.on("connection", record("v4"));
  P = canary.port;
  try {
    canary6 = await listen((req, res) => {
      canaryHits.push(`v6 ${req.method} ${req.url}`);
      res.end("canary");
    }, "::1", P);
    canary6.server.on("connection", record("v6"));
  } catch {
    canary6 = null; // no IPv6 loopback here; the v4 canary still catches mapped forms
  }
  // Control: the canaries answer when the address check is bypassed on purpose, so silence
  // below means refusal, not a deaf canary.
  const control = await fetchPage(`http://127.0.0.1:${P}/control`, { allowHosts: [`127.0.0.1:${P}`, `[::1]:${P}`], userAgent: "control" });
  expect(control.fetch.status).toBe("non_html");
  if (canary6) expect((await fetchPage(`http://[::1]:${P}/control`, { allowHosts: [`[::1]:${P}`], userAgent: "control" })).fetch.http_status).toBe(200);
  expect(canaryHits.filter((h) => h.endsWith("GET /control"))).toHaveLength(canary6 ? 2 : 1);
  canaryHits.length = 0;

  redirector = await listen((req, res) => {
    redirectorHits.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/r") res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
    else res.writeHead(404).end();
  });
});

afterAll(async () => {
  await Promise.all([canary.close(), canary6?.close(), redirector.close()]);
  // The point of the whole file.
  expect(canaryHits).toEqual([]);
});

let lookups = 0;
const options = (): AuditFetchOptions => ({
  timeoutMs: 2000,
  // Only the redirecting server is let through, by name and port.
  allowHosts: [`${REDIRECTOR}:${redirector.port}`],
  userAgent: "geoscope-audit/test",
  resolve: resolverFor({
    [REDIRECTOR]: ["127.0.0.1"],
    "internal.example": ["127.0.0.1"],
    "loopback6.example": ["::1"],
    "metadata.example": ["169.254.169.254"],
    "private.example": ["10.1.2.3"],
    "mapped.example": ["::ffff:127.0.0.1"],
    // One public address among private ones is not enough.
    "mixed.example": ["93.184.216.34", "127.0.0.1"],
    // Public when first asked, loopback from then on (DNS rebinding).
    "rebind.example": () => (lookups++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
  }),
});

// Every spelling the WHATWG parser turns into an address on this machine or a private net.
const addressVectors = (): [string, string][] => [
  ["loopback", `http://127.0.0.1:${P}/`],
  ["loopback short", `http://127.1:${P}/`],
  ["loopback decimal", `http://2130706433:${P}/`],
  ["loopback hex", `http://0x7f000001:${P}/`],
  ["loopback octal dotted", `http://0177.0.0.1:${P}/`],
  ["loopback octal", `http://017700000001:${P}/`],
  ["loopback zero-padded", `http://127.000.000.001:${P}/`],
  ["loopback trailing dot", `http://127.0.0.1.:${P}/`],
  ["loopback other /8", `http://127.9.9.9:${P}/`],
  ["loopback https", `https://127.0.0.1:${P}/`],
  ["v6 loopback", `http://[::1]:${P}/`],
  ["v4-mapped", `http://[::ffff:127.0.0.1]:${P}/`],
  ["v4-mapped hex", `http://[::ffff:7f00:1]:${P}/`],
  ["v4-mapped long", `http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/`],
  ["v4-compatible", `http://[::127.0.0.1]:${P}/`],
  ["unspecified v4", `http://0.0.0.0:${P}/`],
  ["unspecified v4 short", `http://0:${P}/`],
  ["unspecified v6", `http://[::]:${P}/`],
  ["private 10/8", `http://10.0.0.1:${P}/`],
  ["private 172.16/12", `http://172.16.0.1:${P}/`],
  ["private 192.168/16", `http://192.168.1.1:${P}/`],
  ["link-local metadata", `http://169.254.169.254:${P}/latest/meta-data/`],
  ["CGNAT", `http://100.64.0.1:${P}/`],
  ["multicast", `http://224.0.0.1:${P}/`],
  ["broadcast", `http://255.255.255.255:${P}/`],
  ["benchmarking", `http://198.18.0.1:${P}/`],
  ["documentation", `http://192.0.2.1:${P}/`],
  ["unique local", `http://[fd00::1]:${P}/`],
  ["link-local v6", `http://[fe80::1]:${P}/`],
  ["site-local", `http://[fec0::1]:${P}/`],
  ["NAT64", `http://[64:ff9b::7f00:1]:${P}/`],
  ["NAT64 local-use", `http://[64:ff9b:1::a00:1]:${P}/`],
  ["6to4", `http://[2002:7f00:1::1]:${P}/`],
  ["Teredo", `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${P}/`],
  ["name: localhost (/etc/hosts)", `http://localhost:${P}/`],
  ["name: LOCALHOST", `http://LOCALHOST:${P}/`],
  ["name to loopback", `http://internal.example:${P}/`],
  ["name to v6 loopback", `http://loopback6.example:${P}/`],
  ["name to metadata", `http://metadata.example:${P}/`],
  ["name to private", `http://private.example:${P}/`],
  ["name to v4-mapped", `http://mapped.example:${P}/`],
  ["name to public and private", `http://mixed.example:${P}/`],
];

const schemeVectors = (): [string, string][] => [
  ["file", "file:///etc/passwd"],
  ["ftp", `ftp://127.0.0.1:${P}/`],
  ["gopher", `gopher://127.0.0.1:${P}/_GET%20/`],
  ["data", "data:text/html,<h1>hi</h1>"],
  ["javascript", "javascript:alert(1)"],
  ["ws", `ws://127.0.0.1:${P}/`],
];

describe("refused outright", () => {
  it("refuses every address vector, says why, and reveals no resolved address", async () => {
    const vectors = addressVectors();
    expect(vectors.length).toBeGreaterThanOrEqual(25);
    for (const [name, url] of vectors) {
      const fetched = await fetchPage(url, options());
      expect(fetched.fetch.status, name).toBe("blocked");
      expect(fetched.fetch.error, name).toMatch(/^refused: .*private or reserved address$/);
      expect(fetched.fetch.http_status, name).toBeNull();
      expect(fetched.fetch.robots_txt, name).toBeNull();
      expect(fetched.html, name).toBeNull();
      expect(fetched.unanswered, name).toEqual({ code: "page_blocked", error: fetched.fetch.error });
      if (!/^https?:\/\/[\d[]/.test(url)) expect(fetched.fetch.error, name).not.toMatch(/127\.0\.0\.1|::1|169\.254|10\.1\.2\.3/);
    }
  });

  it("refuses a name that turns private after the first lookup (DNS rebinding)", async () => {
    lookups = 0;
    const fetched = await fetchPage(`http://rebind.example:${P}/`, options());
    expect(lookups).toBeGreaterThan(1);
    expect(fetched.fetch.status).toBe("blocked");
    expect(fetched.fetch.error).toMatch(/rebind\.example resolves to a private or reserved address/);
    // robots.txt was tried (the first answer was public) and refused in its turn.
    expect(fetched.fetch.robots_txt).toMatchObject({ found: false, allows_page: null, http_status: null });
  });

  it("refuses every scheme but http and https, and credentials", async () => {
    for (const [name, url] of [...schemeVectors(), ["credentials", `http://user:pass@127.0.0.1:${P}/`] as [string, string]]) {
      const fetched = await fetchPage(url, options());
      expect(fetched.fetch.status, name).toBe("blocked");
      expect(fetched.fetch.error, name).toMatch(/^refused: (only http and https URLs are fetched|URLs with credentials are not fetched)/);
    }
  });

  it("makes no probe for a blocked page", async () => {
    const fetched = await fetchPage(`http://127.0.0.1:${P}/`, options());
    expect(await probe(fetched, [`http://127.0.0.1:${P}/page.md`], options())).toEqual({ llmsTxt: [], markdownAlternates: [] });
  });
});

describe("refused behind a redirect", () => {

  const via = (target: string) => `http://${REDIRECTOR}:${redirector.port}/r?to=${encodeURIComponent(target)}`;

  it("follows the allow-listed redirector, then refuses every address vector it points at", async () => {
    for (const [name, target] of addressVectors()) {
      redirectorHits.length = 0;
      const fetched = await fetchPage(via(target), options());
      expect(redirectorHits, name).toEqual(["/robots.txt", `/r?to=${encodeURIComponent(target)}`]);
      expect(fetched.fetch.status, name).toBe("blocked");
      expect(fetched.fetch.error, name).toMatch(/^refused: .*private or reserved address$/);
      expect(fetched.fetch.redirect_chain, name).toEqual([{ url: via(target), status: 302, location: new URL(target).toString() }]);
      // Where it stopped: the redirect that was answered, not the address refused.
      expect(fetched.page.final_url, name).toBe(via(target));
      expect(fetched.fetch.http_status, name).toBe(302);
      // The site answered (a redirect out of reach of any answer engine): a finding, not an unanswered page.
      expect(fetched.unanswered, name).toBeNull();
    }
  });

  it("refuses a redirect to any other scheme", async () => {
    for (const [name, target] of schemeVectors()) {
      const fetched = await fetchPage(via(target), options());
      expect(fetched.fetch.status, name).toBe("blocked");
      expect(fetched.fetch.error, name).toMatch(/^refused: a redirect to a [a-z]+: URL; only http and https are fetched$/);
      expect(fetched.fetch.redirect_chain, name).toHaveLength(1);
    }
  });

  it("probes go through the same checks: markdown links to private addresses are not asked", async () => {
    const fetched = await fetchPage(via(`http://127.0.0.1:${P}/`), options());
    expect(fetched.fetch.status).toBe("blocked");
    // Even for a page that was fetched, probe targets are checked hop by hop.
    const page = { ...fetched, fetch: { ...fetched.fetch, status: "client_error" as const } };
    const links = addressVectors().map(([, url]) => `${url}page.md`);
    // probe() asks at most 10 linked alternates a call.
    for (let i = 0; i < links.length; i += 10) {
      const probes = await probe(page, links.slice(i, i + 10), options());
      expect(probes.markdownAlternates).toEqual([]);
      expect(probes.llmsTxt.map((p) => p.found)).toEqual([false, false]);
    }
  });
});

describe("the canary", () => {
  it("saw no connection over the whole table", () => {
    expect(canaryHits).toEqual([]);
  });
});
