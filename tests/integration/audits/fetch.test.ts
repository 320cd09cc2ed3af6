// Stage 1 of a page audit against a local site (let through by AUDIT_ALLOW_HOSTS / allowHosts):
// status mapping, redirects, limits, robots.txt and the llms.txt / markdown probes.
import { gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { decodeBody, fetchPage, looksLikeHtml, serverHeaders, type AuditFetchOptions } from "@/lib/audits/fetch";
import { countMarkdownLinks, derivedMarkdownUrls, probe } from "@/lib/audits/probes";
import { interpretRobots } from "@/lib/audits/robots";
import { AI_CRAWLER_TOKENS } from "@/lib/audits/types";
import { AuditFetch, AuditPage, LlmsTxtProbe } from "@/lib/schemas/audits";
import { listen, resolverFor, type Listening } from "./support";

const SITE = "www.site.example";
let site: Listening;
let origin: string;
const hits: string[] = [];
const userAgents: string[] = [];

// What the site answers; reset before each test.
let robots: { status: number; body: string } = { status: 404, body: "" };
let routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {};

const html = (body: string, headers: Record<string, string | string[]> = {}) => (_: IncomingMessage, res: ServerResponse) =>
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
const text = (status: number, body: string, type = "text/plain; charset=utf-8") => (_: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { "content-type": type }).end(body);

beforeAll(async () => {
  site = await listen((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    userAgents.push(String(req.headers["user-agent"]));
    if (path === "/robots.txt") return void res.writeHead(robots.status, { "content-type": "text/plain" }).end(robots.body);
    const redirect = /^\/hop\/(\d+)$/.exec(path);
    if (redirect) {
      const n = Number(redirect[1]);
      return void res.writeHead(n === 0 ? 200 : 301, n === 0 ? { "content-type": "text/html" } : { location: `/hop/${n - 1}` }).end(n === 0 ? "<!doctype html><title>end</title>" : "");
    }
    const handler = routes[path];
    if (handler) return handler(req, res);
    res.writeHead(404, { "content-type": "text/html" }).end("<!doctype html><h1>Not found</h1>");
  });
  origin = `http://${SITE}:${site.port}`;
});
afterAll(() => site.close());
beforeEach(() => {
  hits.length = 0;
  userAgents.length = 0;
  robots = { status: 404, body: "" };
  routes = {};
});

const options = (extra: AuditFetchOptions = {}): AuditFetchOptions => ({
  allowHosts: [`${SITE}:${site.port}`],
  resolve: resolverFor({ [SITE]: ["127.0.0.1"] }),
  ...extra,
});

function valid(fetched: Awaited<ReturnType<typeof fetchPage>>) {
  AuditFetch.parse(fetched.fetch);
  AuditPage.parse(fetched.page);
  return fetched;
}

describe("fetchPage", () => {
  it("fetches an HTML page: headers, elapsed time, charset from the header, User-Agent", async () => {
    routes["/page"] = (_, res) => {
      res.setHeader("content-type", "text/html; charset=windows-1252");
      res.setHeader("x-multi", ["a", "b"]);
      res.setHeader("set-cookie", ["sid=secret-value; HttpOnly", "theme=dark"]);
      res.setHeader("X-Robots-Tag", "noarchive");
      setTimeout(() => res.end(Buffer.from("<!doctype html><title>Café crème</title>", "latin1")), 30);
    };
    const fetched = valid(await fetchPage(`${origin}/page`, options()));
    expect(fetched.fetch).toMatchObject({ status: "success", http_status: 200, content_type: "text/html; charset=windows-1252", error: null, truncated: false, redirect_chain: [] });
    expect(fetched.page).toEqual({ url: `${origin}/page`, final_url: `${origin}/page`, domain: "site.example" });
    expect(fetched.html).toBe("<!doctype html><title>Café crème</title>");
    expect(fetched.fetch.elapsed_ms).toBeGreaterThanOrEqual(25);
    const headers = fetched.fetch.server_headers;
    expect(headers["x-multi"]).toBe("a, b");
    expect(headers["x-robots-tag"]).toBe("noarchive");
    expect(headers["set-cookie"]).toBe("sid, theme");
    expect(JSON.stringify(headers)).not.toContain("secret-value");
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
    // robots.txt first (404 here: no robots.txt, everything allowed), then the page.
    expect(hits).toEqual(["/robots.txt", "/page"]);
    expect(userAgents[1]).toMatch(/^geoscope-audit\/\d+\.\d+\.\d+ \(\+https?:\/\/\S+\)$/);
    expect(fetched.fetch.robots_txt).toEqual({ url: `${origin}/robots.txt`, http_status: 404, found: false, allows_page: true });
    expect(Object.values(fetched.robots.aiCrawlers).every((v) => v === true)).toBe(true);
  });

  it("decodes with <meta charset> when the header names none, and sniffs HTML without a Content-Type", async () => {
    routes["/meta"] = (_, res) => res.writeHead(200, { "content-type": "text/html" }).end(Buffer.from('<html><head><meta charset="iso-8859-1"></head><p>Grüße', "latin1"));
    routes["/untyped"] = (_, res) => res.end("  <!DOCTYPE html><p>untyped</p>");
    routes["/untyped-text"] = (_, res) => res.end("just text");
    expect((await fetchPage(`${origin}/meta`, options())).html).toContain("Grüße");
    const untyped = await fetchPage(`${origin}/untyped`, options());
    expect(untyped.fetch).toMatchObject({ status: "success", content_type: "" });
    expect((await fetchPage(`${origin}/untyped-text`, options())).fetch.status).toBe("non_html");
  });

  it("decodes a body compressed although identity was asked for", async () => {
    routes["/gz"] = (_, res) => res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(gzipSync("<!doctype html><p>zipped</p>"));
    expect((await fetchPage(`${origin}/gz`, options())).html).toBe("<!doctype html><p>zipped</p>");
  });

  it("maps 404 to client_error, 500 to server_error and a PDF to non_html, without HTML", async () => {
    routes["/boom"] = text(500, "oops");
    routes["/doc.pdf"] = (_, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.7");
    const missing = valid(await fetchPage(`${origin}/missing`, options()));
    expect(missing.fetch).toMatchObject({ status: "client_error", http_status: 404, error: null });
    expect(missing.html).toBeNull();
    // An answer, however bad, is what the audit reports on.
    expect(missing.unanswered).toBeNull();
    expect((await fetchPage(`${origin}/boom`, options())).fetch).toMatchObject({ status: "server_error", http_status: 500 });
    const pdf = await fetchPage(`${origin}/doc.pdf`, options());
    expect(pdf.fetch).toMatchObject({ status: "non_html", http_status: 200, content_type: "application/pdf" });
    expect(pdf.html).toBeNull();
  });

  it("records the redirect chain hop by hop, each Location absolute", async () => {
    const fetched = valid(await fetchPage(`${origin}/hop/3`, options()));
    expect(fetched.fetch.status).toBe("success");
    expect(fetched.fetch.redirect_chain).toEqual([
      { url: `${origin}/hop/3`, status: 301, location: `${origin}/hop/2` },
      { url: `${origin}/hop/2`, status: 301, location: `${origin}/hop/1` },
      { url: `${origin}/hop/1`, status: 301, location: `${origin}/hop/0` },
    ]);
    expect(fetched.page.final_url).toBe(`${origin}/hop/0`);
  });

  it("follows 10 redirects and stops at the 11th with status redirect", async () => {
    expect((await fetchPage(`${origin}/hop/10`, options())).fetch.status).toBe("success");
    const fetched = valid(await fetchPage(`${origin}/hop/11`, options()));
    expect(fetched.fetch).toMatchObject({ status: "redirect", http_status: 301, error: "more than 10 redirects" });
    expect(fetched.fetch.redirect_chain).toHaveLength(11);
    expect(hits.filter((h) => h === "/hop/0")).toHaveLength(1); // only from the first fetch
  });

  it("stops on a redirect without a Location", async () => {
    routes["/nowhere"] = (_, res) => res.writeHead(302).end();
    expect((await fetchPage(`${origin}/nowhere`, options())).fetch).toMatchObject({ status: "redirect", http_status: 302, error: "HTTP 302 without a Location" });
  });

  it("gives up on a slow server with fetch_error at the timeout", async () => {
    // The page would arrive after 3 s; a fetch_error saying timeout means the 300 ms timer ended it.
    routes["/slow"] = (_, res) => void setTimeout(() => res.end("<!doctype html>late"), 3000);
    const fetched = valid(await fetchPage(`${origin}/slow`, options({ timeoutMs: 300 })));
    expect(fetched.fetch.status).toBe("fetch_error");
    expect(fetched.fetch.error).toMatch(/^timeout: /);
    expect(fetched.fetch.elapsed_ms).toBeGreaterThanOrEqual(250);
    // No HTTP answer at all: the audit fails rather than reporting on a page it never saw.
    expect(fetched.unanswered).toEqual({ code: "page_timeout", error: fetched.fetch.error });
  });

  it("reports a connection failure as fetch_error", async () => {
    const closed = await listen(() => undefined);
    await closed.close();
    const fetched = await fetchPage(`http://127.0.0.1:${closed.port}/`, options({ allowHosts: [`127.0.0.1:${closed.port}`] }));
    expect(fetched.fetch).toMatchObject({ status: "fetch_error", error: "connection refused", robots_txt: { found: false, allows_page: null } });
    expect(fetched.unanswered).toEqual({ code: "page_connection_refused", error: "connection refused" });
  });

  it("cuts a 6 MiB page at 5 MiB and says so", async () => {
    const big = `<!doctype html><p>${"x".repeat(6 * 1024 * 1024)}</p>`;
    routes["/big"] = html(big);
    const fetched = valid(await fetchPage(`${origin}/big`, options()));
    expect(fetched.fetch).toMatchObject({ status: "success", truncated: true });
    expect(fetched.html).toHaveLength(5 * 1024 * 1024);
  });

  it("reads AUDIT_ALLOW_HOSTS when no allowHosts is given", async () => {
    routes["/page"] = html("<!doctype html>ok");
    const saved = process.env.AUDIT_ALLOW_HOSTS;
    try {
      delete process.env.AUDIT_ALLOW_HOSTS;
      resetConfig();
      expect((await fetchPage(`${origin}/page`, { resolve: options().resolve })).fetch.status).toBe("blocked");
      process.env.AUDIT_ALLOW_HOSTS = `other.example, ${SITE.toUpperCase()}:${site.port}`;
      resetConfig();
      expect((await fetchPage(`${origin}/page`, { resolve: options().resolve })).fetch.status).toBe("success");
    } finally {
      if (saved === undefined) delete process.env.AUDIT_ALLOW_HOSTS;
      else process.env.AUDIT_ALLOW_HOSTS = saved;
      resetConfig();
    }
  });
});

describe("robots.txt", () => {
  const ROBOTS = [
    "# comments and groups",
    "User-agent: geoscope",
    "Disallow: /private",
    "",
    "User-agent: GPTBot",
    "Disallow: /",
    "",
    "User-agent: ClaudeBot",
    "Allow: /",
    "",
    "User-agent: CCBot",
    "Disallow: /page",
    "",
    "User-agent: *",
    "Allow: /",
  ].join("\n");

  it("does not fetch a page robots.txt disallows for geoscope", async () => {
    robots = { status: 200, body: ROBOTS };
    let pageHits = 0;
    routes["/private"] = (_, res) => {
      pageHits++;
      res.end("secret");
    };
    const fetched = valid(await fetchPage(`${origin}/private`, options()));
    expect(pageHits).toBe(0);
    expect(hits).toEqual(["/robots.txt"]);
    expect(fetched.fetch).toMatchObject({ status: "blocked", http_status: null, elapsed_ms: 0, error: "robots.txt disallows geoscope from fetching this page (Disallow: /private)" });
    // The site answered (its robots.txt forbids the page): a finding, not an unanswered page.
    expect(fetched.unanswered).toBeNull();
    expect(fetched.fetch.robots_txt).toEqual({ url: `${origin}/robots.txt`, http_status: 200, found: true, allows_page: false });
    expect(fetched.robots.decidingLines.geoscope).toBe("Disallow: /private");
    expect(await probe(fetched, [], options())).toEqual({ llmsTxt: [], markdownAlternates: [] });
  });

  it("reads every AI crawler token, with the line that refused each", async () => {
    robots = { status: 200, body: ROBOTS };
    routes["/page"] = html("<!doctype html>ok");
    const fetched = await fetchPage(`${origin}/page`, options());
    expect(fetched.fetch.status).toBe("success");
    expect(fetched.fetch.robots_txt).toMatchObject({ found: true, allows_page: true });
    expect(Object.keys(fetched.robots.aiCrawlers).sort()).toEqual([...AI_CRAWLER_TOKENS].sort());
    expect(fetched.robots.aiCrawlers).toMatchObject({ GPTBot: false, ClaudeBot: true, CCBot: false, PerplexityBot: true });
    expect(fetched.robots.decidingLines).toEqual({ GPTBot: "Disallow: /", CCBot: "Disallow: /page" });
  });

  it.each([
    [404, true, true],
    [410, true, true],
    [403, true, true],
    [503, null, null],
  ])("robots.txt answering %i: allows_page %s", async (status, allowsPage, aiAllowed) => {
    robots = { status, body: "User-agent: *\nDisallow: /" };
    routes["/page"] = html("<!doctype html>ok");
    const fetched = await fetchPage(`${origin}/page`, options());
    expect(fetched.fetch.robots_txt).toEqual({ url: `${origin}/robots.txt`, http_status: status, found: false, allows_page: allowsPage });
    expect(fetched.robots.aiCrawlers.GPTBot).toBe(aiAllowed);
    // Unknown is not a refusal: the page is still fetched.
    expect(fetched.fetch.status).toBe("success");
  });

  it("follows a robots.txt redirect through the same checks; refused, robots.txt is unknown", async () => {
    robots = { status: 200, body: "" };
    routes["/page"] = html("<!doctype html>ok");
    const redirected = await listen((_, res) => res.writeHead(301, { location: "http://127.0.0.1:9/robots.txt" }).end());
    try {
      const fetched = await fetchPage(`http://127.0.0.1:${redirected.port}/page`, options({ allowHosts: [`127.0.0.1:${redirected.port}`] }));
      expect(fetched.fetch.robots_txt).toMatchObject({ found: false, allows_page: null, http_status: null });
    } finally {
      await redirected.close();
    }
  });

  it("interprets robots.txt by the longest match, Allow winning ties", () => {
    const body = "User-agent: geoscope\nDisallow: /docs\nAllow: /docs/public\n";
    const url = "https://a.example/robots.txt";
    expect(interpretRobots(url, body, "https://a.example/docs/public/x").allowsPage).toBe(true);
    expect(interpretRobots(url, body, "https://a.example/docs/x")).toMatchObject({ allowsPage: false, pageDecidingLine: "Disallow: /docs" });
    expect(interpretRobots(url, "\ufeffUser-agent: *\nDisallow: /", "https://a.example/").allowsPage).toBe(false);
  });
});

describe("probes", () => {
  const LLMS = "# Site\n\n> About.\n\n- [Docs](https://site.example/docs.md): the docs\n- [API](/api.md 'API')\n![logo](/logo.png)\n[ref]: not-a-link\n";

  it("finds llms.txt and counts its links; llms-full.txt absent", async () => {
    routes["/page"] = html("<!doctype html>ok");
    routes["/llms.txt"] = text(200, LLMS, "text/markdown");
    const fetched = await fetchPage(`${origin}/page`, options());
    const probes = await probe(fetched, [], options());
    expect(probes.llmsTxt).toEqual([
      { kind: "llms.txt", url: `${origin}/llms.txt`, http_status: 200, found: true, links: 2 },
      { kind: "llms-full.txt", url: `${origin}/llms-full.txt`, http_status: 404, found: false, links: 0 },
    ]);
    for (const p of probes.llmsTxt) LlmsTxtProbe.parse(p);
  });

  it("does not count an HTML page answering 200 (a catch-all) as llms.txt", async () => {
    routes["/page"] = html("<!doctype html>ok");
    routes["/llms.txt"] = html("<!DOCTYPE html><html><body>app shell</body></html>");
    routes["/llms-full.txt"] = text(200, "<!-- generated -->\n# Full\n[a](https://x.example/a)", "text/html");
    const probes = await probe(await fetchPage(`${origin}/page`, options()), [], options());
    expect(probes.llmsTxt[0]).toMatchObject({ http_status: 200, found: false, links: 0 });
    // Judged by the body, not the Content-Type a server happens to send.
    expect(probes.llmsTxt[1]).toMatchObject({ http_status: 200, found: true, links: 1 });
  });

  it("lists the markdown alternates that answer 200 with something other than HTML", async () => {
    routes["/docs/guide"] = html("<!doctype html>guide");
    routes["/docs/guide.md"] = text(200, "# Guide", "text/markdown");
    routes["/alt.md"] = text(200, "# Alt", "text/plain");
    routes["/html-alt.md"] = html("<!doctype html>not markdown");
    const fetched = await fetchPage(`${origin}/docs/guide#section`, options());
    const probes = await probe(fetched, [`${origin}/alt.md#x`, `${origin}/missing.md`, `${origin}/html-alt.md`, "mailto:a@b.example", "not a url"], options());
    expect(probes.markdownAlternates).toEqual([`${origin}/alt.md`, `${origin}/docs/guide.md`]);
    expect(hits).toEqual(expect.arrayContaining(["/alt.md", "/missing.md", "/html-alt.md", "/docs/guide.md", "/llms.txt", "/llms-full.txt"]));
    expect(userAgents.every((ua) => ua.startsWith("geoscope-audit/"))).toBe(true);
  });

  it("guesses index.html.md and index.md for a URL ending in /", async () => {
    routes["/docs/"] = html("<!doctype html>docs");
    routes["/docs/index.md"] = text(200, "# Docs");
    const probes = await probe(await fetchPage(`${origin}/docs/`, options()), [], options());
    expect(probes.markdownAlternates).toEqual([`${origin}/docs/index.md`]);
  });
});

describe("helpers", () => {
  it("sniffs HTML documents strictly", () => {
    expect(looksLikeHtml(Buffer.from("\ufeff \n<!DOCTYPE HTML><p>"))).toBe(true);
    expect(looksLikeHtml(Buffer.from("<!-- x --><html lang=en>"))).toBe(true);
    expect(looksLikeHtml(Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">'))).toBe(true);
    expect(looksLikeHtml(Buffer.from("<!-- generated -->\n# Title"))).toBe(false);
    expect(looksLikeHtml(Buffer.from("# Title\n<div>inline html</div>"))).toBe(false);
    expect(looksLikeHtml(Buffer.from("<htmlfoo>"))).toBe(false);
  });

  it("decodes by byte order mark, header charset, meta charset, else UTF-8", () => {
    expect(decodeBody(Buffer.from("\ufeffé", "utf8"), "text/html; charset=iso-8859-1")).toBe("é");
    expect(decodeBody(Buffer.from("é", "latin1"), 'text/html; charset="ISO-8859-1"')).toBe("é");
    expect(decodeBody(Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">\x80\x93hi\x94', "latin1"), "text/html")).toContain("€“hi”");
    expect(decodeBody(Buffer.from("é", "utf8"), "text/html; charset=no-such-charset")).toBe("é");
    expect(decodeBody(Buffer.from('<meta charset="utf-16">é', "utf8"), "text/html")).toContain("é");
  });

  it("joins repeated headers and keeps only cookie names", () => {
    expect(serverHeaders(["Vary", "Accept", "VARY", "Origin", "Set-Cookie", "a=1; Path=/", "Set-Cookie", "b=2"])).toEqual({ vary: "Accept, Origin", "set-cookie": "a, b" });
  });

  it("counts markdown links, not images or reference definitions", () => {
    expect(countMarkdownLinks("[a](https://x) ![i](/i.png) [b](/b \"t\") [c]: /c [d] (/d)")).toBe(2);
  });

  it("derives the .md URL of a page", () => {
    expect(derivedMarkdownUrls("https://a.example/docs/page?x=1#h")).toEqual(["https://a.example/docs/page.md?x=1"]);
    expect(derivedMarkdownUrls("https://a.example/")).toEqual(["https://a.example/index.html.md", "https://a.example/index.md"]);
    expect(derivedMarkdownUrls("https://a.example/readme.md")).toEqual([]);
  });
});
