// Anthropic Messages API envelope -> PromptResult. One `server_tool_use` named web_search is
// one search call; its `web_search_tool_result` lists the pages seen (with their encrypted
// content, so their content reached the model); `web_search_result_location` citations on
// text blocks are the cited pages. Continuation turns (pause_turn) are read in order.
import type { EngineEnvelope, NormalizedRun, SearchToolError } from "../types";
import { SearchLog, SourceBook, asArray, fail, int, isObject, joinRuns, str, sumOrNull } from "./common";
import { successfulBodies } from "./bodies";

export function normalizeClaude(envelope: EngineEnvelope): NormalizedRun {
  const bodies = successfulBodies(envelope);
  const book = new SourceBook(envelope.redirects);
  const log = new SearchLog();
  const searchErrors: SearchToolError[] = [];
  let answer = "";
  let lastWasText = false;
  let model: string | null = null;
  const input: Array<number | null> = [];
  const output: Array<number | null> = [];
  const thinking: Array<number | null> = [];
  const webSearches: Array<number | null> = [];

  for (const body of bodies) {
    if (!isObject(body)) fail("claude: a response body is not an object");
    if (!Array.isArray(body.content)) fail("claude: response has no `content` list");
    model = str(body.model) ?? model;

    for (const block of body.content) {
      if (!isObject(block)) fail("claude: a content block is not an object");
      if (block.type === "text") {
        const text = str(block.text) ?? fail("claude: text block without text");
        // Citations split one passage into adjacent text blocks, which join as they are; a
        // tool call between two passages gets a paragraph break.
        answer = lastWasText ? answer + text : joinRuns(answer, text);
        lastWasText = true;
        for (const citation of asArray(block.citations)) {
          if (!isObject(citation) || citation.type !== "web_search_result_location") continue;
          const url = str(citation.url);
          if (url) book.cite(book.add(url, str(citation.title)), answer.length);
        }
        continue;
      }
      lastWasText = false;
      if (block.type === "server_tool_use" && block.name === "web_search") {
        const query = isObject(block.input) ? str(block.input.query) : null;
        log.call(query && query.trim() !== "" ? [query] : [], str(block.id));
      } else if (block.type === "web_search_tool_result") {
        if (Array.isArray(block.content)) {
          for (const result of block.content) {
            if (!isObject(result) || result.type !== "web_search_result") continue;
            const url = str(result.url);
            if (!url) continue;
            const key = book.add(url, str(result.title));
            book.inResults(key);
            if (str(result.encrypted_content)) book.retrieved(key);
          }
        } else if (isObject(block.content)) {
          // An error inside a 200: the search failed but the answer stands. Keep it.
          searchErrors.push({ provider_search_id: str(block.tool_use_id), error_code: str(block.content.error_code) ?? "unknown" });
        }
      }
    }

    const usage = isObject(body.usage) ? body.usage : null;
    if (usage) {
      const fresh = int(usage.input_tokens);
      // Cached prompt tokens are input too; Anthropic reports them apart from input_tokens.
      input.push(fresh === null ? null : fresh + (int(usage.cache_creation_input_tokens) ?? 0) + (int(usage.cache_read_input_tokens) ?? 0));
      output.push(int(usage.output_tokens));
      thinking.push(isObject(usage.output_tokens_details) ? int(usage.output_tokens_details.thinking_tokens) : null);
      webSearches.push(isObject(usage.server_tool_use) ? int(usage.server_tool_use.web_search_requests) : null);
    }
  }

  const inputTokens = sumOrNull(input);
  const outputTokens = sumOrNull(output);
  return {
    result: {
      answer,
      sources: book.finish({ resultsExposed: true, retrievalExposed: true, citationsExposed: true }),
      searches: log.searches,
      citations_exposed: book.markCount > 0,
      searched: log.calls > 0,
      search_calls: log.calls,
    },
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      reasoning_tokens: sumOrNull(thinking),
      total_tokens: inputTokens !== null && outputTokens !== null ? inputTokens + outputTokens : null,
      web_searches: sumOrNull(webSearches),
    },
    model,
    search_errors: searchErrors,
  };
}
