// The audit benchmark's site, in a process of its own (the audited site is elsewhere, so serving
// it is not the audit's work): the five comparison pages at /blog/article-<size>, 200 distinct
// articles at /articles/<n> (the five sizes in turn), robots.txt, llms.txt, and what Chrome
// loads besides (a script, images, a favicon). Anything else is 404, as /llms-full.txt and the
// pages' .md alternates are. Pages are built on first request and kept.
// Run: tsx bench/lib/page-server.ts [--port N]   (prints "listening <port>")
import { createServer } from "node:http";
import { APP_JS, articleHtml, LLMS_TXT, PAGE_SIZES, PIXEL_PNG, robotsTxt } from "./pages";

const LAST_MODIFIED = "Mon, 02 Mar 2026 09:00:00 GMT";
const pages = new Map<string, Buffer>();
let origin = "";

function page(path: string): Buffer | null {
  const cached = pages.get(path);
  if (cached) return cached;
  let built: string | null = null;
  const named = /^\/blog\/article-([a-z0-9]+)$/.exec(path);
  const numbered = /^\/articles\/(\d+)$/.exec(path);
  if (named) {
    const index = PAGE_SIZES.findIndex((s) => s.name === named[1]);
    if (index >= 0) built = articleHtml(origin, path, PAGE_SIZES[index]!.bytes, 1000 + index);
  } else if (numbered && Number(numbered[1]) < 10_000) {
    const n = Number(numbered[1]);
    built = articleHtml(origin, path, PAGE_SIZES[n % PAGE_SIZES.length]!.bytes, n);
  }
  if (built === null) return null;
  const body = Buffer.from(built, "utf8");
  pages.set(path, body);
  return body;
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://bench").pathname;
  const send = (status: number, type: string, body: Buffer | string) => {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    res.writeHead(status, { "content-type": type, "content-length": bytes.length, "last-modified": LAST_MODIFIED, "cache-control": "max-age=300" });
    res.end(req.method === "HEAD" ? undefined : bytes);
  };
  if (path === "/robots.txt") return send(200, "text/plain; charset=utf-8", robotsTxt(origin));
  if (path === "/llms.txt") return send(200, "text/plain; charset=utf-8", LLMS_TXT);
  if (path === "/static/app.js") return send(200, "text/javascript; charset=utf-8", APP_JS);
  if (path.startsWith("/img/") || path === "/favicon.png") return send(200, "image/png", PIXEL_PNG);
  const html = page(path);
  if (html) return send(200, "text/html; charset=utf-8", html);
  send(404, "text/html; charset=utf-8", "<!doctype html><title>Not found</title><h1>Not found</h1>");
});

const portArg = process.argv.indexOf("--port");
server.keepAliveTimeout = 30_000;
server.listen(portArg >= 0 ? Number(process.argv[portArg + 1]) : 0, "127.0.0.1", () => {
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // Built before "listening", so that no measured request pays for building its page.
  for (const s of PAGE_SIZES) page(`/blog/article-${s.name}`);
  for (let n = 0; n < 200; n++) page(`/articles/${n}`);
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
