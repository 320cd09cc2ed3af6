// `<link rel="alternate" type="text/markdown" href>`: the markdown versions a page names itself.
import { type ParsedPage, resolveUrl, tokens } from "./dom";

/** Absolute http(s) targets, each once, in document order. */
export function markdownLinks(page: ParsedPage): string[] {
  const found = new Set<string>();
  for (const link of page.byTag.get("link") ?? []) {
    if (!tokens(link.attribs.rel).includes("alternate")) continue;
    if ((link.attribs.type ?? "").split(";")[0]!.trim().toLowerCase() !== "text/markdown") continue;
    const href = link.attribs.href?.trim();
    const url = href ? resolveUrl(href, page.baseUrl) : null;
    if (url && (url.protocol === "http:" || url.protocol === "https:")) found.add(url.href);
  }
  return [...found];
}
