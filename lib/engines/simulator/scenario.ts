// What a simulated engine "did" for one prompt: its searches, the pages they returned, and an
// answer whose sentences cite some of them. Provider modules render it in their wire format.
import { rngFrom, type Rng } from "./rng";

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
}

const SITES: Array<{ host: string; path: (slug: string, n: number) => string; title: (topic: string) => string }> = [
  { host: "en.wikipedia.org", path: (s) => `/wiki/${capitalise(s).replace(/-/g, "_")}`, title: (t) => `${capitalise(t)} - Wikipedia` },
  { host: "www.reddit.com", path: (s, n) => `/r/answers/comments/${(n * 7919).toString(36)}/${s.replace(/-/g, "_")}/`, title: (t) => `What is the best way to approach ${t}? : r/answers` },
  { host: "www.nytimes.com", path: (s) => `/2026/03/14/well/${s}.html`, title: (t) => `What Experts Say About ${capitalise(t)} - The New York Times` },
  { host: "www.bbc.co.uk", path: (s, n) => `/news/articles/c${(n * 104729).toString(36)}${s.length}o`, title: (t) => `${capitalise(t)}: what you need to know - BBC News` },
  { host: "www.theverge.com", path: (s) => `/guides/${s}`, title: (t) => `The best ${t} for 2026 | The Verge` },
  { host: "www.healthline.com", path: (s) => `/health/${s}`, title: (t) => `${capitalise(t)}: Benefits, Risks and More` },
  { host: "www.nist.gov", path: (s) => `/publications/${s}`, title: (t) => `${capitalise(t)} | NIST` },
  { host: "www.gov.uk", path: (s) => `/guidance/${s}`, title: (t) => `${capitalise(t)} - GOV.UK` },
  { host: "www.abc.net.au", path: (s, n) => `/news/2026-02-0${(n % 9) + 1}/${s}/10${n}4512`, title: (t) => `${capitalise(t)} explained - ABC News` },
  { host: "de.wikipedia.org", path: (s) => `/wiki/${encodeURIComponent(capitalise(s).replace(/-/g, "_") + "_(Überblick)")}`, title: (t) => `${capitalise(t)} (Überblick) – Wikipedia` },
  { host: "www.consumerreports.org", path: (s) => `/${s}/buying-guide/?utm_source=search&utm_medium=web`, title: (t) => `${capitalise(t)} Buying Guide - Consumer Reports` },
  { host: "www.nhk.or.jp", path: (s, n) => `/news/html/20260301/k1001${n}${s.length}000.html`, title: () => "解説：最新の動向 | NHKニュース" },
  { host: "stackoverflow.com", path: (s, n) => `/questions/7${n}88${s.length}1/${s}`, title: (t) => `${t} - Stack Overflow` },
  { host: "www.example-review.co.nz", path: (s) => `/reviews/${s}#verdict`, title: (t) => `${capitalise(t)} review: our verdict` },
  { host: "medium.com", path: (s, n) => `/@analyst/${s}-${(n * 31337).toString(16)}`, title: (t) => `A practical guide to ${t} | Medium` },
  { host: "www.youtube.com", path: (s, n) => `/watch?v=${(n * 999331).toString(36).padEnd(11, "x").slice(0, 11)}&si=${s.length}`, title: (t) => `${capitalise(t)} in 10 minutes - YouTube` },
];

const PAGE_AGES = ["2 days ago", "3 weeks ago", "January 12, 2026", "March 3, 2025", null];

const OPENERS = [
  (t: string) => `Short answer: ${t} depends mostly on what you need — sources agree on the basics.`,
  (t: string) => `Here is what recent, reputable sources say about ${t}.`,
  (t: string) => `${capitalise(t)} has changed a lot since 2024, and the consensus has shifted.`,
];

const BODY = [
  "Independent tests rank the leading options within a few percent of each other.",
  "Prices vary by region: expect roughly €40–€120, or ¥6,000–¥18,000 in Japan.",
  "Reviewers in Japan describe the best value picks as「コスパ最強」.",
  "Long-term users on forums report mixed results after six months 📉.",
  "Official guidance recommends checking the latest figures before deciding.",
  "Experts caution that marketing claims often outrun the evidence.",
  "Two studies from 2025 found measurable benefits, though the effect was small.",
  "Côte d'Ivoire and São Paulo are often cited as early adopters.",
];

const CLOSERS = [
  "In short, start with the most widely recommended option and adjust from there.",
  "Overall, the evidence favours a cautious, well-researched choice.",
  "If in doubt, compare two or three options side by side before committing.",
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The prompt without magic tokens, trimmed to something that reads like a topic. */
export function topicOf(prompt: string): string {
  const words = prompt
    .replace(/\[\[sim:[^\]]*\]\]/g, " ")
    .replace(/[?!.]+$/g, "")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const topic = words.slice(0, 12).join(" ");
  return topic === "" ? "this topic" : topic.toLowerCase();
}

function slugOf(topic: string): string {
  const ascii = topic
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return ascii.slice(0, 60) || "topic";
}

function queriesFor(topic: string, rng: Rng): string[] {
  const variants = [
    topic,
    `${topic} 2026`,
    `best ${topic}`,
    `${topic} review`,
    `${topic} reddit`,
    `${topic} vs alternatives`,
    `is ${topic} worth it`,
    `${topic} explained`,
  ];
  return rng.shuffle(variants);
}

export function buildScenario(prompt: string, seed: string, repeat: number, flags: ScenarioFlags = {}): Scenario {
  const rng = rngFrom(seed, prompt, repeat);
  const topic = topicOf(prompt);
  const slug = slugOf(topic);

  if (flags.noSearch) {
    const sentences = [OPENERS[0]!(topic), rng.pick(BODY), rng.pick(CLOSERS)].map((text) => ({ text, cites: [] }));
    return { pages: [], calls: [], sentences, citationsOff: true, opened: [] };
  }

  const siteOrder = rng.shuffle(SITES.map((_, i) => i));
  const pageCount = rng.int(4, 8);
  const pages: SimPage[] = siteOrder.slice(0, pageCount).map((siteIndex, n) => {
    const site = SITES[siteIndex]!;
    const url = `https://${site.host}${site.path(slug, n + 1 + repeat)}`;
    return { url, title: site.title(topic), site: site.host.replace(/^www\./, ""), pageAge: rng.pick(PAGE_AGES) };
  });

  // Several calls; the first usually carries several queries, and sometimes a call shows no query.
  const queries = queriesFor(topic, rng);
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

  const citationsOff = flags.noCitations === true || rng.chance(0.12);
  const body = rng.shuffle(BODY).slice(0, rng.int(2, 4));
  const texts = [rng.pick(OPENERS)(topic), ...body, rng.pick(CLOSERS)];
  // Cite roughly half the pages, the first of them twice, so some are seen and not cited.
  const citable = rng.shuffle(pages.map((_, i) => i)).slice(0, Math.max(1, Math.ceil(pages.length / 2)));
  const sentences: SimSentence[] = texts.map((text, i) => {
    if (citationsOff || i === texts.length - 1) return { text, cites: [] };
    const first = citable[i % citable.length]!;
    const cites = rng.chance(0.3) && citable.length > 1 ? [first, citable[(i + 1) % citable.length]!] : [first];
    return { text, cites };
  });
  if (!citationsOff) sentences[sentences.length - 1]!.cites = [citable[0]!];

  return { pages, calls, sentences, citationsOff, opened: citationsOff ? [] : [citable[0]!] };
}
