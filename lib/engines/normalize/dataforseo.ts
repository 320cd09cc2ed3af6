// DataForSEO live task -> PromptResult, for the four app engines. The answer is the result's
// `markdown` (the LLM scraper's, or the `ai_overview` item's), kept as the vendor wrote it. Cited
// pages are the LLM scraper's `sources` or the AI Overview's `references` (its own and its
// elements'); each is a citation at the first place the answer links it, else at the answer's
// end (DataForSEO marks no positions). Pages the search returned: the ChatGPT scraper's
// `search_results`. Searches: the ChatGPT scraper's `fan_out_queries` (shown without calls);
// Gemini's scraper and Google show none. No AI Overview on the SERP: the run completes with
// `shown: false`, an empty answer and no sources. `brand_entities` and the organic results stay in
// the raw envelope.
import type { EngineEnvelope, EngineId, NormalizedRun } from "../types";
import { SourceBook, asArray, emptyUsage, fail, isObject, str, type Json } from "./common";
import { successfulBodies } from "./bodies";
import { usdOf } from "./money";

type Page = { url: string; title: string | null };

function pagesOf(list: unknown): Page[] {
  return asArray(list).flatMap((item) => {
    if (!isObject(item)) return [];
    const url = str(item.url);
    return url ? [{ url, title: str(item.title) ?? str(item.source) ?? str(item.source_name) }] : [];
  });
}

/** Where the answer first links `url` (a Markdown link's target, or the bare URL), else null. */
function linkedAt(answer: string, url: string): number | null {
  const link = answer.indexOf(`](${url}`);
  if (link >= 0) {
    const close = answer.indexOf(")", link + 2);
    return close >= 0 ? close + 1 : link;
  }
  const bare = answer.indexOf(url);
  return bare >= 0 ? bare + url.length : null;
}

/** The SERP's AI Overview item (organic SERP or AI Mode), or null when Google showed none. */
function overviewOf(result: Json): Json | null {
  const item = asArray(result.items).find((i) => isObject(i) && i.type === "ai_overview");
  return isObject(item) ? item : null;
}

export function normalizeDataforseo(envelope: EngineEnvelope): NormalizedRun {
  const engine: EngineId = envelope.engine;
  const bodies = successfulBodies(envelope);
  const body = bodies[bodies.length - 1];
  if (!isObject(body)) fail(`${engine}: no response body`);
  const task = asArray(body.tasks)[0];
  if (!isObject(task)) fail(`${engine}: response has no task`);
  const result = asArray(task.result)[0];
  if (!isObject(result)) fail(`${engine}: the task has no result`);
  const cost = usdOf(task.cost);
  const book = new SourceBook(envelope.redirects);

  let answer: string;
  let cited: Page[];
  let seen: Page[] = [];
  let queries: string[] = [];
  let shown = true;
  let model: string | null = null;
  if (engine === "google_ai_overview" || engine === "google_ai_mode") {
    const overview = overviewOf(result);
    shown = overview !== null && (str(overview.markdown) ?? "").trim() !== "";
    answer = shown ? str(overview!.markdown)! : "";
    // The overview's references and its elements' ones: neither list holds all of them.
    cited = shown ? [...pagesOf(overview!.references), ...asArray(overview!.items).flatMap((e) => (isObject(e) ? pagesOf(e.references) : []))] : [];
  } else {
    answer = str(result.markdown) ?? fail(`${engine}: the result has no markdown`);
    cited = pagesOf(result.sources);
    seen = pagesOf(result.search_results);
    queries = asArray(result.fan_out_queries).filter((q): q is string => typeof q === "string" && q.trim() !== "");
    model = str(result.model);
  }

  for (const page of seen) book.inResults(book.add(page.url, page.title));
  const placed = new Set<string>();
  for (const page of cited) {
    const key = book.add(page.url, page.title);
    if (placed.has(key)) continue;
    placed.add(key);
    book.cite(key, linkedAt(answer, page.url) ?? answer.length);
  }

  const scraper = engine === "chatgpt_app" || engine === "gemini_app";
  return {
    result: {
      answer,
      sources: book.finish({ resultsExposed: engine === "chatgpt_app", retrievalExposed: false, citationsExposed: true }),
      searches: queries.map((query, i) => ({ query, position: i + 1, search_call: null, provider_search_id: null })),
      citations_exposed: book.markCount > 0,
      // A Google answer is a Google search; the scrapers searched where they show it.
      searched: scraper ? (queries.length > 0 || seen.length > 0 || cited.length > 0 ? true : engine === "chatgpt_app" ? false : null) : true,
      search_calls: null,
      shown,
      provider_cost_usd: cost,
      search_count: null,
    },
    // The vendor bills per task: no tokens.
    usage: emptyUsage(),
    model,
    search_errors: [],
  };
}
