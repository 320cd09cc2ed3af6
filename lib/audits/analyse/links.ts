// LinkCounts (spec 2.4): http(s) links after resolving against the page (and <base href>); same-page
// anchors and mailto:, tel:, javascript: hrefs are not links. `main` and `navigation` are disjoint:
// a link in the main content is `main` even inside a box whose class says "menu".
import type { AuditContent } from "../../schemas/audits";
import { registeredDomain } from "../../engines/url";
import { type Element, type ParsedPage, resolveUrl, SKIP, tokens, walk } from "./dom";
import { isNavigationByName } from "./hints";
import type { MainContent } from "./main-content";

type LinkCounts = AuditContent["links"];

const NAVIGATION_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "menu", "menubar"]);

type Context = { navigation: boolean; sectioned: boolean };

/** nav and aside; header and footer unless inside an article or section (their own header, not the page's); by role; by class or id. */
export function isNavigationElement(el: Element, sectioned: boolean): boolean {
  const name = el.name;
  if (name === "nav" || name === "aside") return true;
  if ((name === "header" || name === "footer") && !sectioned) return true;
  if (tokens(el.attribs.role).some((role) => NAVIGATION_ROLES.has(role))) return true;
  return isNavigationByName(el.attribs);
}

/** The page's registered domain (Public Suffix List), or its host for IP addresses and the like. */
function siteOf(hostname: string, cache: Map<string, string>): string {
  let site = cache.get(hostname);
  if (site === undefined) {
    site = registeredDomain(hostname) ?? hostname;
    cache.set(hostname, site);
  }
  return site;
}

function withoutHash(url: URL): string {
  return url.hash === "" ? url.href : url.href.slice(0, url.href.length - url.hash.length);
}

export function countLinks(page: ParsedPage, main: MainContent): LinkCounts {
  const counts: LinkCounts = { total: 0, main: 0, navigation: 0, internal: 0, external: 0 };
  const sites = new Map<string, string>();
  const pageSite = page.pageUrl ? siteOf(page.pageUrl.hostname, sites) : null;
  const pageAddress = page.pageUrl ? withoutHash(page.pageUrl) : null;

  const count = (el: Element, navigation: boolean) => {
    const href = el.attribs.href!.trim();
    if (href === "" || href.startsWith("#")) return;
    const url = resolveUrl(href, page.baseUrl);
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return;
    if (url.hash !== "" && withoutHash(url) === pageAddress) return;
    counts.total++;
    if (main.anchors.has(el)) counts.main++;
    else if (navigation) counts.navigation++;
    if (pageSite !== null && siteOf(url.hostname, sites) === pageSite) counts.internal++;
    else counts.external++;
  };

  walk<Context>(page.doc, { navigation: false, sectioned: false }, (el, ctx) => {
    const name = el.name;
    if (name === "template" || name === "svg" || name === "script" || name === "style") return SKIP;
    if (name === "a" && el.attribs.href !== undefined) count(el, ctx.navigation);
    const sectioned = ctx.sectioned || name === "article" || name === "section";
    const navigation = ctx.navigation || (!main.containers.has(el) && isNavigationElement(el, ctx.sectioned));
    return navigation === ctx.navigation && sectioned === ctx.sectioned ? ctx : { navigation, sectioned };
  });
  return counts;
}
