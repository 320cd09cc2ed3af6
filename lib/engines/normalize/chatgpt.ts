// OpenAI Responses API envelope -> PromptResult. Searches are the `web_search_call` items,
// seen pages their `action.sources`, cited pages the `url_citation` annotations.
import type { EngineEnvelope, NormalizedRun } from "../types";
import { SearchLog, SourceBook, asArray, fail, int, isObject, joinRuns, str, type Json } from "./common";
import { successfulBodies } from "./bodies";

export function normalizeChatgpt(envelope: EngineEnvelope): NormalizedRun {
  const bodies = successfulBodies(envelope);
  const body = bodies[bodies.length - 1];
  if (!isObject(body)) fail("chatgpt: no response body");
  if (!Array.isArray(body.output)) fail("chatgpt: response has no `output` list");

  const book = new SourceBook(envelope.redirects);
  const log = new SearchLog();
  let answer = "";
  let resultsExposed = false;

  for (const item of body.output) {
    if (!isObject(item)) fail("chatgpt: an output item is not an object");
    if (item.type === "web_search_call") {
      const action = isObject(item.action) ? item.action : null;
      // The documented example shows a call with no action at all: a search we cannot see into.
      if (action === null || action.type === "search") {
        log.call(searchQueries(action), str(item.id));
        if (action && Array.isArray(action.sources)) {
          resultsExposed = true;
          for (const source of action.sources) {
            const url = isObject(source) ? str(source.url) : null;
            if (url) book.inResults(book.add(url, str((source as Json).title)));
          }
        }
      } else if (action.type === "open_page" || action.type === "find_in_page") {
        // Opening a page (or searching inside it) is the provider showing that its content
        // reached the model.
        const url = str(action.url);
        if (url) book.retrieved(book.add(url, null));
      }
    } else if (item.type === "message") {
      let text = "";
      const marks: Array<{ url: string; title: string | null; at: number }> = [];
      for (const part of asArray(item.content)) {
        if (!isObject(part)) continue;
        if (part.type === "output_text") {
          const partText = str(part.text) ?? fail("chatgpt: output_text without text");
          for (const annotation of asArray(part.annotations)) {
            if (!isObject(annotation) || annotation.type !== "url_citation") continue;
            const url = str(annotation.url);
            if (url) marks.push({ url, title: str(annotation.title), at: text.length + (int(annotation.start_index) ?? partText.length) });
          }
          text += partText;
        } else if (part.type === "refusal") {
          text += str(part.refusal) ?? "";
        }
      }
      answer = joinRuns(answer, text);
      const base = answer.length - text.length;
      for (const mark of marks) book.cite(book.add(mark.url, mark.title), base + mark.at);
    }
  }

  const usage = isObject(body.usage) ? body.usage : null;
  const outputDetails = usage && isObject(usage.output_tokens_details) ? usage.output_tokens_details : null;
  return {
    result: {
      answer,
      sources: book.finish({ resultsExposed, retrievalExposed: false, citationsExposed: true }),
      searches: log.searches,
      citations_exposed: book.markCount > 0,
      searched: log.calls > 0,
      search_calls: log.calls,
    },
    usage: {
      input_tokens: usage ? int(usage.input_tokens) : null,
      output_tokens: usage ? int(usage.output_tokens) : null,
      reasoning_tokens: outputDetails ? int(outputDetails.reasoning_tokens) : null,
      total_tokens: usage ? int(usage.total_tokens) : null,
      // OpenAI reports no search count; each search call is one billed search.
      web_searches: log.calls,
    },
    model: str(body.model),
    search_errors: [],
  };
}

function searchQueries(action: Json | null): string[] {
  if (action === null) return [];
  const queries = asArray(action.queries).filter((q): q is string => typeof q === "string" && q.trim() !== "");
  if (queries.length > 0) return queries;
  // `query` is deprecated in favour of `queries` but older responses carry only it.
  const query = str(action.query);
  return query && query.trim() !== "" ? [query] : [];
}
