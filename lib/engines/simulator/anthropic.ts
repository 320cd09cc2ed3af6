// A scenario as Anthropic Messages API content with the server web search tool:
// server_tool_use + web_search_tool_result per search, and text blocks carrying
// web_search_result_location citations. Can be split at a pause_turn. A structured reply is one
// tool_use block (claudeToolUse).
import type { Rng } from "./rng";
import type { Scenario } from "./scenario";

export interface ClaudeOptions {
  /** One more search whose result is a web_search_tool_result_error inside the 200. */
  searchError?: boolean;
}

export function claudeContent(scenario: Scenario, rng: Rng, options: ClaudeOptions = {}): unknown[] {
  const content: unknown[] = [];
  // An exact answer ([[sim:answer:…]]) is the answer alone, without the preamble.
  if (scenario.calls.length > 0 && !scenario.exact) content.push({ type: "text", text: "I'll search for current information on this.", citations: null });
  // Claude's tool takes one query per call; a call that carried several becomes several.
  const queries = scenario.calls.flatMap((call) =>
    call.queries.map((query, n) => ({ query, results: n === 0 ? call.results : call.results.slice().reverse() })),
  );
  for (const { query, results } of queries) {
    const id = `srvtoolu_01${rng.id(22)}`;
    content.push({ type: "server_tool_use", id, name: "web_search", input: { query }, caller: { type: "direct" } });
    content.push({
      type: "web_search_tool_result",
      tool_use_id: id,
      caller: { type: "direct" },
      content: results.map((i) => {
        const page = scenario.pages[i]!;
        return { type: "web_search_result", url: page.url, title: page.title, encrypted_content: `Eq${rng.id(60)}`, page_age: page.pageAge };
      }),
    });
  }
  if (options.searchError) {
    const id = `srvtoolu_01${rng.id(22)}`;
    content.push({ type: "server_tool_use", id, name: "web_search", input: { query: `${queries[0]?.query ?? "latest"} latest news` }, caller: { type: "direct" } });
    content.push({ type: "web_search_tool_result", tool_use_id: id, caller: { type: "direct" }, content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" } });
  }
  scenario.sentences.forEach((sentence, n) => {
    const lead = n === 0 ? "" : (sentence.sep ?? " ");
    if (sentence.cites.length === 0) {
      content.push({ type: "text", text: `${lead}${sentence.text}`, citations: null });
      return;
    }
    if (lead) content.push({ type: "text", text: lead, citations: null });
    content.push({
      type: "text",
      text: sentence.text,
      citations: sentence.cites.map((i) => {
        const page = scenario.pages[i]!;
        return {
          type: "web_search_result_location",
          url: page.url,
          title: page.title,
          encrypted_index: `Eo${rng.id(40)}`,
          cited_text: `${sentence.text.slice(0, 80)}…`,
        };
      }),
    });
  });
  return content;
}

/** A forced tool call (tool_choice type tool): how Claude answers with structured output. */
export function claudeToolUse(name: string, input: unknown, rng: Rng): Record<string, unknown> {
  return { type: "tool_use", id: `toolu_01${rng.id(22)}`, name, input };
}

export function claudeMessage(content: unknown[], model: string, stopReason: "end_turn" | "pause_turn" | "tool_use", input: number, rng: Rng): Record<string, unknown> {
  const searches = content.filter((b) => (b as { type: string }).type === "server_tool_use").length;
  // What the model wrote: its text, and the input of a tool it called.
  const text = content
    .map((b) => {
      const block = b as { type: string; text?: string; input?: unknown };
      return block.type === "text" ? (block.text ?? "") : block.type === "tool_use" ? JSON.stringify(block.input) : "";
    })
    .join("");
  return {
    id: `msg_01${rng.id(22)}`,
    type: "message",
    role: "assistant",
    model,
    container: null,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: Math.max(1, Math.ceil(text.length / 4)) + searches * 20,
      server_tool_use: { web_search_requests: searches, web_fetch_requests: 0 },
      service_tier: "standard",
    },
  };
}

/** Index after the first search result: where a paused turn stops. */
export function pauseIndex(content: unknown[]): number {
  const i = content.findIndex((b) => (b as { type: string }).type === "web_search_tool_result");
  return i === -1 ? content.length : i + 1;
}

export function claudeError(type: string, message: string, requestId: string): Record<string, unknown> {
  return { type: "error", error: { type, message }, request_id: requestId };
}
