// Page audits end to end through the route handlers: POST /audits queues an audit run and its
// hold; the local driver fetches pages served by a local test host (let through by
// AUDIT_ALLOW_HOSTS), analyses them and evaluates every finding; GET /runs/{id} answers the
// audit document. A page that answers badly (404, not HTML) is a completed audit that says so and is
// charged; a page that gave no HTTP answer at all fails the run and releases its hold.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postAudits } from "@/app/api/v1/audits/route";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { GET as getTransactions } from "@/app/api/v1/billing/transactions/route";
import { GET as getPricing } from "@/app/api/v1/pricing/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { FINDING_CATALOG } from "@/lib/audits/findings";
import { formatUsd, parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create";
import { AuditResult } from "@/lib/schemas/audits";
import { Run } from "@/lib/schemas/runs";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 7 === 0 ? "," : ""}`).join(" ");
const recent = new Date(Date.now() - 20 * 24 * 3600 * 1000).toISOString();

const ARTICLE = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Choosing a CRM for a small B2B team | Acme</title>
<meta name="description" content="Three questions that decide which CRM a ten-person B2B team should pick, with prices compared side by side.">
<link rel="canonical" href="/article">
<meta property="og:title" content="Choosing a CRM"><meta property="og:description" content="Three questions that decide it.">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Choosing a CRM","datePublished":"${recent}","author":{"@type":"Person","name":"Ada"}}</script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/pricing">Pricing</a></nav></header>
<article>
<h1>Choosing a CRM for a small B2B team</h1>
<p>${words(120, "pipeline")}</p>
<h2>Who enters the data</h2>
<p>${words(120, "contacts")} <a href="https://www.example.org/crm-study">a study</a></p>
<h2>What it must connect to</h2>
<p>${words(120, "integrations")}</p>
</article>
<footer><a href="/about">About</a> <a href="mailto:hi@acme.example">Mail</a></footer>
</body></html>`;

const NOINDEX = `<!doctype html><html lang="en"><head><title>Internal draft page for testing</title><meta name="robots" content="noindex, nofollow"></head>
<body><main><h1>Draft</h1><p>${words(50, "draft")}</p></main></body></html>`;

