// A scenario as DataForSEO answers a live task (dataforseo-client 2.1.7 response infos): the
// request envelope (version, status, cost, tasks) around one task whose `data` echoes the POST,
// and its one result in the endpoint's shape: the LLM scraper's ChatGPT (markdown with the links
// the app shows, sources, search results, fan-out queries, brand entities) or Gemini (markdown,
// sources), the organic SERP with or without an `ai_overview` item, or AI Mode's overview. Errors
// come as DataForSEO sends them: HTTP 200 with a status code in the body.
import type { Rng } from "./rng";
import type { Scenario, SimPage } from "./scenario";
import { everyBrand } from "./brands";

export type DataforseoKind = "chatgpt_app" | "gemini_app" | "google_ai_overview" | "google_ai_mode";

const PATHS: Record<DataforseoKind, string[]> = {
  chatgpt_app: ["v3", "ai_optimization", "chat_gpt", "llm_scraper", "live", "advanced"],
  gemini_app: ["v3", "ai_optimization", "gemini", "llm_scraper", "live", "advanced"],
  google_ai_overview: ["v3", "serp", "google", "organic", "live", "advanced"],
  google_ai_mode: ["v3", "serp", "google", "ai_mode", "live", "advanced"],
};

// What a task costs, USD, as DataForSEO's price list says for live tasks of each endpoint.
const COSTS: Record<DataforseoKind, number> = { chatgpt_app: 0.004, gemini_app: 0.003, google_ai_overview: 0.002, google_ai_mode: 0.003 };

const VERSION = "0.1.20261120";

function taskId(rng: Rng): string {
  const hex = () => rng.int(0, 15).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join("");
  return `11${part(6)}-${part(4)}-0${part(3)}-0000-${part(12)}`;
}

function datetime(): string {
  return new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, " +00:00");
}

const host = (url: string) => new URL(url).hostname;
const domainOf = (url: string) => host(url).replace(/^www\./, "");

/** The envelope of a request and its one task, with the task's `data` echoing what was posted. */
function envelope(kind: DataforseoKind, posted: Record<string, unknown>, result: unknown[] | null, cost: number, rng: Rng, status = { code: 20000, message: "Ok." }): Record<string, unknown> {
  const path = PATHS[kind];
  const data = { api: path[1], function: path[1] === "serp" ? "live" : "llm_scraper", se: path[2], ...(path[1] === "serp" ? { se_type: path[3] } : {}), ...posted };
  const ok = status.code === 20000;
  return {
    version: VERSION,
    status_code: 20000,
    status_message: "Ok.",
    time: `${(2 + rng.next() * 20).toFixed(4)} sec.`,
    cost: ok ? cost : 0,
    tasks_count: 1,
    tasks_error: ok ? 0 : 1,
    tasks: [
      {
        id: taskId(rng),
        status_code: status.code,
        status_message: status.message,
        time: `${(2 + rng.next() * 20).toFixed(4)} sec.`,
        cost: ok ? cost : 0,
        result_count: result ? result.length : 0,
        path,
        data,
        result,
      },
    ],
  };
}

/**
 * The answer as the app shows it, in Markdown: a ChatGPT app answer links each cited page after
 * its sentence (` ([g2.com](https://…?utm_source=chatgpt.com))`); Gemini's and Google's keep the
 * links out of the text. An exact answer ([[sim:answer:…]]) is the text alone.
 */
function markdownOf(scenario: Scenario, inline: boolean, tag: string): string {
  let text = "";
  scenario.sentences.forEach((sentence, n) => {
    if (n > 0) text += sentence.sep ?? " ";
    if (scenario.exact || !inline || sentence.cites.length === 0) {
      text += sentence.text;
      return;
    }
    const page = scenario.pages[sentence.cites[0]!]!;
    text += `${sentence.text.replace(/\.$/, "")} ([${page.site}](${withSource(page.url, tag)}))${sentence.text.endsWith(".") ? "." : ""}`;
  });
  return text;
}

/** Links the app gives carry its own marker, as ChatGPT's do. */
function withSource(url: string, tag: string): string {
  const u = new URL(url);
  u.searchParams.set("utm_source", tag);
  return u.toString();
}

function citedPages(scenario: Scenario): number[] {
  return [...new Set(scenario.sentences.flatMap((s) => s.cites))];
}

function source(page: SimPage, type: string, tag: string | null): Record<string, unknown> {
  return {
    type,
    title: page.title,
    snippet: `${page.title}.`,
    domain: domainOf(page.url),
    url: tag ? withSource(page.url, tag) : page.url,
    thumbnail: null,
    source_name: page.site,
    publication_date: null,
    markdown: `[${page.title}](${page.url})`,
  };
}

/** The brands the answer names, as ChatGPT's scraper lists them (kept in the raw envelope only). */
function brandEntities(scenario: Scenario): unknown[] {
  const known = new Map(everyBrand().map((b) => [b.name, b]));
  return scenario.brands.listed.map((name) => ({
    type: "chat_gpt_brand_entity",
    title: name,
    category: scenario.about.domain,
    markdown: `**${name}**`,
    urls: (known.get(name)?.domains ?? []).map((domain) => ({ url: `https://${domain}/`, domain })),
  }));
}

