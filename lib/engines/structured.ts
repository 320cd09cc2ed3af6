// Asking one engine for structured output (a JSON schema), web search off: each provider's own
// mechanism, the same capture and failure classification as runPrompt, and the parsed value.
import type Anthropic from "@anthropic-ai/sdk";
import { Type, type Schema as GeminiSchema } from "@google/genai";
import { z } from "zod";
import type { Usage } from "@/lib/schemas/results";
import { capturingFetch } from "./capture";
import { chatgptBodyFailure, openaiClient } from "./chatgpt";
import { anthropicClient } from "./claude";
import type { EngineConfig } from "./config";
import { classifyThrown, engineFailure } from "./errors";
import { geminiBodyFailure, geminiClient } from "./gemini";
import { MalformedEnvelopeError, normalizeEnvelope } from "./normalize";
import { asArray, isObject, str, type Json } from "./normalize/common";
import { newEnvelope, type RunPromptDeps } from "./run";
import type { CapturedExchange, EngineEnvelope, EngineFailure, EngineId, StructuredEngineId } from "./types";

export interface StructuredSchema {
  /** [a-z_]{1,64}: the OpenAI format name, the Claude tool name. */
  name: string;
  description: string;
  /**
   * A JSON Schema object: type object, properties, required, additionalProperties false, arrays
   * with items, string enums.
   */
  json: Record<string, unknown>;
}

export interface StructuredInput {
  prompt: string;
  schema: StructuredSchema;
  /** Overrides the configured model for this call. */
  model?: string;
  signal?: AbortSignal;
}

export type StructuredOutcome =
  | { ok: true; engine: EngineId; envelope: EngineEnvelope; duration_ms: number; model: string | null; usage: Usage; value: unknown }
  | ({ ok: false; engine: EngineId; envelope: EngineEnvelope; duration_ms: number } & EngineFailure);

/** The caller's schema cannot be sent: a programming error, never a provider failure. */
export class StructuredSchemaError extends Error {
  override name = "StructuredSchemaError";
}

/** What a provider's 200 held: the value, or why it is not the requested structure. */
type Reading = { value: unknown } | EngineFailure;

interface StructuredEngine {
  call(input: StructuredInput, config: EngineConfig, fetch: typeof globalThis.fetch): Promise<void>;
  read(body: unknown, schema: StructuredSchema): Reading;
}

const malformed = (engine: EngineId, problem: string): EngineFailure =>
  engineFailure(engine, "engine_malformed_response", `the ${engine} structured reply ${problem}`, true);

