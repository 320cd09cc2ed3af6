// URL normalisation for sources: one spelling per page, so that the same page seen in search
// results and cited with a tracking parameter counts as one source.
import { getDomain } from "tldts";

// Parameters that say who sent the visitor, never which page it is.
const TRACKING_PARAMS = new Set([
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "igshid",
  "srsltid",
  "mc_cid",
  "mc_eid",
  "mkt_tok",
  "_ga",
  "_gl",
  "_hsenc",
  "_hsmi",
  "hsctatracking",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
  "vero_conv",
  "ref_src",
  "ref_url",
]);

export function isTrackingParam(name: string): boolean {
  const key = name.toLowerCase();
  return key.startsWith("utm_") || TRACKING_PARAMS.has(key);
}

function paramName(pair: string): string {
  const raw = pair.split("=", 1)[0] ?? "";
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/**
 * The page's URL in one consistent spelling: lower-case host without a trailing dot, no
 * fragment, no tracking parameters, the remaining query left byte for byte as it was.
 * Returns null for anything that is not an absolute http(s) URL.
 */
export function normalizeUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.hostname.endsWith(".")) url.hostname = url.hostname.replace(/\.+$/, "");
  url.hash = "";
  if (url.search) {
    // Filtering the raw pairs rather than re-serialising URLSearchParams keeps the other
    // parameters exactly as the site wrote them (URLSearchParams would turn %20 into +).
    const kept = url.search
      .slice(1)
      .split("&")
      .filter((pair) => pair !== "" && !isTrackingParam(paramName(pair)));
    url.search = kept.length > 0 ? `?${kept.join("&")}` : "";
  }
  return url.toString();
}

/** The registered domain (eTLD+1 by the Public Suffix List), or null for IPs, localhost and junk. */
export function registeredDomain(url: string): string | null {
  return getDomain(url, { allowPrivateDomains: false }) ?? null;
}

/** The lower-case host of a URL, or null if it is not one. */
export function hostOf(raw: string): string | null {
  try {
    return new URL(raw).hostname.toLowerCase();
  } catch {
    return null;
  }
}
