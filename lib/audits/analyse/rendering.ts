// Does the served HTML carry its text, or is it a shell that JavaScript fills in (the service
// does not run JavaScript)? rendering_signals are the evidence; likely_js_dependent the verdict.
import { collapse, type Element, INLINE, isElement, isHidden, type ParsedPage, SKIP, walk } from "./dom";
import { countWords } from "./words";

export type RenderingSignals = {
  /** Visible text of the body (scripts, styles, noscript, templates and hidden parts left out), whitespace collapsed. */
  body_text_chars: number;
  /** Words in that text; null when it is 2,000 characters or more (not counted: it is not tiny). */
  body_words: number | null;
  /** Executable scripts (no type, a JavaScript type or module), inline and external. */
  scripts: number;
  external_scripts: number;
  /** UTF-8 bytes of the inline executable scripts. */
  script_bytes: number;
  /** The first framework recognised: next, nuxt, gatsby, sveltekit, remix, astro, angular, vue, react; else null. */
  framework: string | null;
  /** The markers seen, e.g. "#__next", "script#__NEXT_DATA__", "window.__INITIAL_STATE__". */
  framework_markers: string[];
  noscript_text_chars: number;
  /** A <noscript> asks the reader to turn JavaScript on. */
  noscript_asks_for_js: boolean;
  /** An app root (#root, #app, #__next, #__nuxt, #___gatsby, #svelte) with no visible text. */
  empty_app_root: boolean;
};

export const TINY_TEXT_CHARS = 200;
export const TINY_TEXT_WORDS = 50;
const WORDS_COUNTED_BELOW = 2000;

const JS_TYPES = new Set(["", "module", "text/javascript", "application/javascript", "application/ecmascript", "text/ecmascript", "application/x-javascript", "text/jsx", "text/babel"]);
const APP_ROOT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby", "svelte"]);
const ASKS_FOR_JS = /(?:enable|turn on|activate|allow|need|requires?|aktivieren|activer|activez|habilita|attiva)\b[^.]{0,40}javascript|javascript[^.]{0,40}(?:enabled|disabled|required|aktivieren|activé|necesario|habilitado)|javascript\s*(?:を|が)/i;

const FRAMEWORKS: { framework: string; marker: string; test: (el: Element) => boolean }[] = [
  { framework: "next", marker: "#__next", test: (el) => el.attribs.id === "__next" },
  { framework: "next", marker: "script#__NEXT_DATA__", test: (el) => el.name === "script" && el.attribs.id === "__NEXT_DATA__" },
  { framework: "next", marker: "/_next/ script", test: (el) => el.name === "script" && (el.attribs.src ?? "").includes("/_next/") },
  { framework: "nuxt", marker: "#__nuxt", test: (el) => el.attribs.id === "__nuxt" },
  { framework: "nuxt", marker: "script#__NUXT_DATA__", test: (el) => el.name === "script" && el.attribs.id === "__NUXT_DATA__" },
  { framework: "nuxt", marker: "/_nuxt/ script", test: (el) => el.name === "script" && (el.attribs.src ?? "").includes("/_nuxt/") },
  { framework: "gatsby", marker: "#___gatsby", test: (el) => el.attribs.id === "___gatsby" },
  { framework: "sveltekit", marker: "data-sveltekit", test: (el) => el.name === "body" && Object.keys(el.attribs).some((name) => name.startsWith("data-sveltekit")) },
  { framework: "astro", marker: "astro-island", test: (el) => el.name === "astro-island" },
  { framework: "angular", marker: "ng-version", test: (el) => el.attribs["ng-version"] !== undefined },
  { framework: "angular", marker: "ng-app", test: (el) => el.attribs["ng-app"] !== undefined || el.attribs["data-ng-app"] !== undefined },
  { framework: "vue", marker: "data-v-app", test: (el) => el.attribs["data-v-app"] !== undefined },
  { framework: "vue", marker: "data-server-rendered", test: (el) => el.attribs["data-server-rendered"] !== undefined },
  { framework: "react", marker: "data-reactroot", test: (el) => el.attribs["data-reactroot"] !== undefined || el.attribs["data-reactid"] !== undefined },
];
const FRAMEWORK_ORDER = ["next", "nuxt", "gatsby", "sveltekit", "remix", "astro", "angular", "vue", "react"];

