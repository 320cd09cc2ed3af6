// A scenario as a Perplexity Sonar chat completion (@perplexity-ai/perplexity_ai 0.38.5
// CompletionResponse): the answer with `[n]` markers after the sentences that use a source,
// `search_results` and `citations` listing the pages in that numbering, and usage with the
// search count and the cost. Sonar shows its searches' queries only in Pro Search's reasoning
// steps: a `sonar-pro` model gets them here as one web_search step per call.
import type { Rng } from "./rng";
import type { Scenario } from "./scenario";

// Sonar's list prices: $1 per million tokens in and out, and $5 per thousand requests (medium context).
const PER_TOKEN = 1 / 1_000_000;
const REQUEST_FEE = 0.005;

export function perplexityResponse(scenario: Scenario, model: string, prompt: string, rng: Rng): Record<string, unknown> {
  // Perplexity numbers the pages its search returned; the answer's markers point into that list.
  const results = scenario.pages.map((page) => ({ title: page.title, url: page.url, date: datePart(page.pageAge), last_updated: datePart(page.pageAge), snippet: `${page.title}.`, source: "web" }));
  let text = "";
  scenario.sentences.forEach((sentence, n) => {
    if (n > 0) text += sentence.sep ?? " ";
    text += sentence.text;
    if (scenario.citationsOff) return;
    for (const i of sentence.cites) text += `[${i + 1}]`;
  });
  const queries = scenario.calls.filter((c) => c.queries.length > 0).length;
  const searches = scenario.pages.length === 0 ? 0 : Math.max(1, queries);
  const promptTokens = Math.ceil(prompt.length / 4) + 2;
  const completionTokens = Math.ceil(text.length / 4);
  const inputCost = round(promptTokens * PER_TOKEN);
  const outputCost = round(completionTokens * PER_TOKEN);
  const message: Record<string, unknown> = { role: "assistant", content: text };
  if (model.startsWith("sonar-pro") && scenario.calls.length > 0) {
    message.reasoning_steps = scenario.calls
      .filter((call) => call.queries.length > 0)
      .map((call) => ({ thought: "Searching the web for current sources.", type: "web_search", web_search: { search_keywords: call.queries, search_results: call.results.map((i) => results[i]) } }));
  }
  return {
    id: rng.id(8).toLowerCase() + "-" + rng.id(4).toLowerCase() + "-" + rng.id(12).toLowerCase(),
    model,
    created: Math.floor(Date.now() / 1000),
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      search_context_size: "medium",
      num_search_queries: searches,
      cost: { input_tokens_cost: inputCost, output_tokens_cost: outputCost, request_cost: searches > 0 ? REQUEST_FEE : 0, total_cost: round(inputCost + outputCost + (searches > 0 ? REQUEST_FEE : 0)) },
    },
    citations: scenario.citationsOff && scenario.pages.length === 0 ? [] : results.map((r) => r.url),
    search_results: results,
    object: "chat.completion",
    choices: [{ index: 0, finish_reason: "stop", message, delta: { role: "assistant", content: "" } }],
  };
}

const round = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

/** "2026-01-12" for a dated page, null for one whose age is relative or unknown. */
function datePart(age: string | null): string | null {
  if (age === null) return null;
  const parsed = Date.parse(`${age} UTC`);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString().slice(0, 10);
}

export function perplexityError(message: string, type: string, code: number): Record<string, unknown> {
  return { error: { message, type, code } };
}
