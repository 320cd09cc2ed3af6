// The searcher's market as a simulated engine sees it: read from the request in each provider's
// own parameter (OpenAI and Anthropic web search `user_location`, Gemini
// `toolConfig.retrievalConfig` with coordinates and a language code), and what it changes in an
// answer: the country's own sites and TLD among the sources, and searches in the searcher's
// language (the one the request gave, else the country's likely one, as CLDR says).
import { countryAt } from "../../locale/places";
import { countryName } from "../../locale/codes";
import { isObject } from "../normalize/common";
import { likelyLanguage } from "../locale";

export { likelyLanguage };
import type { EngineId } from "../types";
import type { Site, TopicWords } from "./topics";

export interface Market {
  /** ISO 3166-1 alpha-2, or null when the request carried no location. */
  country: string | null;
  city: string | null;
  /** The primary language subtag searches are written in ("de", "pt", "en"). */
  language: string;
  /** Whether the language came from the request (Gemini's languageCode) rather than the country. */
  languageGiven: boolean;
}

export const NO_MARKET: Market = { country: null, city: null, language: "en", languageGiven: false };

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** The country a DataForSEO `location_name` names ("Germany"), by its English name. */
function countryNamed(name: string): string | null {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      try {
        // ICU also names withdrawn codes (DD: Germany): only a country of the kept list counts.
        if (names.of(code) === name && countryName(code) !== null) return code;
      } catch {
        // Not a region code.
      }
    }
  }
  return null;
}

/** The market a request carries, in its engine's wire format. */
export function marketOf(engine: EngineId, request: unknown): Market {
  const body = (isObject(request) || Array.isArray(request) ? request : {}) as Record<string, unknown>;
  let country: string | null = null;
  let city: string | null = null;
  let language: string | null = null;
  if (engine === "perplexity") {
    const options = isObject(body.web_search_options) ? body.web_search_options : null;
    const where = options && isObject(options.user_location) ? options.user_location : null;
    if (where) {
      country = str(where.country)?.toUpperCase() ?? null;
      city = str(where.city);
    }
  } else if (Array.isArray(body)) {
    // DataForSEO posts a list of one task.
    const task = (isObject(body[0]) ? body[0] : {}) as Record<string, unknown>;
    const coordinate = typeof task.location_coordinate === "string" ? task.location_coordinate.split(",") : null;
    if (coordinate && coordinate.length >= 2) {
      const [latitude, longitude] = [Number(coordinate[0]), Number(coordinate[1])];
      if (Number.isFinite(latitude) && Number.isFinite(longitude)) country = countryAt({ latitude, longitude });
    }
    const named = str(task.location_name);
    if (named && country === null) country = countryNamed(named);
    language = str(task.language_code);
  } else if (engine === "gemini") {
    const tool = isObject(body.toolConfig) ? body.toolConfig : null;
    const retrieval = tool && isObject(tool.retrievalConfig) ? tool.retrievalConfig : null;
    const latLng = retrieval && isObject(retrieval.latLng) ? retrieval.latLng : null;
    if (latLng && typeof latLng.latitude === "number" && typeof latLng.longitude === "number") {
      country = countryAt({ latitude: latLng.latitude, longitude: latLng.longitude });
    }
    language = retrieval ? str(retrieval.languageCode) : null;
  } else {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    for (const tool of tools) {
      const where = isObject(tool) && isObject(tool.user_location) ? tool.user_location : null;
      if (!where) continue;
      country = str(where.country)?.toUpperCase() ?? null;
      city = str(where.city);
    }
  }
  if (country !== null && countryName(country) === null) country = null;
  const primary = language ? language.split("-")[0]!.toLowerCase() : null;
  return { country, city, language: primary ?? likelyLanguage(country), languageGiven: primary !== null };
}

/** The country's top-level domain: its code, except the United Kingdom's `.uk`. */
export function tldOf(country: string): string {
  return country === "GB" ? "uk" : country.toLowerCase();
}

type Template = (w: TopicWords) => string;
const f = (w: TopicWords) => w.focus.toLowerCase();

/**
 * Searches written as people in each language write them (the prompt itself is searched as
 * given). Languages without templates search in English with the country's name.
 */
