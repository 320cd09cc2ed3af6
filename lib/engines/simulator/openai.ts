// A scenario as an OpenAI Responses API response with web search: web_search_call items
// (queries and sources), an open_page action, and url_citation annotations on the answer; and a
// structured (json_schema) reply.
import type { Rng } from "./rng";
import type { Scenario } from "./scenario";

export function openaiResponse(scenario: Scenario, model: string, prompt: string, rng: Rng): Record<string, unknown> {
  const suffix = rng.id(40).toLowerCase();
  const output: unknown[] = [{ id: `rs_${rng.id(48).toLowerCase()}`, type: "reasoning", summary: [] }];
  for (const call of scenario.calls) {
    const id = `ws_${rng.id(8).toLowerCase()}${suffix}`;
    if (call.queries.length === 0) {
      // As in OpenAI's documented example: a call shown without any action.
      output.push({ type: "web_search_call", id, status: "completed" });
      continue;
    }
    output.push({
      type: "web_search_call",
      id,
      status: "completed",
      action: {
        type: "search",
        query: call.queries[0],
        queries: call.queries,
        sources: call.results.map((i) => ({ type: "url", url: scenario.pages[i]!.url })),
      },
    });
  }
  for (const i of scenario.opened) {
    output.push({
      type: "web_search_call",
      id: `ws_${rng.id(8).toLowerCase()}${suffix}`,
      status: "completed",
      action: { type: "open_page", url: scenario.pages[i]!.url },
    });
  }

  let text = "";
  const annotations: unknown[] = [];
  scenario.sentences.forEach((sentence, n) => {
    if (n > 0) text += sentence.sep ?? " ";
    if (scenario.exact) {
      // The answer is exactly as asked: each citation annotates its sentence, no mark inserted.
      const start = text.length;
      text += sentence.text;
      for (const i of sentence.cites) {
        const page = scenario.pages[i]!;
        annotations.push({ type: "url_citation", start_index: start, end_index: text.length, url: withUtm(page.url), title: page.title });
      }
      return;
    }
    text += sentence.text.replace(/\.$/, "");
    for (const i of sentence.cites) {
      const page = scenario.pages[i]!;
      const url = withUtm(page.url);
      const mark = ` ([${page.site}](${url}))`;
      annotations.push({ type: "url_citation", start_index: text.length, end_index: text.length + mark.length, url, title: page.title });
      text += mark;
    }
    text += sentence.text.endsWith(".") ? "." : "";
  });
  output.push(messageItem(`msg_${rng.id(8).toLowerCase()}${suffix}`, text, annotations));

  const input = 900 + prompt.length * 2 + scenario.pages.length * 1100;
  return responseObject(suffix, model, output, input, text, rng, {
    tools: [{ type: "web_search", search_context_size: "medium", user_location: null, filters: null }],
    format: { type: "text" },
  });
}

/**
 * A structured reply (text.format json_schema): a reasoning item and one message whose
 * output_text is `text`, the JSON as the model wrote it; the request's format is echoed.
 */
export function openaiStructuredResponse(text: string, format: unknown, model: string, prompt: string, rng: Rng): Record<string, unknown> {
  const suffix = rng.id(40).toLowerCase();
  const output = [
    { id: `rs_${rng.id(48).toLowerCase()}`, type: "reasoning", summary: [] },
    messageItem(`msg_${rng.id(8).toLowerCase()}${suffix}`, text, []),
  ];
  const input = 40 + Math.ceil(prompt.length / 4) + Math.ceil(JSON.stringify(format).length / 4);
  return responseObject(suffix, model, output, input, text, rng, { tools: [], format });
}

function messageItem(id: string, text: string, annotations: unknown[]): Record<string, unknown> {
  return { id, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations, logprobs: [] }] };
}

/** A completed Responses object around `output`, with usage for `input` tokens and the answer `text`. */
function responseObject(
  suffix: string,
  model: string,
  output: unknown[],
  input: number,
  text: string,
  rng: Rng,
  request: { tools: unknown[]; format: unknown },
): Record<string, unknown> {
  const reasoning = rng.int(64, 640);
  const out = Math.ceil(text.length / 4) + reasoning;
  return {
    id: `resp_${rng.id(8).toLowerCase()}${suffix}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    text: { format: request.format, verbosity: "medium" },
    tool_choice: "auto",
    tools: request.tools,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: out,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + out,
    },
    user: null,
    metadata: {},
  };
}

/** ChatGPT marks the links it cites as coming from it. */
function withUtm(url: string): string {
  const u = new URL(url);
  u.searchParams.set("utm_source", "openai");
  return u.toString();
}

export function openaiError(message: string, type: string, code: string | null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}
