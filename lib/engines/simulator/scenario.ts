// What a simulated engine "did" for one prompt: its searches, the pages they returned, and an
// answer whose sentences cite some of them, all about the prompt's topic (see topics.ts).
// Provider modules render it in their wire format.
import { rngFrom, type Rng } from "./rng";
import { capitalise, classify, hostOf, slugOf, type Domain, type DomainId, type Site, type TopicWords } from "./topics";

export interface SimPage {
  url: string;
  title: string;
  /** Host without "www.", the way Gemini titles its grounding chunks. */
  site: string;
  pageAge: string | null;
}

export interface SimSearchCall {
  /** Empty: a call the provider shows without its query. */
  queries: string[];
  results: number[];
}

export interface SimSentence {
  text: string;
  /** Indexes into `pages`; a page may be cited by several sentences. */
  cites: number[];
}

export interface Scenario {
  /** What the answer is about: the prompt's domain and the keyword it turns on. */
  about: { domain: DomainId; focus: string };
  pages: SimPage[];
  calls: SimSearchCall[];
  sentences: SimSentence[];
  citationsOff: boolean;
  /** Pages the engine opened after searching (OpenAI's open_page). */
  opened: number[];
}

export interface ScenarioFlags {
  noSearch?: boolean;
  noCitations?: boolean;
  /** [[sim:unicode]]: add the multi-byte sentences and odd URLs below. */
  unicode?: boolean;
}

const PAGE_AGES = ["2 days ago", "3 weeks ago", "January 12, 2026", "March 3, 2025", null];

const OPENERS: Array<(w: TopicWords, domain: Domain) => string> = [
  (w) => `Here is what recent, reputable sources say about "${w.topic}".`,
  (w, d) => `Short answer on "${w.topic}": it depends on your situation, but ${d.sources} broadly agree on the basics.`,
  (w, d) => `Searches for "${w.topic}" mostly turn up ${d.sources}, and they agree on more than they disagree.`,
];

// Only with [[sim:unicode]]: what the normaliser must get right beyond plain English answers.
// Citation offsets after multi-byte text (UTF-8 bytes for Gemini, UTF-16 units elsewhere, an emoji
// being two units), a percent-encoded non-ASCII path, a Japanese title, tracking parameters, a
// fragment, and a URL whose query names the page.
const UNICODE_SITES: Site[] = [
  { host: "www.nhk.or.jp", path: (w, n) => `/news/html/20260301/k1001${n}${w.slug.length}000.html`, title: () => "解説：最新の動向 | NHKニュース" },
  {
    host: "de.wikipedia.org",
    path: (w) => `/wiki/${encodeURIComponent(capitalise(w.slug).replace(/-/g, "_") + "_(Überblick)")}`,
    title: (w) => `${capitalise(w.topic)} (Überblick) – Wikipedia`,
  },
  { host: "www.consumerreports.org", path: (w) => `/${w.slug}/buying-guide/?utm_source=search&utm_medium=web`, title: (w) => `${capitalise(w.topic)} Buying Guide - Consumer Reports` },
  { host: "www.example-review.co.nz", path: (w) => `/reviews/${w.slug}#verdict`, title: (w) => `${capitalise(w.topic)} review: our verdict` },
  {
    host: "www.youtube.com",
    path: (w, n) => `/watch?v=${(n * 999331).toString(36).padEnd(11, "x").slice(0, 11)}&si=${w.slug.length}`,
    title: (w) => `${capitalise(w.topic)} in 10 minutes - YouTube`,
  },
];

const UNICODE_SENTENCES: Array<(w: TopicWords) => string> = [
  (w) => `Prices for ${w.focus} vary by region: expect roughly €40–€120, or ¥6,000–¥18,000 in Japan.`,
  (w) => `Reviewers in Japan describe the best-value ${w.focus} picks as「コスパ最強」.`,
  () => "Long-term users on forums report mixed results after six months 📉.",
  () => "Côte d'Ivoire and São Paulo are often cited as early adopters.",
];

/** The prompt without magic tokens or final punctuation, as the user wrote it. */
export function topicOf(prompt: string): string {
  const words = prompt
    .replace(/\[\[sim:[^\]]*\]\]/g, " ")
    .trim()
    .replace(/[?!.？！。]+$/u, "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 12);
  const first = words[0];
  if (first === undefined) return "this topic";
  // Quoted mid-sentence, so "Why is the sky blue" reads "why is the sky blue"; "CRM" and "I" stay.
  if (first !== "I" && !/^\p{Lu}[\p{Lu}\p{N}]+$/u.test(first)) words[0] = first.charAt(0).toLowerCase() + first.slice(1);
  return words.join(" ");
}