const QUERIES: Record<string, Template[]> = {
  de: [(w) => `${f(w)} vergleich 2026`, (w) => `bester ${f(w)} test`, (w) => `${f(w)} erfahrungen`, (w) => `${f(w)} kostenlos`, (w) => `${f(w)} empfehlung forum`],
  fr: [(w) => `meilleur ${f(w)} 2026`, (w) => `${f(w)} comparatif`, (w) => `${f(w)} avis`, (w) => `${f(w)} gratuit`, (w) => `quel ${f(w)} choisir`],
  es: [(w) => `mejor ${f(w)} 2026`, (w) => `${f(w)} comparativa`, (w) => `${f(w)} opiniones`, (w) => `${f(w)} gratis`, (w) => `qué ${f(w)} elegir`],
  pt: [(w) => `melhor ${f(w)} 2026`, (w) => `${f(w)} comparativo`, (w) => `${f(w)} vale a pena`, (w) => `${f(w)} grátis`, (w) => `qual ${f(w)} escolher`],
  it: [(w) => `miglior ${f(w)} 2026`, (w) => `${f(w)} confronto`, (w) => `${f(w)} recensioni`, (w) => `${f(w)} gratis`],
  nl: [(w) => `beste ${f(w)} 2026`, (w) => `${f(w)} vergelijken`, (w) => `${f(w)} ervaringen`, (w) => `${f(w)} gratis`],
  ja: [(w) => `${f(w)} おすすめ 2026`, (w) => `${f(w)} 比較`, (w) => `${f(w)} 評判`, (w) => `${f(w)} 無料`],
};

/** Searches for a market, or null to keep the topic's English ones (English, or no market). */
export function marketQueries(market: Market, words: TopicWords): string[] | null {
  if (market.country === null && !market.languageGiven) return null;
  const templates = QUERIES[market.language];
  if (templates) return [words.topic.toLowerCase(), ...templates.map((t) => t(words))];
  if (market.language === "en" || market.country === null) return null;
  const name = countryName(market.country) ?? market.country;
  return [words.topic.toLowerCase(), `best ${f(words)} ${name.toLowerCase()}`, `${f(words)} ${name.toLowerCase()} reviews`];
}

/** A site of one country: where it is, what it is called, and the topics it covers ("*": any). */
type LocalSite = { host: string; label: string; topics: string };

const site = (host: string, label: string, topics = "*"): LocalSite => ({ host, label, topics });

/**
 * Sites people in these countries read, by topic area (tech, business, finance, health, travel,
 * food, products, education, general). Other countries get their Wikipedia and sites on their
 * own TLD (localSites).
 */
