// Gemini generateContent envelope -> PromptResult. Searches are `webSearchQueries` (Gemini
// shows no search calls), pages the `groundingChunks` (redirect URIs, resolved beforehand and
// recorded in the envelope), citations the `groundingSupports`, whose segment offsets are
// UTF-8 byte offsets into one part of the answer.
import type { SearchObservation } from "@/lib/schemas/results";
import type { EngineEnvelope, NormalizedRun } from "../types";
import { SourceBook, asArray, fail, int, isObject, str } from "./common";
import { successfulBodies } from "./bodies";

/** Grounding redirects whose target only the redirect host knows. */
export function isGroundingRedirect(raw: string): boolean {
  return /^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//.test(raw);
}

/** The UTF-16 offset (JavaScript string index) of a UTF-8 byte offset into `text`. */
export function byteToCharOffset(text: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byteOffset) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  return i;
}

export function normalizeGemini(envelope: EngineEnvelope): NormalizedRun {
  const bodies = successfulBodies(envelope);
  const body = bodies[bodies.length - 1];
  if (!isObject(body)) fail("gemini: no response body");
  if (!Array.isArray(body.candidates) || body.candidates.length === 0) fail("gemini: response has no candidates");
  const candidate = body.candidates[0];
  if (!isObject(candidate)) fail("gemini: the candidate is not an object");
  const content = isObject(candidate.content) ? candidate.content : {};

  // Offsets are per part: remember where each part's text starts in the joined answer.
  let answer = "";
  const partStart: number[] = [];
  const partText: string[] = [];
  for (const part of asArray(content.parts)) {
    partStart.push(answer.length);
    const text = isObject(part) && part.thought !== true ? (str(part.text) ?? "") : "";
    partText.push(text);
    answer += text;
  }

  const grounding = isObject(candidate.groundingMetadata) ? candidate.groundingMetadata : null;
  const queries = asArray(grounding?.webSearchQueries).filter((q): q is string => typeof q === "string" && q.trim() !== "");
  const searches: SearchObservation[] = queries.map((query, i) => ({
    query,
    position: i + 1,
    search_call: null,
    provider_search_id: null,
  }));

  const book = new SourceBook(envelope.redirects, isGroundingRedirect);
  const chunkKeys: Array<string | null> = [];
  for (const chunk of asArray(grounding?.groundingChunks)) {
    const web = isObject(chunk) && isObject(chunk.web) ? chunk.web : null;
    const uri = web ? str(web.uri) : null;
    if (!web || !uri) {
      chunkKeys.push(null);
      continue;
    }
    const key = book.add(uri, str(web.title));
    // A grounding chunk is retrieved content the model grounded on; it came from the
    // searches when there were any.
    book.retrieved(key);
    if (queries.length > 0) book.inResults(key);
    chunkKeys.push(key);
  }

  const supports = grounding?.groundingSupports;
  for (const support of asArray(supports)) {
    if (!isObject(support)) continue;
    const segment = isObject(support.segment) ? support.segment : {};
    // proto3 JSON leaves out zeros: a missing partIndex or startIndex is 0.
    const part = int(segment.partIndex) ?? 0;
    const endByte = int(segment.endIndex) ?? int(segment.startIndex) ?? 0;
    const at = (partStart[part] ?? answer.length) + byteToCharOffset(partText[part] ?? "", endByte);
    for (const index of asArray(support.groundingChunkIndices)) {
      const key = typeof index === "number" ? chunkKeys[index] : undefined;
      if (key) book.cite(key, at);
    }
  }

  const usage = isObject(body.usageMetadata) ? body.usageMetadata : null;
  // proto3 JSON leaves out zero counts, so inside a usage object a missing count is 0.
  const count = (name: string) => (usage ? (int(usage[name]) ?? 0) : null);
  const prompt = count("promptTokenCount");
  const toolUse = count("toolUsePromptTokenCount");
  return {
    result: {
      answer,
      sources: book.finish({
        resultsExposed: false,
        retrievalExposed: true,
        // Chunks without supports: Gemini grounded the answer but did not say where.
        citationsExposed: Array.isArray(supports) || chunkKeys.length === 0,
      }),
      searches,
      citations_exposed: book.markCount > 0,
      searched: queries.length > 0 || chunkKeys.some((k) => k !== null),
      search_calls: null,
    },
    usage: {
      // Search results fed back to the model are billed as input.
      input_tokens: prompt === null ? null : prompt + (toolUse ?? 0),
      output_tokens: count("candidatesTokenCount"),
      reasoning_tokens: count("thoughtsTokenCount"),
      total_tokens: usage ? int(usage.totalTokenCount) : null,
      web_searches: null,
    },
    model: str(body.modelVersion),
    search_errors: [],
  };
}