/** What a prompt is about: its domain, and the words the domain's templates weave in. */
export function topicFor(prompt: string): { domain: Domain; words: TopicWords } {
  const topic = topicOf(prompt);
  const { domain, focus } = classify(topic);
  return { domain, words: { topic, focus, slug: slugOf(topic), focusSlug: slugOf(focus) } };
}

/** Sites for one run: a varying handful from the domain, plus every odd one under [[sim:unicode]]. */
function sitesFor(domain: Domain, words: TopicWords, unicode: boolean, rng: Rng): Site[] {
  if (!unicode) return rng.shuffle(domain.sites).slice(0, rng.int(4, 8));
  const odd = new Set(UNICODE_SITES.map((s) => hostOf(s, words)));
  const own = rng.shuffle(domain.sites.filter((s) => !odd.has(hostOf(s, words)))).slice(0, rng.int(2, 4));
  return rng.shuffle([...own, ...UNICODE_SITES]);
}

export function buildScenario(prompt: string, seed: string, repeat: number, flags: ScenarioFlags = {}): Scenario {
  const rng = rngFrom(seed, prompt, repeat);
  const { domain, words } = topicFor(prompt);
  const about = { domain: domain.id, focus: words.focus };
  const opener = rng.pick(OPENERS)(words, domain);
  const unicode = flags.unicode ? UNICODE_SENTENCES.map((sentence) => sentence(words)) : [];

  if (flags.noSearch) {
    const texts = [opener, ...unicode, rng.pick(domain.body)(words), rng.pick(domain.closers)(words)];
    return { about, pages: [], calls: [], sentences: texts.map((text) => ({ text, cites: [] })), citationsOff: true, opened: [] };
  }

  const pages: SimPage[] = sitesFor(domain, words, flags.unicode === true, rng).map((site, n) => {
    const host = hostOf(site, words);
    const url = `https://${host}${site.path(words, n + 1 + repeat)}`;
    return { url, title: site.title(words), site: host.replace(/^www\./, ""), pageAge: rng.pick(PAGE_AGES) };
  });

  // Several calls; the first usually carries several queries, and sometimes a call shows no query.
  const queries = rng.shuffle([...new Set(domain.queries.map((query) => query(words)))]);
  const callCount = rng.int(1, 3);
  const calls: SimSearchCall[] = [];
  let q = 0;
  for (let c = 0; c < callCount; c++) {
    const n = c === 0 ? rng.int(1, 3) : 1;
    calls.push({ queries: queries.slice(q, q + n), results: [] });
    q += n;
  }
  // Every page is returned by some call; some pages by more than one.
  pages.forEach((_, i) => calls[i % calls.length]!.results.push(i));
  if (pages.length > 2 && calls.length > 1) calls[calls.length - 1]!.results.push(0);
  // Sometimes a call shows no query, and no results either.
  if (rng.chance(0.35)) calls.splice(rng.int(1, calls.length), 0, { queries: [], results: [] });

  // Under [[sim:unicode]] citations stay on: the point is offsets after multi-byte text.
  const citationsOff = flags.noCitations === true || (rng.chance(0.12) && !flags.unicode);
  const body = rng
    .shuffle(domain.body)
    .slice(0, unicode.length > 0 ? rng.int(1, 2) : rng.int(2, 4))
    .map((sentence) => sentence(words));
  // The closer cites whenever citations are on, so multi-byte sentences come before a citation.
  const texts = [opener, ...rng.shuffle([...unicode, ...body]), rng.pick(domain.closers)(words)];
  // Cite roughly half the pages, the first of them twice, so some are seen and not cited.
  const citable = rng.shuffle(pages.map((_, i) => i)).slice(0, Math.max(1, Math.ceil(pages.length / 2)));
  const sentences: SimSentence[] = texts.map((text, i) => {
    if (citationsOff || i === texts.length - 1) return { text, cites: [] };
    const first = citable[i % citable.length]!;
    const cites = rng.chance(0.3) && citable.length > 1 ? [first, citable[(i + 1) % citable.length]!] : [first];
    return { text, cites };
  });
  if (!citationsOff) sentences[sentences.length - 1]!.cites = [citable[0]!];

  return { about, pages, calls, sentences, citationsOff, opened: citationsOff ? [] : [citable[0]!] };
}
