// Perplexity Sonar chat completion -> PromptResult. Pages are `search_results` (what its search
// returned, in the order the answer numbers them); citations are the answer's `[n]` markers, which
// number `citations` (the same URLs): each marker is taken out of the answer and becomes a
// citation at its place, so the answer reads as the product shows it and quotes stay clean.
// Searches: the queries only where Pro Search's reasoning steps show them, else a count.
import type { EngineEnvelope, NormalizedRun } from "../types";
import { SearchLog, SourceBook, asArray, fail, int, isObject, str } from "./common";
import { successfulBodies } from "./bodies";
import { usdOf } from "./money";

const MARKER = /\[(\d{1,3})\]/g;

/** The answer text of a message: a string, or text chunks. */
function contentOf(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((chunk) => (isObject(chunk) && chunk.type === "text" ? (str(chunk.text) ?? "") : ""))
    .join("");
}

export function normalizePerplexity(envelope: EngineEnvelope): NormalizedRun {
  const bodies = successfulBodies(envelope);
  const body = bodies[bodies.length - 1];
  if (!isObject(body)) fail("perplexity: no response body");
  if (!Array.isArray(body.choices) || body.choices.length === 0) fail("perplexity: response has no choices");
  const choice = body.choices[0];
  if (!isObject(choice) || !isObject(choice.message)) fail("perplexity: the choice has no message");
  const raw = contentOf(choice.message.content);

  const book = new SourceBook(envelope.redirects);
  const results = asArray(body.search_results);
  const resultKeys: Array<string | null> = results.map((result) => {
    const url = isObject(result) ? str(result.url) : null;
    if (!url) return null;
    const key = book.add(url, str((result as Record<string, unknown>).title));
    book.inResults(key);
    return key;
  });
  // `citations` and `search_results` list the same pages in the same order; either numbers the markers.
  const citationUrls = asArray(body.citations).map((c) => str(c));
  const keyOf = (n: number): string | null => {
    const url = citationUrls[n - 1];
    if (url) return book.add(url, null);
    return resultKeys[n - 1] ?? null;
  };

  let answer = "";
  let from = 0;
  for (const match of raw.matchAll(MARKER)) {
    const key = keyOf(Number(match[1]));
    // A bracketed number that names no source ("[2024]", "[1]" with no sources) is text.
    if (key === null) continue;
    answer += raw.slice(from, match.index);
    from = match.index + match[0].length;
    book.cite(key, answer.length);
  }
  answer += raw.slice(from);

  const log = new SearchLog();
  let steps = 0;
  for (const step of asArray(choice.message.reasoning_steps)) {
    const search = isObject(step) && isObject(step.web_search) ? step.web_search : null;
    if (!search) continue;
    steps += 1;
    log.call(asArray(search.search_keywords).filter((q): q is string => typeof q === "string" && q.trim() !== ""), null);
  }

  const usage = isObject(body.usage) ? body.usage : null;
  const searchCount = usage ? int(usage.num_search_queries) : null;
  const cost = usage && isObject(usage.cost) ? usdOf(usage.cost.total_cost) : null;
  return {
    result: {
      answer,
      sources: book.finish({ resultsExposed: true, retrievalExposed: false, citationsExposed: true }),
      searches: log.searches,
      citations_exposed: book.markCount > 0,
      searched: results.length > 0 || (searchCount ?? 0) > 0 || steps > 0,
      search_calls: steps > 0 ? steps : null,
      provider_cost_usd: cost,
      search_count: searchCount,
    },
    usage: {
      input_tokens: usage ? int(usage.prompt_tokens) : null,
      output_tokens: usage ? int(usage.completion_tokens) : null,
      reasoning_tokens: usage ? int(usage.reasoning_tokens) : null,
      total_tokens: usage ? int(usage.total_tokens) : null,
      web_searches: searchCount,
    },
    model: str(body.model),
    search_errors: [],
  };
}
