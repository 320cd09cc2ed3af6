// What a simulated engine "did" for one prompt: its searches, the pages they returned, and an
// answer whose sentences cite some of them, all about the prompt's topic (see topics.ts).
// Provider modules render it in their wire format.
import { brandSentences, brandTopic, pickBrands, vendorHost, type Brand } from "./brands";
import { exactSentences } from "./directive";
import { APP_SITES, appQueries } from "./app";
import { NO_MARKET, localSites, marketQueries, type Market } from "./market";
import { rngFrom, type Rng } from "./rng";
import { capitalise, classify, domainById, hostOf, slugOf, titleCase, type Domain, type DomainId, type Site, type TopicWords } from "./topics";

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
  /** What comes before it in the answer (not before the first): a space, or a line break before a list item. */
  sep?: string;
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
  /**
   * [[sim:answer:TEXT]]: the sentences join to TEXT exactly; providers attach citations without
   * inserting marks or a preamble.
   */
  exact: boolean;
  /** The market the request carried. */
  market: Market;
  /** The brands the answer names, ranked, and the one it says it found nothing about. */
  brands: { listed: string[]; absent: string | null };
}

export interface ScenarioFlags {
  noSearch?: boolean;
  noCitations?: boolean;
  /** [[sim:unicode]]: add the multi-byte sentences and odd URLs below. */
  unicode?: boolean;
  /** The searcher's market read from the request; none by default. */
  market?: Market;
  /** The engine answering: its taste in brands. */
  engine?: string;
  /** [[sim:answer:TEXT]]: the answer, exactly. */
  answer?: string | null;
  /** A consumer app rather than a model's API: other sources and more fan-out queries (app.ts). */
  app?: boolean;
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
  let { domain, focus } = classify(topic);
  // A prompt that names brands and no topic keyword ("pipedrive vs hubspot") is about their topic.
  const branded = domain.id === "general" ? brandTopic(topic) : null;
  if (branded) {
    domain = domainById(branded.domain);
    focus = classify(branded.focus).focus;
  }
  return { domain, words: { topic, focus, slug: slugOf(topic), focusSlug: slugOf(focus) } };
}

/** A brand's own page about the topic, as engines cite vendors. */
function brandSite(brand: Brand): Site {
  return {
    host: vendorHost(brand.domains[0]!),
    path: (w) => `/${w.focusSlug}`,
    title: (w) => `${titleCase(w.focus)} | ${brand.name}`,
  };
}

/**
 * Sites for one run: a varying handful from the domain, plus every odd one under [[sim:unicode]];
 * for a searcher in a country, half or more of them the country's own; and now and then the page
 * of a brand the answer names.
 */
function sitesFor(domain: Domain, words: TopicWords, unicode: boolean, rng: Rng, market: Market, brands: Brand[], app = false): Site[] {
  const vendors = brands.filter(() => rng.chance(0.3)).slice(0, 2).map(brandSite);
  if (app && !unicode) {
    // Half or more forums, video and review sites; the rest the country's, else the topic's.
    const n = rng.int(5, 8);
    const social = rng.shuffle(APP_SITES).slice(0, Math.max(3, Math.ceil(n / 2)));
    const local = localSites(market, domain.id);
    const rest = rng.shuffle(local.length > 0 ? local : domain.sites).slice(0, n - social.length);
    return rng.shuffle([...social, ...rest, ...vendors]);
  }
  const local = localSites(market, domain.id);
  if (!unicode && local.length > 0) {
    const n = rng.int(4, 8);
    const own = rng.shuffle(local).slice(0, Math.max(2, Math.ceil(n / 2)));
    return rng.shuffle([...own, ...rng.shuffle(domain.sites).slice(0, n - own.length), ...vendors]);
  }
  if (!unicode) return [...rng.shuffle(domain.sites).slice(0, rng.int(4, 8)), ...vendors];
  const odd = new Set(UNICODE_SITES.map((s) => hostOf(s, words)));
  const own = rng.shuffle(domain.sites.filter((s) => !odd.has(hostOf(s, words)))).slice(0, rng.int(2, 4));
  return rng.shuffle([...own, ...UNICODE_SITES]);
}

/** A sentence before citations are attached. */
type Text = { text: string; sep?: string };

/** The sentences of an ordinary answer: opener, the brands' list and prose among the body, closer. */
function answerTexts(domain: Domain, words: TopicWords, unicode: string[], named: ReturnType<typeof brandSentences>, rng: Rng, short: boolean): Text[] {
  const opener = rng.pick(OPENERS)(words, domain);
  const body = rng
    .shuffle(domain.body)
    .slice(0, short ? rng.int(1, 2) : rng.int(2, 4))
    .map((sentence) => sentence(words));
  const list: Text[] = named.lead ? [{ text: named.lead }, ...named.items.map((text) => ({ text, sep: "\n" }))] : [];
  const rest = rng.shuffle([...unicode, ...body, ...named.prose]).map((text, i): Text => ({ text, sep: i === 0 && list.length > 0 ? "\n\n" : " " }));
  const closer: Text = { text: rng.pick(domain.closers)(words), sep: rest.length === 0 && list.length > 0 ? "\n\n" : " " };
  return [{ text: opener }, ...list, ...rest, closer];
}

