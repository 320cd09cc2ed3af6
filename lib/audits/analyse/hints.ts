// What class and id names say about an element: boilerplate to leave out of the main content,
// or navigation for the link counts. Names are read token by token (so "has-sidebar" on a page
// wrapper, a modifier, is not a sidebar) and word by word within a token (so "site-footer" is a
// footer, "comment-content" is a comment's content rather than a comment section, but
// "article-comments" is a comment section, "content-sidebar-wrap" a wrapper).

/** A token that only qualifies the element (a modifier, a WordPress taxonomy class) says nothing. */
const MODIFIER = /^(?:has|with|no|is|show|hide|toggle|js|tag|category|cat|format|type|status|single|page-template|post-type|layout)[-_]/;

const word = (words: string) => `(?:^|[-_])(?:${words})(?=$|[-_\\d])`;

const POSITIVE_WORDS = "content|body|text|main|article|entry|story";
/** A layout wrapper around content ("content-sidebar-wrap", Genesis themes) is not the sidebar. */
const CONTENT_WRAPPER = new RegExp(`${word(POSITIVE_WORDS)}.*[-_](?:wrap|wrapper|container|inner|outer|layout|holder|grid|row|cols?|columns)$`);

const BOILERPLATE_WORDS = [
  "comments?|comment-list|commentlist|disqus|respond|replies",
  "share|shares|sharing|sharebar|social|sharedaddy|addthis",
  "related|recommended|recommendations|read-next|more-stories|you-may-like",
  "newsletter|subscribe|subscription|signup|sign-up",
  "cookies?|consent|gdpr|cmp",
  "promo|promotion|sponsored|sponsor|advert|advertisement|ads?|adsense|outbrain|taboola",
  "popup|modal",
  "sidebar|side-bar|sidenav|widget|widgets|menu|nav|navbar|navigation|breadcrumbs?|masthead|header|footer",
  "pagination|pager|toc|table-of-contents|skip-link|tags|tag-list|tagcloud|print",
].join("|");

const NAVIGATION_WORDS =
  "sidebar|side-bar|sidenav|subnav|menu|mega-menu|nav|navbar|navigation|breadcrumbs?|crumbs|masthead|header|footer|topbar|utility-bar|sitemap|site-map";

function hintMatcher(words: string): (value: string | undefined) => boolean {
  const negative = new RegExp(word(words));
  // A qualifying positive word after the negative one makes it that thing's content.
  const negativeThenPositive = new RegExp(`${word(words)}.*${word(POSITIVE_WORDS)}`);
  return (value) => {
    if (!value) return false;
    for (const token of value.toLowerCase().split(/\s+/)) {
      if (token === "" || MODIFIER.test(token) || CONTENT_WRAPPER.test(token)) continue;
      if (negative.test(token) && !negativeThenPositive.test(token)) return true;
    }
    return false;
  };
}

/**
 * What sits above or beside an article's lead without being it: bylines and datelines, kickers
 * and section labels, captions and credits, share bars, ad labels (the lead, main-content.ts).
 */
const NOT_LEAD_WORDS = [
  "byline|by-line|bylines|author|authors|author-name|writtenby|contributor|dateline|date|dates|time|timestamp|published|pubdate|updated",
  "meta|metadata|postmeta|post-meta|entry-meta|article-meta|story-meta",
  "caption|captions|figcaption|wp-caption-text|credit|credits|photo-credit|image-credit|copyright",
  "kicker|eyebrow|overline|rubric|label|section-label|section-name|category|categories|topic|topics|flag|badge|tag",
  "share|sharing|social|toolbar|tools|actions|advert|advertisement|ad|ads|ad-label|sponsor|sponsored|promo|disclosure|disclaimer|affiliate",
  "headline|title|heading|breadcrumbs?|reading-time|read-time",
].join("|");

const boilerplateName = hintMatcher(BOILERPLATE_WORDS);
const navigationName = hintMatcher(NAVIGATION_WORDS);
const notLeadName = hintMatcher(NOT_LEAD_WORDS);

export function isBoilerplateByName(attribs: Record<string, string>): boolean {
  return boilerplateName(attribs.class) || boilerplateName(attribs.id);
}

export function isNavigationByName(attribs: Record<string, string>): boolean {
  return navigationName(attribs.class) || navigationName(attribs.id);
}

/** A byline, dateline, kicker, caption, share bar or the like by its class or id: never an article's lead. */
export function isNotLeadByName(attribs: Record<string, string>): boolean {
  return notLeadName(attribs.class) || notLeadName(attribs.id);
}

// Readability's class weights (Mozilla Readability, _getClassWeight): a nudge for scoring, not a verdict.
const WEIGHT_POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const WEIGHT_NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

export function classWeight(attribs: Record<string, string>): number {
  let weight = 0;
  for (const value of [attribs.class, attribs.id]) {
    if (!value) continue;
    if (WEIGHT_NEGATIVE.test(value)) weight -= 25;
    if (WEIGHT_POSITIVE.test(value)) weight += 25;
  }
  return weight;
}
