// A scenario as a Gemini generateContent response grounded with Google Search: queries,
// grounding chunks whose URIs are redirects through the simulator's own redirect endpoint
// (which fail only with [[sim:redirect_fail]]), and supports with UTF-8 byte offsets per part; and
// a structured (JSON) reply.
import type { Rng } from "./rng";
import type { Scenario } from "./scenario";

export type RedirectBehaviour = "ok" | "get_only" | "not_found" | "server_error" | "no_location";

/** The token in a simulated grounding redirect: the target and how the endpoint behaves. */
export function redirectToken(target: string, behaviour: RedirectBehaviour): string {
  return `AUZIYQ${Buffer.from(JSON.stringify({ u: target, b: behaviour })).toString("base64url")}`;
}

export function parseRedirectToken(token: string): { u: string; b: RedirectBehaviour } | null {
  if (!token.startsWith("AUZIYQ")) return null;
  try {
    const value = JSON.parse(Buffer.from(token.slice(6), "base64url").toString("utf8")) as { u?: unknown; b?: unknown };
    return typeof value.u === "string" && typeof value.b === "string" ? { u: value.u, b: value.b as RedirectBehaviour } : null;
  } catch {
    return null;
  }
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

export function geminiResponse(
  scenario: Scenario,
  model: string,
  prompt: string,
  redirectBase: string,
  rng: Rng,
  options: { failRedirects?: boolean } = {},
): Record<string, unknown> {
  // Longer answers come in two parts, so offsets must be read per part.
  const split = scenario.sentences.length >= 4 ? Math.ceil(scenario.sentences.length / 2) : scenario.sentences.length;
  const partSentences = [scenario.sentences.slice(0, split), scenario.sentences.slice(split)].filter((p) => p.length > 0);

  // Only pages the answer used become chunks, plus one seen-but-unused page when there is one.
  const used = [...new Set(scenario.sentences.flatMap((s) => s.cites))];
  const spare = scenario.pages.findIndex((_, i) => !used.includes(i));
  const chunkPages = scenario.citationsOff ? scenario.pages.map((_, i) => i).slice(0, 3) : spare >= 0 ? [...used, spare] : used;
  // Ordinary prompts get redirects that resolve, as live ones do (some answer GET only); the
  // ways a redirect fails are error paths, for [[sim:redirect_fail]] alone.
  const behaviours: RedirectBehaviour[] = options.failRedirects ? ["not_found", "server_error", "no_location"] : ["ok", "ok", "get_only", "ok"];
  const chunks = chunkPages.map((i, n) => {
    const page = scenario.pages[i]!;
    const behaviour = behaviours[(n + rng.int(0, 7)) % behaviours.length]!;
    return { web: { uri: `${redirectBase}/grounding-api-redirect/${redirectToken(page.url, behaviour)}`, title: page.site } };
  });

  const parts: Array<{ text: string }> = [];
  const supports: unknown[] = [];
  partSentences.forEach((sentences, partIndex) => {
    let text = "";
    sentences.forEach((sentence, n) => {
      if (n > 0) text += sentence.sep ?? " ";
      const start = bytes(text);
      text += sentence.text;
      if (scenario.citationsOff || sentence.cites.length === 0) return;
      // proto3 JSON leaves out zero values, as the real API does.
      const segment: Record<string, unknown> = { endIndex: bytes(text), text: sentence.text };
      if (start > 0) segment.startIndex = start;
      if (partIndex > 0) segment.partIndex = partIndex;
      supports.push({
        segment,
        groundingChunkIndices: sentence.cites.map((i) => chunkPages.indexOf(i)),
        confidenceScores: sentence.cites.map(() => Math.round((0.6 + rng.next() * 0.39) * 100) / 100),
      });
    });
    // A part ends with what separates it from the next part's first sentence.
    const next = partSentences[partIndex + 1]?.[0];
    parts.push({ text: next ? `${text}${next.sep ?? " "}` : text });
  });

  const queries = scenario.calls.flatMap((c) => c.queries);
  const grounding: Record<string, unknown> = {};
  if (queries.length > 0 || chunks.length > 0) {
    grounding.webSearchQueries = queries;
    grounding.searchEntryPoint = { renderedContent: `<style>.container{display:flex}</style><div class="container">${queries.map((q) => `<a class="chip">${q}</a>`).join("")}</div>` };
    grounding.groundingChunks = chunks;
    if (!scenario.citationsOff) grounding.groundingSupports = supports;
  }

  const candidate: Record<string, unknown> = { content: { parts, role: "model" }, finishReason: "STOP", index: 0 };
  if (Object.keys(grounding).length > 0) candidate.groundingMetadata = grounding;
  return responseBody(candidate, parts.map((p) => p.text).join(""), model, prompt, chunks.length * 240, rng);
}

/** A structured reply (responseMimeType application/json): the JSON as the model wrote it, in one part. */
export function geminiStructuredResponse(text: string, model: string, prompt: string, rng: Rng): Record<string, unknown> {
  return responseBody({ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }, text, model, prompt, 0, rng);
}

/** The response around one candidate, with usage for the prompt, the candidate's `text` and `toolUse` search tokens. */
function responseBody(candidate: Record<string, unknown>, text: string, model: string, prompt: string, toolUse: number, rng: Rng): Record<string, unknown> {
  const promptTokens = Math.ceil(prompt.length / 4) + 4;
  const candidates = Math.ceil(text.length / 4);
  const thoughts = rng.int(0, 1) === 1 ? rng.int(100, 900) : 0;
  const usage: Record<string, unknown> = {
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: promptTokens + candidates + toolUse + thoughts,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: promptTokens }],
  };
  if (toolUse > 0) usage.toolUsePromptTokenCount = toolUse;
  if (thoughts > 0) usage.thoughtsTokenCount = thoughts;
  return { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: rng.id(22) };
}

export function geminiError(code: number, status: string, message: string, details: unknown[] = []): Record<string, unknown> {
  return { error: { code, message, status, ...(details.length > 0 ? { details } : {}) } };
}
