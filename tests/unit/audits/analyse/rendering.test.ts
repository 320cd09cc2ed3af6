// The JavaScript-shell guess and the signals it rests on.
import { describe, expect, it } from "vitest";
import { isLikelyJsDependent, readRenderingSignals } from "@/lib/audits/analyse/rendering";
import { page, prose } from "./helpers";

const signals = (html: string) => readRenderingSignals(page(html));
const shell = (html: string) => isLikelyJsDependent(signals(html));

describe("likely_js_dependent", () => {
  it("is true for an app shell: an empty root and scripts", () => {
    const html = `<!doctype html><html><head><title>App</title><script type="module" src="/assets/index-4f2a.js"></script></head><body><div id="root"></div></body></html>`;
    const s = signals(html);
    expect(s).toMatchObject({ body_text_chars: 0, body_words: 0, scripts: 1, external_scripts: 1, empty_app_root: true });
    expect(isLikelyJsDependent(s)).toBe(true);
  });

  it("is true when a noscript asks for JavaScript over a near-empty body", () => {
    const s = signals(`<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="app"><div class="spinner"></div></div></body>`);
    expect(s).toMatchObject({ noscript_asks_for_js: true, scripts: 0, empty_app_root: true });
    expect(isLikelyJsDependent(s)).toBe(true);
    expect(signals("<noscript>Bitte JavaScript aktivieren</noscript>").noscript_asks_for_js).toBe(true);
  });

  it("is false for a page that carries its text, scripts or not", () => {
    expect(shell(`<body><div id="__next"><article>${prose(3)}</article></div><script src="/_next/static/chunks/main.js"></script></body>`)).toBe(false);
  });

  it("is false for a tiny page with nothing to run", () => {
    expect(shell("<body><p>Moved to another address.</p></body>")).toBe(false);
  });

  it("is true for a tiny page that runs scripts (under 50 words though over 200 characters)", () => {
    const words = Array.from({ length: 30 }, () => "lengthy").join(" ");
    expect(shell(`<body><p>${words}</p><script>boot()</script></body>`)).toBe(true);
  });
});

describe("signals", () => {
  it("counts executable scripts only, and inline bytes in UTF-8", () => {
    const s = signals(`<script>const a = "é";</script><script type="module">import "x"</script><script src="/a.js"></script>
      <script type="application/ld+json">{"@type":"Article"}</script><script type="application/json" id="data">{}</script><script type="text/template"><p>x</p></script>`);
    expect(s).toMatchObject({ scripts: 3, external_scripts: 1, script_bytes: 'const a = "é";'.length + 1 + 'import "x"'.length });
  });

  it("measures visible body text, leaving out scripts, styles, noscript and hidden parts", () => {
    const s = signals(`<body><p>Hello <b>world</b></p><style>p{}</style><div hidden>secret</div><noscript>Enable JS please</noscript></body>`);
    expect(s).toMatchObject({ body_text_chars: "Hello world".length, body_words: 2, noscript_text_chars: "Enable JS please".length });
  });

  it("does not count words of a long body", () => {
    expect(signals(`<body>${prose(10)}</body>`).body_words).toBeNull();
  });

  it.each([
    ['<div id="__next"></div>', "next", "#__next"],
    ['<script id="__NEXT_DATA__" type="application/json">{}</script>', "next", "script#__NEXT_DATA__"],
    ["<script>self.__next_f.push([1,\"x\"])</script>", "next", "self.__next_f"],
    ['<div id="__nuxt"></div>', "nuxt", "#__nuxt"],
    ["<script>window.__NUXT__={}</script>", "nuxt", "window.__NUXT__"],
    ['<div id="___gatsby"></div>', "gatsby", "#___gatsby"],
    ['<body data-sveltekit-preload-data="hover"></body>', "sveltekit", "data-sveltekit"],
    ["<script>window.__remixContext = {}</script>", "remix", "window.__remixContext"],
    ["<astro-island></astro-island>", "astro", "astro-island"],
    ['<app-root ng-version="17.0.0"></app-root>', "angular", "ng-version"],
    ['<div data-v-app=""></div>', "vue", "data-v-app"],
    ['<div data-reactroot=""></div>', "react", "data-reactroot"],
    ["<script>window.__INITIAL_STATE__ = {}</script>", null, "window.__INITIAL_STATE__"],
  ])("recognises %s", (html, framework, marker) => {
    const s = signals(html);
    expect(s.framework).toBe(framework);
    expect(s.framework_markers).toContain(marker);
  });

  it("names the first framework in a fixed order when markers of several appear", () => {
    expect(signals('<div data-reactroot=""><div id="__next"></div></div>').framework).toBe("next");
  });

  it("does not call an app root with text empty", () => {
    expect(signals('<div id="root"><h1>Server-rendered</h1></div>').empty_app_root).toBe(false);
  });
});
