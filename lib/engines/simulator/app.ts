// How a consumer app's answer differs from its model's API answer, as published studies report
// it (decisions.md "Engines, wave 4"): other sources, with far more forums, video and review sites
// (Reddit in about 4-5% of ChatGPT-app citations against 0.4% through the API); other and more
// fan-out queries (none in common with the API's, in one study of 3,645 conversations); and a
// different brand order (the app engine's own taste, brands.ts). And Google's AI Overview, shown
// for about 60% of queries, the same query always getting the same answer.
import { rngFrom } from "./rng";
import type { Market } from "./market";
import { capitalise, titleCase, type Site, type TopicWords } from "./topics";

const F = (w: TopicWords) => titleCase(w.focus);
const f = (w: TopicWords) => w.focus.toLowerCase();
const sub = (w: TopicWords) => w.focusSlug.replace(/-/g, "") || "AskReddit";

/** Forums, video and review sites: what the apps cite far more often than the APIs do. */
export const APP_SITES: Site[] = [
  { host: "www.reddit.com", path: (w, n) => `/r/${sub(w)}/comments/${(n * 104729).toString(36)}/${w.slug.replace(/-/g, "_")}/`, title: (w) => `${capitalise(w.topic)}? : r/${sub(w)}` },
  { host: "www.reddit.com", path: (w, n) => `/r/BuyItForLife/comments/${(n * 7907).toString(36)}/best_${w.focusSlug.replace(/-/g, "_")}/`, title: (w) => `Best ${f(w)} that actually lasts? : r/BuyItForLife` },
  { host: "www.youtube.com", path: (_, n) => `/watch?v=${(n * 31337).toString(36).padEnd(11, "q").slice(0, 11)}`, title: (w) => `${F(w)}: Honest Review After 6 Months - YouTube` },
  { host: "www.quora.com", path: (w) => `/What-is-the-best-${w.focusSlug}`, title: (w) => `What is the best ${f(w)}? - Quora` },
  { host: "www.trustpilot.com", path: (w) => `/categories/${w.focusSlug}`, title: (w) => `Best ${F(w)} Companies | Read Customer Reviews | Trustpilot` },
  { host: "www.tiktok.com", path: (w, n) => `/@reviews/video/${7300000000000000000 + n * 977}`, title: (w) => `${F(w)} tier list #review | TikTok` },
  { host: "www.g2.com", path: (w) => `/categories/${w.focusSlug}/reviews`, title: (w) => `${F(w)} Reviews 2026 | G2` },
];

/** What an app searches for: phrased as people search, none of it what the API searches. */
const APP_QUERIES: Array<(w: TopicWords) => string> = [
  (w) => `${f(w)} reddit`,
  (w) => `best ${f(w)} 2026 reviews`,
  (w) => `is ${f(w)} worth it`,
  (w) => `${f(w)} pros and cons`,
  (w) => `${f(w)} comparison table`,
  (w) => `top rated ${f(w)} for beginners`,
  (w) => `${f(w)} alternatives`,
  (w) => `${f(w)} youtube review`,
  (w) => `cheapest ${f(w)} that is good`,
];

/** An app's fan-out queries: in the market's language where it searches in one (the local list), plus Reddit, as the apps do. */
export function appQueries(words: TopicWords, local: string[] | null): string[] {
  const english = APP_QUERIES.map((q) => q(words));
  return local ? [...local.slice(1).map((q) => `${q} reddit`), ...local.slice(1), english[0]!] : english;
}

/**
 * Whether Google shows an AI Overview for a query: about 60% of queries, decided by the seed, the
 * query and the market alone, so a query gets the same answer every time it is asked.
 * [[sim:overview]] and [[sim:no_overview]] decide it for tests.
 */
export function overviewShown(seed: string, query: string, market: Market): boolean {
  if (/\[\[sim:no_overview(@[a-z_]+)?\]\]/.test(query)) return false;
  if (/\[\[sim:overview(@[a-z_]+)?\]\]/.test(query)) return true;
  const text = query.replace(/\[\[sim:[^\]]*\]\]/g, " ").trim().toLowerCase();
  return rngFrom(seed, "ai_overview", text, market.country ?? "", market.language).chance(0.6);
}
