// AuditMetadata read from the page's head and its response headers: title, description,
// canonical, lang, robots rules, Open Graph and dates (JSON-LD's dates come from structured-data.ts).
import type { AuditMetadata } from "../../schemas/audits";
import { attrText, collapse, type Element, type ParsedPage, resolveUrl, tokens } from "./dom";
import type { StructuredData } from "./structured-data";

export type PageMetadata = Pick<
  AuditMetadata,
  "title" | "description" | "canonical" | "lang" | "robots" | "x_robots_tag" | "noindex" | "nofollow" | "open_graph" | "dates"
>;

type AuditDates = NonNullable<AuditMetadata["dates"]>;

/** A response header by name, whatever the case of the keys. */
export function header(headers: Record<string, string>, name: string): string | null {
  const direct = headers[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return null;
}

/** The first non-blank content of each meta name= and property=, keys "name:x" / "property:x", lower-case. */
function metaContents(metas: readonly Element[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const meta of metas) {
    const content = meta.attribs.content?.trim();
    if (!content) continue;
    for (const key of ["name", "property", "itemprop"] as const) {
      const value = meta.attribs[key]?.trim().toLowerCase();
      if (value && !found.has(`${key}:${value}`)) found.set(`${key}:${value}`, content);
    }
  }
  return found;
}

function first(meta: Map<string, string>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key);
    if (value !== undefined) return value;
  }
  return null;
}

/** Directives that take a value after a colon, so "max-snippet: 20" is not a crawler named max-snippet. */
const VALUED_DIRECTIVES = new Set(["max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"]);

/**
 * The X-Robots-Tag directives that apply to every crawler: unprefixed ones and those after "*:".
 * A "googlebot: noindex" prefix names the crawler for what follows until the next prefix.
 */
export function headerDirectives(value: string): Set<string> {
  const out = new Set<string>();
  let agent: string | null = null;
  for (const part of value.split(",")) {
    let directive = part.trim();
    const prefixed = /^([a-z0-9_*.-]+)\s*:\s*(.*)$/i.exec(directive);
    if (prefixed && !VALUED_DIRECTIVES.has(prefixed[1]!.toLowerCase())) {
      agent = prefixed[1]!.toLowerCase();
      directive = prefixed[2]!;
    }
    if (agent === null || agent === "*") for (const token of tokens(directive)) out.add(token);
  }
  return out;
}

function metaDirectives(content: string): Set<string> {
  return new Set(content.toLowerCase().split(/[\s,]+/).filter(Boolean));
}

function says(directives: Set<string>, directive: "noindex" | "nofollow"): boolean {
  return directives.has(directive) || directives.has("none");
}

function titleOf(page: ParsedPage): string | null {
  const title = page.byTag.get("title")?.[0];
  if (!title) return null;
  const text = collapse(title.children.map((child) => ("data" in child ? child.data : "")).join(""));
  return text === "" ? null : text;
}

function canonicalOf(page: ParsedPage): string | null {
  for (const link of page.byTag.get("link") ?? []) {
    if (!tokens(link.attribs.rel).includes("canonical") || link.attribs.href === undefined) continue;
    const href = link.attribs.href.trim();
    if (href === "") return null;
    return resolveUrl(href, page.baseUrl)?.href ?? href;
  }
  return null;
}

function itempropDate(page: ParsedPage, name: string): string | null {
  for (const el of page.itemprops) {
    if (!tokens(el.attribs.itemprop).includes(name.toLowerCase())) continue;
    const value = attrText(el, "content") ?? attrText(el, "datetime") ?? (el.name === "time" ? collapse(el.children.map((c) => ("data" in c ? c.data : "")).join("")) : null);
    if (value) return value;
  }
  return null;
}

const PUBLISHED_META = ["name:date", "name:dc.date", "name:dc.date.issued", "name:dcterms.date", "name:dcterms.issued", "name:dcterms.created"];

function datesOf(page: ParsedPage, meta: Map<string, string>, structured: StructuredData, headers: Record<string, string>): AuditDates {
  return {
    published:
      first(meta, ["property:article:published_time", "name:article:published_time"]) ??
      structured.datePublished ??
      itempropDate(page, "datePublished") ??
      first(meta, PUBLISHED_META),
    modified:
      first(meta, ["property:article:modified_time", "name:article:modified_time", "property:og:updated_time"]) ??
      structured.dateModified ??
      itempropDate(page, "dateModified") ??
      first(meta, ["name:dcterms.modified"]),
    last_modified_header: header(headers, "last-modified"),
  };
}

export function readMetadata(page: ParsedPage, headers: Record<string, string>, structured: StructuredData): PageMetadata {
  const metas = page.byTag.get("meta") ?? [];
  const meta = metaContents(metas);
  const robotsMetas = metas.filter((el) => el.attribs.name?.trim().toLowerCase() === "robots");
  const robots = robotsMetas.length > 0 ? robotsMetas.map((el) => (el.attribs.content ?? "").trim()).filter(Boolean).join(", ") : null;
  const xRobotsTag = header(headers, "x-robots-tag");
  const directives = new Set([...metaDirectives(robots ?? ""), ...headerDirectives(xRobotsTag ?? "")]);
  const known = robots !== null || xRobotsTag !== null;

  const openGraph: Record<string, string> = {};
  for (const el of metas) {
    const key = (el.attribs.property ?? el.attribs.name ?? "").trim().toLowerCase();
    const content = el.attribs.content?.trim();
    if (key.startsWith("og:") && content && !(key in openGraph)) openGraph[key] = content;
  }

  return {
    title: titleOf(page),
    description: meta.get("name:description") ? collapse(meta.get("name:description")!) : null,
    canonical: canonicalOf(page),
    lang: page.html ? attrText(page.html, "lang") : null,
    robots,
    x_robots_tag: xRobotsTag,
    noindex: known ? says(directives, "noindex") : null,
    nofollow: known ? says(directives, "nofollow") : null,
    open_graph: openGraph,
    dates: datesOf(page, meta, structured, headers),
  };
}