const LOCAL_SITES: Record<string, LocalSite[]> = {
  US: [site("www.usatoday.com", "USA Today"), site("www.cnet.com", "CNET", "tech products"), site("www.nerdwallet.com", "NerdWallet", "finance business")],
  GB: [
    site("www.bbc.co.uk", "BBC"), site("www.theguardian.com", "The Guardian"), site("www.which.co.uk", "Which?", "products finance food"),
    site("www.moneysavingexpert.com", "MoneySavingExpert", "finance travel"), site("www.techradar.com", "TechRadar", "tech products business"),
    site("www.nhs.uk", "NHS", "health"), site("www.bbcgoodfood.com", "BBC Good Food", "food"),
  ],
  DE: [
    site("de.wikipedia.org", "Wikipedia"), site("www.spiegel.de", "DER SPIEGEL"), site("www.heise.de", "heise online", "tech products business"),
    site("t3n.de", "t3n", "tech business"), site("www.chip.de", "CHIP", "products tech"), site("www.test.de", "Stiftung Warentest", "products finance health food"),
    site("www.finanztip.de", "Finanztip", "finance"), site("www.gruenderszene.de", "Gründerszene", "business"), site("www.chefkoch.de", "Chefkoch", "food"),
    site("www.apotheken-umschau.de", "Apotheken Umschau", "health"), site("www.adac.de", "ADAC", "travel products"), site("www.gutefrage.net", "gutefrage"),
  ],
  FR: [
    site("fr.wikipedia.org", "Wikipédia"), site("www.lemonde.fr", "Le Monde"), site("www.01net.com", "01net", "tech products"),
    site("www.lesnumeriques.com", "Les Numériques", "products tech"), site("www.journaldunet.com", "Journal du Net", "business tech"),
    site("www.quechoisir.org", "UFC-Que Choisir", "products finance food health"), site("www.marmiton.org", "Marmiton", "food"),
    site("www.doctissimo.fr", "Doctissimo", "health"), site("www.boursorama.com", "Boursorama", "finance"), site("www.routard.com", "Le Routard", "travel"),
  ],
  ES: [
    site("es.wikipedia.org", "Wikipedia"), site("elpais.com", "EL PAÍS"), site("www.xataka.com", "Xataka", "tech products"),
    site("www.ocu.org", "OCU", "products finance food health"), site("www.expansion.com", "Expansión", "business finance"),
    site("www.directoalpaladar.com", "Directo al Paladar", "food"), site("cuidateplus.marca.com", "CuídatePlus", "health"),
  ],
  BR: [
    site("pt.wikipedia.org", "Wikipédia"), site("g1.globo.com", "g1"), site("www.tecmundo.com.br", "TecMundo", "tech products"),
    site("www.tudocelular.com", "TudoCelular", "products"), site("exame.com", "Exame", "business finance"), site("www.infomoney.com.br", "InfoMoney", "finance"),
    site("www.reclameaqui.com.br", "Reclame AQUI", "products business travel finance"), site("www.tudogostoso.com.br", "TudoGostoso", "food"),
    site("www.minhavida.com.br", "Minha Vida", "health"),
  ],
  IT: [site("it.wikipedia.org", "Wikipedia"), site("www.corriere.it", "Corriere della Sera"), site("www.hdblog.it", "HDblog", "tech products"), site("www.altroconsumo.it", "Altroconsumo", "products finance food"), site("www.giallozafferano.it", "GialloZafferano", "food")],
  JP: [site("ja.wikipedia.org", "Wikipedia"), site("www.nikkei.com", "日本経済新聞"), site("kakaku.com", "価格.com", "products tech"), site("www.itmedia.co.jp", "ITmedia", "tech business"), site("cookpad.com", "クックパッド", "food")],
  IN: [site("en.wikipedia.org", "Wikipedia"), site("timesofindia.indiatimes.com", "The Times of India"), site("www.livemint.com", "Mint", "finance business"), site("www.91mobiles.com", "91mobiles", "products tech"), site("www.practo.com", "Practo", "health")],
  CA: [site("www.cbc.ca", "CBC"), site("www.theglobeandmail.com", "The Globe and Mail", "finance business"), site("www.ratehub.ca", "Ratehub", "finance")],
  AU: [site("www.abc.net.au", "ABC"), site("www.choice.com.au", "CHOICE", "products finance food"), site("www.canstar.com.au", "Canstar", "finance")],
  NL: [site("nl.wikipedia.org", "Wikipedia"), site("nos.nl", "NOS"), site("tweakers.net", "Tweakers", "tech products"), site("www.consumentenbond.nl", "Consumentenbond", "products finance food")],
  MX: [site("es.wikipedia.org", "Wikipedia"), site("www.eluniversal.com.mx", "El Universal"), site("www.xataka.com.mx", "Xataka México", "tech products"), site("www.profeco.gob.mx", "Profeco", "products finance")],
};

/** What a review on a local site is called in its language, for titles. */
const REVIEW_WORD: Record<string, string> = { de: "im Test", fr: "comparatif", es: "comparativa", pt: "comparativo", it: "confronto", nl: "vergelijking", ja: "比較" };

function asSite(local: LocalSite, language: string): Site {
  const word = REVIEW_WORD[language] ?? "guide";
  return {
    host: local.host,
    path: (w, n) => (local.host.includes("wikipedia.org") ? `/wiki/${encodeURIComponent(w.focus.replace(/\s+/g, "_"))}` : `/${w.focusSlug}/${w.slug}-${1000 + ((n * 7919) % 9000)}`),
    title: (w) => `${w.focus} ${word} | ${local.label}`,
  };
}

/**
 * The country's own sites for a topic area: its catalogue's (those for the area or any), or
 * for a country without one, its Wikipedia in its language and a guide and a forum on its TLD.
 */
export function localSites(market: Market, domain: string): Site[] {
  if (market.country === null) return [];
  const known = LOCAL_SITES[market.country];
  if (known) return known.filter((s) => s.topics === "*" || s.topics.split(" ").includes(domain)).map((s) => asSite(s, market.language));
  const tld = tldOf(market.country);
  const name = (countryName(market.country) ?? market.country).toLowerCase().replace(/[^a-z]+/g, "");
  return [
    site(`${market.language}.wikipedia.org`, "Wikipedia"),
    site(`www.${name}guide.${tld}`, `${countryName(market.country)} Guide`),
    site(`forum.${name}.${tld}`, `${countryName(market.country)} Forum`),
  ].map((s) => asSite(s, market.language));
}
