// The parsed page every analyser reads, and the few DOM helpers they share. The HTML is parsed
// once, with htmlparser2 (cheerio/slim): about three times faster than parse5 on real pages, at
// the price of no HTML5 tree repair (no implied <html>/<body>), which the analysers allow for.
import { load } from "cheerio/slim";
import type { AnyNode, Document, Element, ParentNode } from "domhandler";

export type { Element, ParentNode };

/** Tags whose elements parsePage lists, in document order, for the analysers that read the head. */
const INDEXED_TAGS = new Set(["title", "meta", "link", "base", "script", "h1", "noscript"]);

export type ParsedPage = {
  doc: Document;
  /**
   * <body>; the document itself when the HTML has no <body> tag, or has content after a stray
   * </body> or </html> (browsers keep it in the body; htmlparser2 puts it beside).
   */
  root: ParentNode;
  html: Element | null;
  /** The page's own URL (null when it does not parse). */
  pageUrl: URL | null;
  /** What relative links resolve against: <base href> resolved against the page URL, else the page URL. */
  baseUrl: URL | null;
  /** Elements of INDEXED_TAGS by tag, in document order; none from inside <template> or <svg>. */
  byTag: Map<string, Element[]>;
  /** Elements with an itemprop attribute, in document order. */
  itemprops: Element[];
};

/** Phrasing elements: text inside them belongs to the enclosing block. */
export const INLINE = new Set([
  "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em", "font", "i", "img",
  "ins", "kbd", "label", "mark", "nobr", "q", "rp", "rt", "ruby", "s", "samp", "small", "span", "strike", "strong", "sub",
  "sup", "time", "tt", "u", "var", "wbr",
]);

export function isElement(node: AnyNode): node is Element {
  return node.type === "tag" || node.type === "script" || node.type === "style";
}

/** Space-separated tokens of an attribute, lower-case (rel, role). */
export function tokens(value: string | undefined): string[] {
  return value ? value.toLowerCase().split(/\s+/).filter(Boolean) : [];
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Collapsed, trimmed attribute value, or null when missing or blank. */
export function attrText(el: Element, name: string): string | null {
  const value = el.attribs[name];
  if (value === undefined) return null;
  const text = collapse(value);
  return text === "" ? null : text;
}

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

/** Hidden by the page itself: hidden, aria-hidden, inline display:none/visibility:hidden, a closed <dialog>. */
export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if (a["aria-hidden"] === "true" && !/fallback-image/.test(a.class ?? "")) return true;
  if (a.style !== undefined && HIDDEN_STYLE.test(a.style)) return true;
  if (el.name === "dialog" && a.open === undefined) return true;
  return el.name === "input" && (a.type ?? "").toLowerCase() === "hidden";
}

export const SKIP = Symbol("skip");

/**
 * Depth-first, document order, without recursion (malformed HTML nests thousands deep).
 * `enter` returns the context for the element's children, or SKIP to leave its subtree out.
 */
export function walk<C>(
  start: ParentNode,
  context: C,
  enter: (el: Element, context: C) => C | typeof SKIP,
  onText?: (data: string, context: C) => void,
): void {
  const nodes: AnyNode[] = [];
  const contexts: C[] = [];
  for (let i = start.children.length - 1; i >= 0; i--) {
    nodes.push(start.children[i]!);
    contexts.push(context);
  }
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const ctx = contexts.pop()!;
    if (node.type === "text") {
      if (onText) onText(node.data, ctx);
    } else if (isElement(node)) {
      const inner = enter(node, ctx);
      if (inner === SKIP) continue;
      const children = node.children;
      for (let i = children.length - 1; i >= 0; i--) {
        nodes.push(children[i]!);
        contexts.push(inner);
      }
    }
  }
}

/** Collapsed text of a subtree: text nodes and img alt, without script, style, template or hidden parts. */
export function textOf(el: Element): string {
  const parts: string[] = [];
  walk(
    el,
    null,
    (child) => {
      if (child.name === "script" || child.name === "style" || child.name === "template" || isHidden(child)) return SKIP;
      if (child.name === "img" && child.attribs.alt) parts.push(` ${child.attribs.alt} `);
      else if (child.name === "br") parts.push(" ");
      return null;
    },
    (data) => parts.push(data),
  );
  return collapse(parts.join(""));
}

/** An absolute URL, or null when it does not resolve. */
export function resolveUrl(href: string, base: URL | null): URL | null {
  try {
    return base ? new URL(href, base) : new URL(href);
  } catch {
    return null;
  }
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Elements that may follow </body> without being page content. */
const AFTER_BODY = new Set(["script", "style", "noscript", "link", "meta", "template", "iframe", "img"]);

function contentAfter(node: AnyNode | null): boolean {
  for (let next = node?.next ?? null; next !== null; next = next.next) {
    if (next.type === "text" ? /\S/.test(next.data) : isElement(next) && !AFTER_BODY.has(next.name)) return true;
  }
  return false;
}

export function parsePage(html: string, pageUrl: string): ParsedPage {
  const doc = load(html).root()[0] as Document;
  const byTag = new Map<string, Element[]>();
  const itemprops: Element[] = [];
  let body: Element | null = null;
  let htmlEl: Element | null = null;
  walk(doc, null, (el) => {
    const name = el.name;
    if (name === "template" || name === "svg") return SKIP;
    if (name === "body" && body === null) body = el;
    else if (name === "html" && htmlEl === null) htmlEl = el;
    if (INDEXED_TAGS.has(name)) {
      const list = byTag.get(name);
      if (list) list.push(el);
      else byTag.set(name, [el]);
    }
    if (el.attribs.itemprop !== undefined) itemprops.push(el);
    return name === "script" || name === "style" ? SKIP : null;
  });
  const url = parseUrl(pageUrl);
  const baseHref = byTag.get("base")?.find((el) => el.attribs.href !== undefined)?.attribs.href;
  const baseUrl = (baseHref !== undefined ? resolveUrl(baseHref.trim(), url) : null) ?? url;
  const strayContent = body !== null && (contentAfter(body) || contentAfter(htmlEl));
  return { doc, root: body !== null && !strayContent ? body : doc, html: htmlEl, pageUrl: url, baseUrl, byTag, itemprops };
}

/** Whether an element is rendered: neither it nor an ancestor is hidden, a <noscript> or a <template>. */
export function isRendered(el: Element): boolean {
  for (let node: ParentNode | null = el; node !== null && node.type !== "root"; node = node.parent) {
    if (!isElement(node)) continue;
    if (node.name === "noscript" || node.name === "template" || isHidden(node)) return false;
  }
  return true;
}