let server: Server;
let base: string;
/** A port nothing listens on (let through AUDIT_ALLOW_HOSTS): the connection is refused. */
let closedPort: number;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, ...headers });
      res.end(body);
    };
    switch (req.url) {
      case "/robots.txt":
        return send(200, "text/plain", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
      case "/llms.txt":
        return send(200, "text/markdown", "# Acme\n\n- [Pricing](https://acme.example/pricing.md)\n- [Blog](https://acme.example/blog.md)\n");
      case "/article":
        return send(200, "text/html; charset=utf-8", ARTICLE, { "last-modified": new Date().toUTCString() });
      case "/noindex":
        return send(200, "text/html", NOINDEX);
      case "/report.pdf":
        return send(200, "application/pdf", Buffer.from("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj <<>> endobj\n"));
      case "/moved":
        return send(301, "text/html", "", { location: "/article" });
      case "/to-private":
        return send(302, "text/html", "", { location: "http://10.1.2.3/admin" });
      default:
        return send(404, "text/html", "<!doctype html><html><body><h1>Not found</h1></body></html>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  process.env.AUDIT_ALLOW_HOSTS = `127.0.0.1:${port},127.0.0.1:${closedPort}`;
  resetConfig();
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  project = (await createProject(principalOf(alice), { name: "Audits", workspace_id: alice.workspaceId, context: null })).id;
});

afterAll(async () => {
  delete process.env.AUDIT_ALLOW_HOSTS;
  resetConfig();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let alice: Person;
let bob: Person;
let project: string;

/** Audits `url` and waits for the run to finish: its status, whatever it is. */
async function finished(url: string, token = alice.cliToken) {
  const queued = await call(postAudits, "POST", "/audits", { token, body: { url, project } });
  expect(queued.status).toBe(202);
  const done = await call(getRunRoute, "GET", `/runs/${queued.body.id}`, { token, params: { run_id: queued.body.id }, query: { wait: 30 } });
  expect(done.status).toBe(200);
  expect(() => Run.parse(done.body)).not.toThrow();
  return { queued: queued.body, run: done.body };
}

async function audit(url: string, token = alice.cliToken) {
  const { queued, run } = await finished(url, token);
  expect(run.status).toBe("completed");
  return { queued, run, result: AuditResult.parse(run.result) };
}

/** The workspace's money as the API tells it: balance, held, and the ledger's transactions. */
async function books() {
  const summary = (await call(getBilling, "GET", "/billing", { token: alice.cliToken })).body;
  const ledger = (await call(getTransactions, "GET", "/billing/transactions", { token: alice.cliToken, query: { limit: 200 } })).body;
  return { balance: summary.balance_usd, held: summary.held_usd, transactions: ledger.items.map((t: { id: string }) => t.id) };
}

const finding = (result: AuditResult, key: string) => result.findings.find((f) => f.key === key)!;

describe("POST /audits", () => {
  it("audits an article: fetch, content, outline, metadata, probes and every finding once; held then captured", async () => {
    const card = (await call(getPricing, "GET", "/pricing")).body;
    const price = parseUsd(card.prices.find((p: { product: string }) => p.product === "audit").unit_price_usd);
    const { queued, run, result } = await audit(`${base}/article`);
    expect(queued).toMatchObject({ kind: "audit", status: "queued", engine: null, batch_id: null, input: { url: `${base}/article` }, project_id: project });
    expect(queued.charge).toMatchObject({ status: "held", unit: "url", units: 1, amount_usd: formatUsd(price) });
    expect(run.charge).toMatchObject({ status: "captured", units: 1, amount_usd: formatUsd(price) });

    expect(result.page).toEqual({ url: `${base}/article`, final_url: `${base}/article`, domain: null });
    expect(result.fetch).toMatchObject({ status: "success", http_status: 200, redirect_chain: [], truncated: false, error: null });
    expect(result.fetch.content_type).toBe("text/html; charset=utf-8");
    expect(result.fetch.robots_txt).toEqual({ url: `${base}/robots.txt`, http_status: 200, found: true, allows_page: true });
    expect(result.content.extraction_method).toBe("article");
    expect(result.content.word_count).toBeGreaterThan(340);
    expect(result.content.word_count).toBeLessThan(400);
    expect(result.content.links).toMatchObject({ main: 1, external: 1 });
    expect(result.content.likely_js_dependent).toBe(false);
    expect(result.structure.headings).toEqual([
      { level: 1, text: "Choosing a CRM for a small B2B team" },
      { level: 2, text: "Who enters the data" },
      { level: 2, text: "What it must connect to" },
    ]);
    expect(result.metadata).toMatchObject({
      title: "Choosing a CRM for a small B2B team | Acme",
      canonical: `${base}/article`,
      lang: "en",
      // Neither a robots meta tag nor X-Robots-Tag: nothing said either way.
      robots: null,
      noindex: null,
      structured_data_errors: 0,
    });
    expect(result.metadata.structured_data_types[0]).toBe("Article");
    expect(result.metadata.dates.published).toBe(recent);
    expect(result.metadata.llms_txt.find((p) => p.kind === "llms.txt")).toMatchObject({ found: true, links: 2, http_status: 200 });

    // Every catalog entry once, in order; GPTBot is refused by robots.txt, with the deciding line as evidence.
    expect(result.findings.map((f) => f.key)).toEqual(FINDING_CATALOG.map((c) => c.key));
    const blocked = finding(result, "ai_crawlers_blocked");
    expect(blocked.status).toBe("fail");
    expect(blocked.items.map((i) => i.subtype)).toEqual(["GPTBot"]);
    expect(blocked.items[0]!.evidence.some((e) => e.source === "robots.txt" && String(e.value).includes("Disallow: /"))).toBe(true);
    for (const key of ["http_error", "robots_blocks_page", "noindex", "missing_h1", "multiple_h1", "thin_content", "missing_title", "canonical_missing", "canonical_elsewhere", "llms_txt_missing", "no_structured_data", "stale_content"]) {
      expect(finding(result, key).status, key).toBe("pass");
    }
  });

  it("records redirects, and completes audits of pages that answer badly, saying so, and charges them", async () => {
    const moved = (await audit(`${base}/moved`)).result;
    expect(moved.fetch.redirect_chain).toEqual([{ url: `${base}/moved`, status: 301, location: `${base}/article` }]);
    expect(moved.page.final_url).toBe(`${base}/article`);

    const notFound = await audit(`${base}/nowhere`);
    // A 404 is an answer, and a finding: the audit did its work and is paid for.
    expect(notFound.run.charge).toMatchObject({ status: "captured", units: 1 });
    const missing = notFound.result;
    expect(missing.fetch).toMatchObject({ status: "client_error", http_status: 404 });
    expect(finding(missing, "http_error").status).toBe("fail");
    expect(finding(missing, "missing_h1").status).toBe("not_applicable");

    const noindex = (await audit(`${base}/noindex`)).result;
    expect(noindex.metadata).toMatchObject({ noindex: true, nofollow: true, robots: "noindex, nofollow" });
    expect(finding(noindex, "noindex").status).toBe("fail");
    expect(finding(noindex, "noindex").items[0]!.evidence[0]!.source).toContain("robots");

    const pdfRun = await audit(`${base}/report.pdf`);
    expect(pdfRun.run.charge.status).toBe("captured");
    const pdf = pdfRun.result;
    expect(pdf.fetch.status).toBe("non_html");
    expect(finding(pdf, "non_html").status).toBe("fail");
    expect(pdf.content.extraction_method).toBeNull();

    // A redirect to a private address is refused at that hop: the audit says blocked.
    const toPrivate = (await audit(`${base}/to-private`)).result;
    expect(toPrivate.fetch.status).toBe("blocked");
    expect(toPrivate.fetch.error).toContain("private or reserved");
    expect(toPrivate.fetch.redirect_chain).toHaveLength(1);
  });

  it("fails an audit whose page gave no HTTP answer, saying why; its hold is released and nothing is charged", async () => {
    const before = await books();
    const cases = [
      {
        url: "http://192.168.0.1/router",
        error: { code: "page_blocked", retryable: false, engine: null },
        message: /^The page could not be fetched: 192\.168\.0\.1 is a private or reserved address\. Audits fetch only public addresses/,
      },
      {
        url: `http://127.0.0.1:${closedPort}/page`,
        error: { code: "page_connection_refused", retryable: true, engine: null },
        message: new RegExp(`^The page could not be fetched: 127\\.0\\.0\\.1:${closedPort} refused the connection\\. `),
      },
    ];
    for (const { url, error, message } of cases) {
      const { queued, run } = await finished(url);
      expect(queued.charge, url).toMatchObject({ status: "held", units: 1 });
      expect(run.status, url).toBe("failed");
      expect(run.result, url).toBeNull();
      expect(run.error, url).toMatchObject(error);
      expect(run.error.message, url).toMatch(message);
      expect(run.charge, url).toMatchObject({ status: "released", amount_usd: "0.00" });
    }
    // The books are as they were: the same balance, nothing held, no transaction.
    expect(await books()).toEqual(before);
    expect(before.held).toBe("0.00");
  });

  it("refuses a URL that is not absolute http(s), or too long, with 400 naming url; nothing created", async () => {
    const before = await db().run.count({ where: { kind: "audit" } });
    for (const url of ["ftp://example.com/file", "example.com/page", "javascript:alert(1)", "file:///etc/passwd", "", `https://example.com/${"a".repeat(2040)}`]) {
      const res = await call(postAudits, "POST", "/audits", { token: alice.cliToken, body: { url, project } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toContain("url");
    }
    const noProject = await call(postAudits, "POST", "/audits", { token: alice.cliToken, body: { url: `${base}/article` } });
    expect(noProject.status).toBe(400);
    expect(await db().run.count({ where: { kind: "audit" } })).toBe(before);
  });

  it("keeps audits inside their workspace: 404 for a foreign project or audit run", async () => {
    const foreign = await call(postAudits, "POST", "/audits", { token: bob.cliToken, body: { url: `${base}/article`, project } });
    expect(foreign.status).toBe(404);
    const { run } = await audit(`${base}/article`);
    const theirs = await call(getRunRoute, "GET", `/runs/${run.id}`, { token: bob.cliToken, params: { run_id: run.id } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.message).toBe(`No such run "${run.id}".`);
  });
});