function parseJson(engine: EngineId, text: string): Reading {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return malformed(engine, `is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const chatgpt: StructuredEngine = {
  async call({ prompt, schema, model, signal }, config, fetch) {
    await openaiClient(config, fetch).responses.create(
      {
        model: model ?? config.chatgpt.model,
        input: prompt,
        text: { format: { type: "json_schema", name: schema.name, description: schema.description, schema: schema.json, strict: true } },
        max_output_tokens: config.maxOutputTokens,
        store: false,
      },
      { signal },
    );
  },
  read(body) {
    const failed = chatgptBodyFailure(body);
    if (failed) return failed;
    if (!isObject(body)) return malformed("chatgpt", "is not an object");
    if (body.status === "incomplete") {
      const reason = isObject(body.incomplete_details) ? str(body.incomplete_details.reason) : null;
      return malformed("chatgpt", `is incomplete (${reason ?? "no reason given"})`);
    }
    let text: string | null = null;
    for (const item of asArray(body.output)) {
      if (!isObject(item) || item.type !== "message") continue;
      for (const part of asArray(item.content)) {
        if (!isObject(part)) continue;
        if (part.type === "refusal") return engineFailure("chatgpt", "engine_refused", `OpenAI refused: ${str(part.refusal) ?? "no reason given"}`, false);
        if (part.type === "output_text" && typeof part.text === "string") text = (text ?? "") + part.text;
      }
    }
    return text === null ? malformed("chatgpt", "has no output_text") : parseJson("chatgpt", text);
  },
};

const claude: StructuredEngine = {
  async call({ prompt, schema, model, signal }, config, fetch) {
    await anthropicClient(config, fetch).messages.create(
      {
        model: model ?? config.claude.model,
        max_tokens: config.maxOutputTokens,
        messages: [{ role: "user", content: prompt }],
        tools: [{ name: schema.name, description: schema.description, input_schema: schema.json as Anthropic.Messages.Tool.InputSchema }],
        tool_choice: { type: "tool", name: schema.name },
      },
      { signal },
    );
  },
  read(body, schema) {
    if (!isObject(body)) return malformed("claude", "is not an object");
    if (body.stop_reason === "max_tokens") return malformed("claude", "was cut off at the output token limit (stop_reason max_tokens)");
    if (body.stop_reason === "refusal") return engineFailure("claude", "engine_refused", "Claude refused to answer (stop_reason refusal)", false);
    const block = asArray(body.content).find((b): b is Json => isObject(b) && b.type === "tool_use" && b.name === schema.name);
    if (!block) return malformed("claude", `has no tool_use block named ${schema.name}`);
    return isObject(block.input) ? { value: block.input } : malformed("claude", "has a tool_use block whose input is not an object");
  },
};

// Gemini's own reasons for stopping that mean it would not answer.
const GEMINI_REFUSALS = ["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII"];

const gemini: StructuredEngine = {
  async call({ prompt, schema, model, signal }, config, fetch) {
    await geminiClient(config, fetch).models.generateContent({
      model: model ?? config.gemini.model,
      contents: prompt,
      config: {
        responseMimeType: "application/json",
        responseSchema: toGeminiSchema(schema.json),
        maxOutputTokens: config.maxOutputTokens,
        abortSignal: signal,
      },
    });
  },
  read(body) {
    const failed = geminiBodyFailure(body);
    if (failed) return failed;
    const candidate = isObject(body) ? asArray(body.candidates)[0] : undefined;
    if (!isObject(candidate)) return malformed("gemini", "has no candidate");
    const reason = str(candidate.finishReason);
    if (reason === "MAX_TOKENS") return malformed("gemini", "was cut off at the output token limit (finishReason MAX_TOKENS)");
    if (reason && GEMINI_REFUSALS.includes(reason)) return engineFailure("gemini", "engine_refused", `Gemini would not answer (finishReason ${reason})`, false);
    const parts = isObject(candidate.content) ? asArray(candidate.content.parts) : [];
    const text = parts.map((p) => (isObject(p) && p.thought !== true ? (str(p.text) ?? "") : "")).join("");
    return text === "" ? malformed("gemini", "has no text") : parseJson("gemini", text);
  },
};

const ENGINES: Record<StructuredEngineId, StructuredEngine> = { chatgpt, claude, gemini };

const JSON_TYPES = new Map<string, Type>([
  ["object", Type.OBJECT],
  ["array", Type.ARRAY],
  ["string", Type.STRING],
  ["integer", Type.INTEGER],
  ["number", Type.NUMBER],
  ["boolean", Type.BOOLEAN],
]);

/**
 * A JSON Schema as Gemini's responseSchema (the OpenAPI subset): upper-case types, properties in
 * the schema's order (propertyOrdering, which Gemini otherwise sorts), counts as strings.
 * additionalProperties has no equivalent and is dropped (the reply is checked against the schema
 * anyway); a keyword with no equivalent at all ($ref, oneOf...) throws StructuredSchemaError.
 */
export function toGeminiSchema(json: Record<string, unknown>, at = "schema"): GeminiSchema {
  const out: GeminiSchema = {};
  for (const [key, value] of Object.entries(json)) {
    const where = `${at}.${key}`;
    switch (key) {
      case "type": {
        const types = (Array.isArray(value) ? value : [value]).filter((t) => t !== "null");
        const type = types.length === 1 ? JSON_TYPES.get(String(types[0])) : undefined;
        if (type === undefined) throw new StructuredSchemaError(`${where}: ${JSON.stringify(value)} has no Gemini type`);
        out.type = type;
        if (Array.isArray(value) && value.includes("null")) out.nullable = true;
        break;
      }
      case "properties": {
        const properties = value as Record<string, Record<string, unknown>>;
        out.properties = Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, toGeminiSchema(sub, `${where}.${name}`)]));
        out.propertyOrdering ??= Object.keys(properties);
        break;
      }
      case "items":
        out.items = toGeminiSchema(value as Record<string, unknown>, where);
        break;
      case "anyOf":
        out.anyOf = (value as Array<Record<string, unknown>>).map((sub, i) => toGeminiSchema(sub, `${where}.${i}`));
        break;
      case "enum":
        out.enum = (value as unknown[]).map(String);
        break;
      case "required":
      case "propertyOrdering":
        out[key] = value as string[];
        break;
      case "description":
      case "title":
      case "format":
      case "pattern":
      // Counts are int64, which proto3 JSON writes as strings.
      case "minItems":
      case "maxItems":
      case "minLength":
      case "maxLength":
      case "minProperties":
      case "maxProperties":
        out[key] = String(value);
        break;
      case "minimum":
      case "maximum":
      case "nullable":
      case "default":
        (out as Record<string, unknown>)[key] = value;
        break;
      case "additionalProperties":
      case "$schema":
        break;
      default:
        throw new StructuredSchemaError(`${where}: the JSON Schema keyword ${key} has no Gemini equivalent`);
    }
  }
  return out;
}

/** Enum constraints removed: the values of labels are the caller's to judge, not the structure. */
function withoutEnums(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(withoutEnums);
  if (!isObject(json)) return json;
  return Object.fromEntries(Object.entries(json).filter(([key]) => key !== "enum").map(([key, value]) => [key, withoutEnums(value)]));
}

/**
 * The schema's structure (types, required and allowed properties) as a check of a value, which
 * answers why the value does not have it, or null. Built before any call: a schema it cannot read
 * is the caller's error, not a provider's.
 */
function structureCheck(schema: StructuredSchema): (value: unknown) => string | null {
  if (!/^[a-z_]{1,64}$/.test(schema.name)) throw new StructuredSchemaError(`schema name ${JSON.stringify(schema.name)} must match [a-z_]{1,64}`);
  let structure: z.ZodType;
  try {
    structure = z.fromJSONSchema(withoutEnums(schema.json) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new StructuredSchemaError(`schema ${schema.name} is not a JSON Schema zod can read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (value) => {
    const parsed = structure.safeParse(value);
    if (parsed.success) return null;
    const issue = parsed.error.issues[0]!;
    return `${issue.path.join(".") || "(root)"}: ${issue.message}`;
  };
}

function lastBody(exchanges: CapturedExchange[]): unknown {
  const last = exchanges[exchanges.length - 1];
  return last?.response && last.response.status < 300 ? last.response.body : null;
}

/**
 * One structured call: the provider's reply parsed and checked for the schema's structure (the
 * caller still validates the value's content, enums included). A reply without that structure is
 * engine_malformed_response, retryable.
 */
export async function runStructured(engine: StructuredEngineId, input: StructuredInput, deps: RunPromptDeps): Promise<StructuredOutcome> {
  const structureProblem = structureCheck(input.schema);
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const started = now();
  const envelope = newEnvelope(engine, input.model ?? config[engine].model);
  const { exchanges } = envelope;
  const failed = (failure: EngineFailure): StructuredOutcome => ({ ok: false, engine, envelope, duration_ms: now() - started, ...failure });

  if (!config.enabled.includes(engine)) {
    return failed(engineFailure(engine, "engine_bad_request", `engine ${engine} is not enabled; enabled: ${config.enabled.join(", ") || "none"}`, false));
  }
  try {
    await ENGINES[engine].call(input, config, capturingFetch(exchanges, deps.fetch ?? globalThis.fetch));
  } catch (error) {
    if (error instanceof StructuredSchemaError) throw error;
    return failed(classifyThrown(engine, error, exchanges[exchanges.length - 1], input.signal));
  }

  const reading = ENGINES[engine].read(lastBody(exchanges), input.schema);
  if (!("value" in reading)) return failed(reading);
  const problem = structureProblem(reading.value);
  if (problem) return failed(malformed(engine, `does not have the requested structure: ${problem}`));
  try {
    // Usage and model read exactly as for a prompt run.
    const { usage, model } = normalizeEnvelope(envelope);
    return { ok: true, engine, envelope, duration_ms: now() - started, model, usage, value: reading.value };
  } catch (error) {
    if (error instanceof MalformedEnvelopeError) return failed(malformed(engine, `is not in the documented shape: ${error.message}`));
    throw error;
  }
}