const SCRIPT_MARKERS: { framework: string | null; marker: string; pattern: RegExp }[] = [
  { framework: "next", marker: "self.__next_f", pattern: /self\.__next_f\b/ },
  { framework: "nuxt", marker: "window.__NUXT__", pattern: /__NUXT__\s*=/ },
  { framework: "remix", marker: "window.__remixContext", pattern: /__remixContext\s*=/ },
  { framework: "sveltekit", marker: "__sveltekit", pattern: /__sveltekit_/ },
  { framework: null, marker: "window.__INITIAL_STATE__", pattern: /__INITIAL_STATE__\s*=/ },
  { framework: null, marker: "window.__PRELOADED_STATE__", pattern: /__PRELOADED_STATE__\s*=/ },
  { framework: null, marker: "window.__APOLLO_STATE__", pattern: /__APOLLO_STATE__\s*=/ },
];

function scriptText(el: Element): string {
  return el.children.map((child) => ("data" in child ? child.data : "")).join("");
}

function visibleText(start: Element | ParsedPage["root"]): string {
  const parts: string[] = [];
  walk(
    start,
    null,
    (el) => {
      const name = el.name;
      if (name === "script" || name === "style" || name === "noscript" || name === "template" || name === "head" || isHidden(el)) return SKIP;
      if (!INLINE.has(name)) parts.push(" ");
      return null;
    },
    (data) => parts.push(data),
  );
  return collapse(parts.join(""));
}

export function readRenderingSignals(page: ParsedPage): RenderingSignals {
  let scripts = 0;
  let externalScripts = 0;
  let scriptBytes = 0;
  const markers = new Map<string, string | null>();
  const appRoots: Element[] = [];
  const noscriptParts: string[] = [];

  walk(page.doc, false, (el, inNoscript) => {
    const name = el.name;
    if (name === "template" || name === "svg") return SKIP;
    for (const f of FRAMEWORKS) if (!markers.has(f.marker) && f.test(el)) markers.set(f.marker, f.framework);
    if (!inNoscript && el.attribs.id !== undefined && APP_ROOT_IDS.has(el.attribs.id)) appRoots.push(el);
    if (name === "script") {
      const type = (el.attribs.type ?? "").split(";")[0]!.trim().toLowerCase();
      if (JS_TYPES.has(type)) {
        scripts++;
        if (el.attribs.src !== undefined) externalScripts++;
        else {
          const code = scriptText(el);
          scriptBytes += Buffer.byteLength(code, "utf8");
          for (const m of SCRIPT_MARKERS) if (!markers.has(m.marker) && m.pattern.test(code)) markers.set(m.marker, m.framework);
        }
      }
      return SKIP;
    }
    if (name === "style") return SKIP;
    if (name === "noscript") {
      noscriptParts.push(" ", visibleTextOfNoscript(el));
      return SKIP;
    }
    return inNoscript;
  });

  const bodyText = visibleText(page.root);
  const noscriptText = collapse(noscriptParts.join(""));
  const frameworks = new Set([...markers.values()].filter((f): f is string => f !== null));
  return {
    body_text_chars: bodyText.length,
    body_words: bodyText.length < WORDS_COUNTED_BELOW ? countWords(bodyText) : null,
    scripts,
    external_scripts: externalScripts,
    script_bytes: scriptBytes,
    framework: FRAMEWORK_ORDER.find((f) => frameworks.has(f)) ?? null,
    framework_markers: [...markers.keys()],
    noscript_text_chars: noscriptText.length,
    noscript_asks_for_js: ASKS_FOR_JS.test(noscriptText),
    empty_app_root: appRoots.some((el) => visibleText(el) === ""),
  };
}

function visibleTextOfNoscript(el: Element): string {
  const parts: string[] = [];
  walk(el, null, (child) => (isElement(child) && (child.name === "script" || child.name === "style") ? SKIP : null), (data) => parts.push(" ", data));
  return parts.join("");
}

/**
 * A JavaScript shell: the body's visible text is tiny (under 200 characters or under 50 words)
 * and something is there to fill it in (an executable script, an empty app root, or a noscript
 * asking for JavaScript).
 */
export function isLikelyJsDependent(signals: RenderingSignals): boolean {
  const tiny = signals.body_text_chars < TINY_TEXT_CHARS || (signals.body_words !== null && signals.body_words < TINY_TEXT_WORDS);
  return tiny && (signals.scripts > 0 || signals.empty_app_root || signals.noscript_asks_for_js);
}