export function buildScenario(prompt: string, seed: string, repeat: number, flags: ScenarioFlags = {}): Scenario {
  const market = flags.market ?? NO_MARKET;
  const located = market.country !== null || market.languageGiven;
  // Without a market a run is what it always was; a market gives other draws.
  const rng = located ? rngFrom(seed, prompt, repeat, market.country ?? "", market.language) : rngFrom(seed, prompt, repeat);
  const { domain, words } = topicFor(prompt);
  const about = { domain: domain.id, focus: words.focus };
  const exact = flags.answer !== undefined && flags.answer !== null;
  const unicode = flags.unicode && !exact ? UNICODE_SENTENCES.map((sentence) => sentence(words)) : [];
  // The brands are drawn apart, so naming them does not change the rest of the answer.
  const brandRng = rngFrom(seed, prompt, repeat, "brands", market.country ?? "");
  const pick = exact ? { listed: [], absent: null } : pickBrands(domain.id, words.topic, market.country, flags.engine ?? seed, brandRng);
  const named = brandSentences(pick, domain.id, market.country, brandRng);
  const brands = { listed: pick.listed.map((b) => b.name), absent: pick.absent?.name ?? null };
  const base = { about, exact, market, brands };

  if (flags.noSearch) {
    const sentences = exact ? exactSentences(flags.answer!) : answerTexts(domain, words, unicode, named, rng, false);
    return { ...base, pages: [], calls: [], sentences: sentences.map((s) => ({ ...s, cites: [] })), citationsOff: true, opened: [] };
  }

  const pages: SimPage[] = sitesFor(domain, words, flags.unicode === true && !exact, rng, market, pick.listed, flags.app === true).map((site, n) => {
    const host = hostOf(site, words);
    const url = `https://${host}${site.path(words, n + 1 + repeat)}`;
    return { url, title: site.title(words), site: host.replace(/^www\./, ""), pageAge: rng.pick(PAGE_AGES) };
  });

  if (flags.app) {
    // An app shows its fan-out queries, more of them than an API searches, as one list.
    const fanOut = rng.shuffle([...new Set(appQueries(words, marketQueries(market, words)))]).slice(0, rng.int(4, 7));
    const calls: SimSearchCall[] = [{ queries: fanOut, results: pages.map((_, i) => i) }];
    const texts = exact ? exactSentences(flags.answer!) : answerTexts(domain, words, unicode, named, rng, false);
    const citable = rng.shuffle(pages.map((_, i) => i)).slice(0, Math.max(2, Math.ceil((pages.length * 2) / 3)));
    const canCite = (t: Text) => t.text.trim() !== "" && !t.text.endsWith(":");
    const sentences: SimSentence[] = texts.map((t, i) => ({ ...t, cites: canCite(t) && i % 2 === 0 ? [citable[(i / 2) % citable.length]!] : [] }));
    return { ...base, pages, calls, sentences, citationsOff: false, opened: [] };
  }

  // Several calls; the first usually carries several queries, and sometimes a call shows no query.
  const queries = rng.shuffle([...new Set(marketQueries(market, words) ?? domain.queries.map((query) => query(words)))]);
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
  const citationsOff = flags.noCitations === true || (rng.chance(0.12) && !flags.unicode && !exact);
  // The closer cites whenever citations are on, so multi-byte sentences come before a citation.
  const texts = exact ? exactSentences(flags.answer!) : answerTexts(domain, words, unicode, named, rng, unicode.length > 0);
  // Cite roughly half the pages, the first of them twice, so some are seen and not cited.
  const citable = rng.shuffle(pages.map((_, i) => i)).slice(0, Math.max(1, Math.ceil(pages.length / 2)));
  // An exact answer's blank sentences cite nothing; an ordinary answer's list lead-in neither.
  const canCite = (t: Text) => t.text.trim() !== "" && !t.text.endsWith(":");
  const sentences: SimSentence[] = texts.map((t, i) => {
    if (citationsOff || i === texts.length - 1 || !canCite(t)) return { ...t, cites: [] };
    const first = citable[i % citable.length]!;
    const cites = rng.chance(0.3) && citable.length > 1 ? [first, citable[(i + 1) % citable.length]!] : [first];
    return { ...t, cites };
  });
  if (!citationsOff && canCite(sentences[sentences.length - 1]!)) sentences[sentences.length - 1]!.cites = [citable[0]!];

  return { ...base, pages, calls, sentences, citationsOff, opened: citationsOff ? [] : [citable[0]!] };
}
