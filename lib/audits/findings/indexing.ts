// Indexing findings: does the page let itself be indexed, and which address does it name as its own.
import type { FindingKey } from "./catalog";
import { capitalised, type Check, evidence, fail, type ItemDraft, notApplicable, pass, quote, text, warn, withAnalysis } from "./check";
import type { PageAnalysis } from "../types";

const META_ROBOTS = 'html:<meta name="robots">';
const X_ROBOTS_TAG = "header:x-robots-tag";
const CANONICAL = 'html:<link rel="canonical">';

type Directive = "noindex" | "nofollow";

/** "none" means noindex and nofollow; "googlebot: noindex" names a crawler first. */
function says(value: string, directive: Directive): boolean {
  return value
    .toLowerCase()
    .split(/[\s,]+/)
    .some((token) => token === directive || token === "none");
}

// The analyser decides (metadata.noindex / nofollow); the items show where it is written.
function robotsDirective(directive: Directive): Check {
  return withAnalysis(({ metadata }) => {
    const places = [
      { label: "robots meta tag", value: text(metadata.robots), source: META_ROBOTS },
      { label: "X-Robots-Tag header", value: text(metadata.x_robots_tag), source: X_ROBOTS_TAG },
    ];
    if (metadata[directive] !== true) return pass(`Neither the robots meta tag nor the X-Robots-Tag header says ${directive}.`);
    const saying = places.filter((place) => place.value !== null && says(place.value, directive));
    const shown = saying.length > 0 ? saying : places.filter((place) => place.value !== null);
    const items: ItemDraft[] = shown.map((place) => ({
      summary: `The ${place.label} says ${quote(place.value ?? "")}`,
      subtype: place.source === X_ROBOTS_TAG ? "x_robots_tag" : "meta_robots",
      details: { value: place.value },
      evidence: [evidence(place.label, place.value, place.source)],
    }));
    const reason =
      saying.length === 0
        ? `The page's robots rules say ${directive}.`
        : `${capitalised(saying.map((place) => `the ${place.label}`).join(" and "))} ${saying.length > 1 ? "say" : "says"} ${directive}.`;
    // Set by a rule the two strings do not show (e.g. a crawler-specific meta tag).
    return fail(reason, items.length > 0 ? items : [{ summary: `${directive} is set`, evidence: [evidence(directive, true, "html")] }]);
  });
}

const canonicalOf = (analysis: PageAnalysis): string | null => text(analysis.metadata.canonical);

type CanonicalProblem = "relative" | "not_http" | "unparseable";

function canonicalProblem(canonical: string, base: string): CanonicalProblem | null {
  if (URL.canParse(canonical)) {
    const { protocol, hostname } = new URL(canonical);
    return (protocol === "http:" || protocol === "https:") && hostname !== "" ? null : "not_http";
  }
  return URL.canParse(canonical, base) ? "relative" : "unparseable";
}

const PROBLEM_WORDS: Record<CanonicalProblem, string> = {
  relative: "a relative address, not a full URL",
  not_http: "not an http(s) address",
  unparseable: "not a valid URL",
};

const canonicalMissing: Check = withAnalysis((analysis) => {
  const canonical = canonicalOf(analysis);
  if (canonical !== null) return pass(`The page names its canonical URL: ${canonical}.`);
  return fail("The page has no canonical link.", [{ summary: "No <link rel=\"canonical\">", evidence: [evidence("canonical", null, CANONICAL)] }]);
});

const canonicalInvalid: Check = withAnalysis((analysis, { fetched: { page } }) => {
  const canonical = canonicalOf(analysis);
  if (canonical === null) return notApplicable("The page has no canonical link (see canonical_missing).");
  const problem = canonicalProblem(canonical, page.final_url);
  if (problem === null) return pass(`The canonical ${canonical} is an absolute http(s) URL.`);
  return fail(`The canonical ${quote(canonical)} is ${PROBLEM_WORDS[problem]}.`, [
    { summary: `Canonical is ${PROBLEM_WORDS[problem]}`, subtype: problem, details: { canonical }, evidence: [evidence("canonical", canonical, CANONICAL)] },
  ]);
});

/** Scheme and host case, default ports, an empty path and the fragment do not make another URL. */
function normalised(url: string): URL {
  const parsed = new URL(url);
  parsed.hash = "";
  return parsed;
}

/** What separates two URLs that are the same but for the scheme, a leading www. or a trailing slash. */
function variantDifferences(a: URL, b: URL): string[] | null {
  const differences: string[] = [];
  const bare = (url: URL) => {
    const copy = new URL(url.href);
    copy.protocol = "https:";
    copy.hostname = copy.hostname.replace(/^www\./, "");
    if (copy.pathname.length > 1) copy.pathname = copy.pathname.replace(/\/$/, "");
    return copy.href;
  };
  if (bare(a) !== bare(b)) return null;
  if (a.protocol !== b.protocol) differences.push("the scheme (http or https)");
  if (a.hostname !== b.hostname) differences.push("a leading www.");
  if (a.pathname !== b.pathname) differences.push("a trailing slash");
  return differences;
}

const canonicalElsewhere: Check = withAnalysis((analysis, { fetched: { page } }) => {
  const canonical = canonicalOf(analysis);
  if (canonical === null) return notApplicable("The page has no canonical link (see canonical_missing).");
  if (canonicalProblem(canonical, page.final_url) !== null) return notApplicable(`The canonical ${quote(canonical)} is not a usable URL (see canonical_invalid).`);
  const named = normalised(canonical);
  const served = normalised(page.final_url);
  if (named.href === served.href) return pass(`The canonical names the page's own address, ${served.href}.`);
  const itemEvidence = [evidence("canonical", canonical, CANONICAL), evidence("page address (after redirects)", page.final_url, "fetch")];
  const differences = variantDifferences(named, served);
  if (differences !== null) {
    return warn(`The canonical ${named.href} differs from the page's address ${served.href} only by ${differences.join(" and ")}.`, [
      { summary: `Canonical is a variant of this address (${differences.join(", ")})`, subtype: "variant", details: { canonical, final_url: page.final_url, differences }, evidence: itemEvidence },
    ]);
  }
  return fail(`The canonical names another address, ${named.href}, not the page's own ${served.href}.`, [
    { summary: `Canonical points to ${named.href}`, subtype: named.host === served.host ? "same_host" : "other_host", details: { canonical, final_url: page.final_url }, evidence: itemEvidence },
  ]);
});

export const indexingChecks = {
  noindex: robotsDirective("noindex"),
  nofollow: robotsDirective("nofollow"),
  canonical_missing: canonicalMissing,
  canonical_elsewhere: canonicalElsewhere,
  canonical_invalid: canonicalInvalid,
} satisfies Partial<Record<FindingKey, Check>>;