export function dataforseoResponse(kind: DataforseoKind, scenario: Scenario, posted: Record<string, unknown>, model: string, rng: Rng, shown: boolean): Record<string, unknown> {
  const keyword = typeof posted.keyword === "string" ? posted.keyword : "";
  const base = {
    keyword,
    location_code: typeof posted.location_code === "number" ? posted.location_code : 2840,
    language_code: typeof posted.language_code === "string" ? posted.language_code : "en",
  };
  const cited = citedPages(scenario);
  if (kind === "chatgpt_app") {
    const markdown = markdownOf(scenario, true, "chatgpt.com");
    const result = {
      ...base,
      model,
      check_url: `https://chatgpt.com/?q=${encodeURIComponent(keyword)}&hints=search`,
      datetime: datetime(),
      markdown,
      search_results: scenario.pages.map((page) => ({ type: "chat_gpt_search_result", url: page.url, domain: domainOf(page.url), title: page.title, description: `${page.title}.`, breadcrumb: null })),
      sources: cited.map((i) => source(scenario.pages[i]!, "chat_gpt_source", "chatgpt.com")),
      fan_out_queries: scenario.calls.flatMap((c) => c.queries),
      brand_entities: brandEntities(scenario),
      se_results_count: 0,
      item_types: ["chat_gpt_text"],
      items_count: 1,
      items: [{ type: "chat_gpt_text", rank_group: 1, rank_absolute: 1, markdown }],
    };
    return envelope(kind, posted, [result], COSTS[kind], rng);
  }
  if (kind === "gemini_app") {
    const markdown = markdownOf(scenario, false, "gemini");
    const result = {
      ...base,
      model,
      datetime: datetime(),
      markdown,
      sources: cited.map((i) => source(scenario.pages[i]!, "gemini_source", null)),
      se_results_count: 0,
      item_types: ["gemini_text"],
      items_count: 1,
      items: [{ type: "gemini_text", rank_group: 1, rank_absolute: 1, markdown }],
    };
    return envelope(kind, posted, [result], COSTS[kind], rng);
  }

  // Google: an AI Overview (or AI Mode's answer) with its references, then, on the organic SERP, the organic results.
  const references = cited.map((i) => {
    const page = scenario.pages[i]!;
    return { type: "ai_overview_reference", position: "right", source: page.site, domain: domainOf(page.url), url: page.url, title: page.title, text: `${page.title}.` };
  });
  const markdown = markdownOf(scenario, false, "google");
  const overview = {
    type: "ai_overview",
    rank_group: 1,
    rank_absolute: 1,
    position: "left",
    xpath: "/html[1]/body[1]/div[3]/div[1]/div[13]/div[1]/div[2]/div[1]/div[1]",
    ...(kind === "google_ai_overview" ? { asynchronous_ai_overview: true } : {}),
    markdown,
    // Google splits longer overviews into elements; the last element holds references of its own, which the top list leaves out.
    items: [
      { type: "ai_overview_element", title: null, text: markdown, markdown, images: null, references: references.slice(-1) },
    ],
    references: references.slice(0, Math.max(1, references.length - 1)),
    rectangle: null,
  };
  const serp = {
    ...base,
    type: kind === "google_ai_overview" ? "organic" : "ai_mode",
    se_domain: "google.com",
    check_url: `https://www.google.com/search?q=${encodeURIComponent(keyword)}${kind === "google_ai_mode" ? "&udm=50" : ""}&hl=${base.language_code}`,
    datetime: datetime(),
    spell: null,
    refinement_chips: null,
  };
  if (kind === "google_ai_mode") {
    const result = { ...serp, item_types: shown ? ["ai_overview"] : [], se_results_count: 0, items_count: shown ? 1 : 0, items: shown ? [overview] : [] };
    return envelope(kind, posted, [result], COSTS[kind], rng);
  }
  const organic = scenario.pages.map((page, i) => ({
    type: "organic",
    rank_group: i + 1,
    rank_absolute: i + (shown ? 2 : 1),
    position: "left",
    domain: host(page.url),
    title: page.title,
    url: page.url,
    description: `${page.title}.`,
    breadcrumb: `${host(page.url)} › ...`,
    is_featured_snippet: false,
  }));
  const items = shown ? [overview, ...organic] : organic;
  const result = { ...serp, item_types: [...new Set(items.map((i) => i.type))], se_results_count: 1_000_000 + scenario.pages.length * 73_117, items_count: items.length, items };
  // The asynchronous overview's surcharge is refunded when none was shown.
  return envelope(kind, posted, [result], shown ? COSTS[kind] + 0.002 : COSTS[kind], rng);
}

/** A failure DataForSEO reports inside an HTTP 200: the request's own status, or its task's. */
export function dataforseoStatus(kind: DataforseoKind, posted: Record<string, unknown>, rng: Rng, code: number, message: string, level: "request" | "task"): Record<string, unknown> {
  if (level === "task") return envelope(kind, posted, null, 0, rng, { code, message });
  return { version: VERSION, status_code: code, status_message: message, time: "0.0120 sec.", cost: 0, tasks_count: 0, tasks_error: 0, tasks: null };
}
