// The engine simulator: an HTTP server that answers the official SDKs at the paths they call
// (/v1/responses, /v1/messages, /v1beta/models/{model}:generateContent, Perplexity's
// /chat/completions, DataForSEO's /v3/… live endpoints) in each provider's wire format, serves
// its own grounding redirects, and fails on demand.
//
// Failures are injected by rules (options, or PUT /_simulator/failures) or by magic tokens in
// the prompt: [[sim:KIND]], [[sim:KIND:RETRY_AFTER_SECONDS]], [[sim:KIND@ENGINE]],
// [[sim:KIND*N]] (only the first N attempts of that prompt fail). KIND is one of
// rate_limit, server_error, overloaded, timeout, malformed, auth_error, bad_request, no_credit
// (DataForSEO's account without funds; a bad request elsewhere). DataForSEO reports them as it
// does, in an HTTP 200 body (rate_limit 40202 and overloaded 40209 at the request, server_error
// 50000, bad_request 40501 and no_credit 40200 at the task); auth_error is its HTTP 401. Shape
// tokens: [[sim:no_search]], [[sim:no_citations]], [[sim:pause_turn]] (Claude pauses after its
// first search), [[sim:search_error]] (Claude search error inside a 200),
// [[sim:redirect_fail]] (every Gemini redirect fails: 404, 500, or a 302 without Location;
// without it every simulated redirect resolves), [[sim:unicode]] (the answer adds multi-byte
// sentences and the sources odd URLs: percent-encoded umlauts, a Japanese title, utm parameters,
// a fragment, a YouTube query). Without tokens the answer, sources and searches fit the prompt's
// topic (scenario.ts, topics.ts) and name brands of its catalogue (brands.ts); [[sim:answer:TEXT]]
// (TEXT base64url of UTF-8) makes the answer exactly TEXT (directive.ts). Shape tokens take
// @ENGINE and *N too. The app engines answer as the consumer products do (app.ts: other sources,
// more fan-out queries, their own brand order); Google shows an AI Overview for about 60% of
// queries ([[sim:overview]], [[sim:no_overview]] decide it). The searcher's market is read from the request in each provider's own
// parameter (market.ts): the country's sites and TLD, its local brands, searches in its language.
//
// A structured request (OpenAI text.format json_schema, Anthropic tool_choice type tool, Gemini
// generationConfig.responseMimeType application/json) is answered, without searching, with the
// questions of questions.ts in that provider's structured shape: an output_text holding the JSON,
// a tool_use block for the forced tool, a JSON text part. Failure tokens and rules apply as to
// prompts. [[sim:invalid_json]] makes the reply a normal 200 whose structure is broken: OpenAI's
// and Gemini's JSON text is cut off half-way; Claude's tool input is {"questions": "not a list"}.
// A judge request (the app's judge prompt, lib/visibility/judge.ts) is answered with a judgement
// of the answer it carries instead (judge.ts: [[sim:judge_misquote]], [[sim:judge_invent]],
// [[sim:judge_unusable]]).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ENGINE_IDS, type EngineId } from "../types";
import { isObject } from "../normalize/common";
import { claudeContent, claudeError, claudeMessage, claudeToolUse, pauseIndex } from "./anthropic";
import { overviewShown } from "./app";
import { dataforseoResponse, dataforseoStatus, type DataforseoKind } from "./dataforseo";
import { exactAnswerOf } from "./directive";
import { geminiError, geminiResponse, geminiStructuredResponse, parseRedirectToken } from "./gemini";
import { marketOf } from "./market";
import { openaiError, openaiResponse, openaiStructuredResponse } from "./openai";
import { perplexityError, perplexityResponse } from "./perplexity";
import { isJudgeRequest, simulatedJudgement } from "./judge";
import { simulatedQuestions } from "./questions";
import { rngFrom } from "./rng";
import { buildScenario } from "./scenario";

export const FAILURE_KINDS = ["rate_limit", "server_error", "overloaded", "timeout", "malformed", "auth_error", "bad_request", "no_credit"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface FailureRule {
  kind: FailureKind;
  /** Only this engine; every engine when omitted. */
  engine?: EngineId;
  /** Only prompts containing this text. */
  promptIncludes?: string;
  /** How many requests the rule fails before it stops applying; unlimited when omitted. */
  times?: number;
  retryAfterSeconds?: number;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  seed?: string;
  /** Delay before every answer (default 0, which is what tests want). */
  latencyMs?: number;
  failures?: FailureRule[];
  /** Let the process exit while the simulator runs (an in-process simulator must not hold it). */
  unref?: boolean;
  /**
   * Told of every engine call (not continuations) before it is answered, and the answer waits for
   * what it returns: tests count calls per prompt across server restarts and hold a call open.
   */
  onCall?: (call: { engine: EngineId; prompt: string; body: Record<string, unknown>; path: string; authorization: string | null }) => void | Promise<void>;
}

export interface RunningSimulator {
  url: string;
  close(): Promise<void>;
  setFailures(rules: FailureRule[]): void;
  /** Forgets repeat counters, pending continuations and failure rules. */
  reset(): void;
  /** Engine calls being answered now, and the most at once since start or reset(), per engine. */
  callsInFlight(engine: EngineId): { now: number; peak: number };
}

interface Injected {
  kind: FailureKind;
  retryAfterSeconds: number;
}

interface Flags {
  noSearch: boolean;
  noCitations: boolean;
  pauseTurn: boolean;
  searchError: boolean;
  redirectFail: boolean;
  unicode: boolean;
  invalidJson: boolean;
  judgeUnusable: boolean;
}

const TOKEN = /\[\[sim:([a-z_]+)(?::(\d+))?(?:\*(\d+))?(?:@([a-z_]+))?\]\]/g;

const APP_ENGINES: readonly EngineId[] = ["chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"];
const isApp = (engine: EngineId): engine is DataforseoKind => APP_ENGINES.includes(engine);

// The model names the simulated scrapers report, as DataForSEO's results name the app's model.
const APP_MODELS: Partial<Record<EngineId, string>> = { chatgpt_app: "gpt-5-simulated", gemini_app: "gemini-2.5-flash-simulated" };

function readTokens(prompt: string, engine: EngineId, attempt: number): { failure: Injected | null; flags: Flags } {
  const flags: Flags = { noSearch: false, noCitations: false, pauseTurn: false, searchError: false, redirectFail: false, unicode: false, invalidJson: false, judgeUnusable: false };
  let failure: Injected | null = null;
  for (const match of prompt.matchAll(TOKEN)) {
    const [, kind, arg, times, only] = match;
    if (only && only !== engine) continue;
    if (times !== undefined && attempt >= Number(times)) continue;
    if ((FAILURE_KINDS as readonly string[]).includes(kind!)) {
      failure ??= { kind: kind as FailureKind, retryAfterSeconds: arg ? Number(arg) : 1 };
    } else if (kind === "no_search") flags.noSearch = true;
    else if (kind === "no_citations") flags.noCitations = true;
    else if (kind === "pause_turn") flags.pauseTurn = true;
    else if (kind === "search_error") flags.searchError = true;
    else if (kind === "redirect_fail") flags.redirectFail = true;
    else if (kind === "unicode") flags.unicode = true;
    else if (kind === "invalid_json") flags.invalidJson = true;
    else if (kind === "judge_unusable") flags.judgeUnusable = true;
  }
  return { failure, flags };
}

/** Whether the request asks for structured output in its provider's own way. */
function isStructured(engine: EngineId, body: Record<string, unknown>): boolean {
  if (engine === "perplexity" || isApp(engine)) return false;
  if (engine === "chatgpt") return isObject(body.text) && isObject(body.text.format) && body.text.format.type === "json_schema";
  if (engine === "claude") return isObject(body.tool_choice) && body.tool_choice.type === "tool";
  return isObject(body.generationConfig) && body.generationConfig.responseMimeType === "application/json";
}

function simulatedModel(model: string): string {
  return model.endsWith("-simulated") ? model : `${model}-simulated`;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? null : JSON.parse(text);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .join("");
}

/** The user's prompt from any of the request shapes. */
function promptOf(engine: EngineId, body: Record<string, unknown>): string {
  if (isApp(engine)) {
    const task = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : undefined;
    return task && typeof task.keyword === "string" ? task.keyword : "";
  }
  if (engine === "chatgpt") {
    if (typeof body.input === "string") return body.input;
    const first = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>).find((m) => m.role === "user") : undefined;
    return first ? textOf(first.content) : "";
  }
  if (engine === "claude" || engine === "perplexity") {
    const first = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>)[0] : undefined;
    return first ? textOf(first.content) : "";
  }
  const first = Array.isArray(body.contents) ? (body.contents as Array<Record<string, unknown>>)[0] : undefined;
  return first ? textOf(first.parts) : "";
}

/** DataForSEO's live endpoints the app engines call (dataforseo-client 2.1.7). */
const DATAFORSEO_PATHS: Record<string, DataforseoKind> = {
  "/v3/ai_optimization/chat_gpt/llm_scraper/live/advanced": "chatgpt_app",
  "/v3/ai_optimization/gemini/llm_scraper/live/advanced": "gemini_app",
  "/v3/serp/google/organic/live/advanced": "google_ai_overview",
  "/v3/serp/google/ai_mode/live/advanced": "google_ai_mode",
};

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = options.seed ?? "geoscope";
  const latencyMs = options.latencyMs ?? 0;
  let rules: Array<FailureRule & { used: number }> = (options.failures ?? []).map((r) => ({ ...r, used: 0 }));
  const attempts = new Map<string, number>();
  const paused = new Map<string, { rest: unknown[]; model: string; seedKey: string }>();

  function ruleFailure(engine: EngineId, prompt: string): Injected | null {
    for (const rule of rules) {
      if (rule.engine && rule.engine !== engine) continue;
      if (rule.promptIncludes && !prompt.includes(rule.promptIncludes)) continue;
      if (rule.times !== undefined && rule.used >= rule.times) continue;
      rule.used += 1;
      return { kind: rule.kind, retryAfterSeconds: rule.retryAfterSeconds ?? 1 };
    }
    return null;
  }

  function fail(engine: EngineId, res: ServerResponse, failure: Injected, posted: Record<string, unknown> = {}): void {
    const retry = String(failure.retryAfterSeconds);
    const rngFor = () => rngFrom(seed, engine, "failure", Date.now());
    const requestId = `req_${rngFrom(Date.now(), Math.random()).id(24)}`;
    switch (failure.kind) {
      case "timeout":
        // Never answer: the client's timeout has to fire. The socket closes with the server.
        return;
      case "malformed":
        send(res, 200, engine === "gemini" ? '{"candidates": [{"content": {"parts": [{"text": "Trunc' : isApp(engine) ? '{"version": "0.1.20261120", "status_code": 20000, "tasks": [{"id": "1' : '{"id": "resp_trunc", "output": [{"type": "mess', {});
        return;
      case "no_credit":
        if (isApp(engine)) return send(res, 200, dataforseoStatus(engine, posted, rngFor(), 40200, "Payment Required. Your account balance is insufficient to set this task.", "task"));
        return fail(engine, res, { kind: "bad_request", retryAfterSeconds: 1 }, posted);
      case "rate_limit":
        if (isApp(engine)) return send(res, 200, dataforseoStatus(engine, posted, rngFor(), 40202, "Rate-limit per minute has been exceeded. Please wait and send the request again.", "request"));
        if (engine === "perplexity") return send(res, 429, perplexityError("Rate limit exceeded. Please try again later.", "rate_limit_exceeded", 429), { "retry-after": retry });
        if (engine === "chatgpt") return send(res, 429, openaiError("Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded"), { "retry-after": retry, "x-request-id": requestId });
        if (engine === "claude") return send(res, 429, claudeError("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit.", requestId), { "retry-after": retry, "request-id": requestId });
        return send(res, 429, geminiError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.", [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retry}s` }]));
      case "server_error":
        if (isApp(engine)) return send(res, 200, dataforseoStatus(engine, posted, rngFor(), 50000, "Internal Error.", "task"));
        if (engine === "perplexity") return send(res, 500, perplexityError("Internal server error", "internal_server_error", 500));
        if (engine === "chatgpt") return send(res, 500, openaiError("The server had an error while processing your request. Sorry about that!", "server_error", null), { "x-request-id": requestId });
        if (engine === "claude") return send(res, 500, claudeError("api_error", "Internal server error", requestId), { "request-id": requestId });
        return send(res, 500, geminiError(500, "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"));
      case "overloaded":
        if (isApp(engine)) return send(res, 200, dataforseoStatus(engine, posted, rngFor(), 40209, "Too many simultaneous requests: the queue limit has been reached. Please try again later.", "request"));
        if (engine === "perplexity") return send(res, 503, perplexityError("The service is temporarily overloaded.", "service_unavailable", 503), { "retry-after": retry });
        if (engine === "chatgpt") return send(res, 503, openaiError("The engine is currently overloaded, please try again later.", "server_error", null), { "retry-after": retry, "x-request-id": requestId });
        if (engine === "claude") return send(res, 529, claudeError("overloaded_error", "Overloaded", requestId), { "retry-after": retry, "request-id": requestId });
        return send(res, 503, geminiError(503, "UNAVAILABLE", "The model is overloaded. Please try again later."));
      case "auth_error":
        return authError(engine, res);
      case "bad_request":
        if (isApp(engine)) return send(res, 200, dataforseoStatus(engine, posted, rngFor(), 40501, "Invalid Field: 'keyword'.", "task"));
        if (engine === "perplexity") return send(res, 400, perplexityError("Invalid request: the prompt was rejected.", "invalid_request_error", 400));
        if (engine === "chatgpt") return send(res, 400, openaiError("Invalid value for 'input': the prompt was rejected.", "invalid_request_error", "invalid_value"), { "x-request-id": requestId });
        if (engine === "claude") return send(res, 400, claudeError("invalid_request_error", "messages: the prompt was rejected.", requestId), { "request-id": requestId });
        return send(res, 400, geminiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument."));
    }
  }

  function authError(engine: EngineId, res: ServerResponse): void {
    // DataForSEO: one of the few cases it answers with an HTTP status.
    if (isApp(engine)) return send(res, 401, { version: "0.1.20261120", status_code: 40100, status_message: "You are not authorized to access this resource.", time: "0 sec.", cost: 0, tasks_count: 0, tasks_error: 0, tasks: null });
    if (engine === "perplexity") return send(res, 401, perplexityError("Invalid API key provided.", "invalid_api_key", 401));
    if (engine === "chatgpt") return send(res, 401, openaiError("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"));
    if (engine === "claude") return send(res, 401, claudeError("authentication_error", "invalid x-api-key", "req_sim_auth"));
    // Gemini answers a bad key with 400 and the reason in the details.
    return send(res, 400, geminiError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }]));
  }

  function hasKey(engine: EngineId, req: IncomingMessage, url: URL): boolean {
    if (engine === "chatgpt" || engine === "perplexity") return /^Bearer \S+/.test(req.headers.authorization ?? "");
    if (isApp(engine)) {
      // HTTP Basic with a login and a password, as DataForSEO's API access takes them.
      const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? "");
      const pair = basic ? Buffer.from(basic[1]!, "base64").toString("utf8") : "";
      return /^[^:]+:.+$/.test(pair);
    }
    // Anthropic's SDK sends the key as a bearer token; older clients use x-api-key.
    if (engine === "claude") return (typeof req.headers["x-api-key"] === "string" && req.headers["x-api-key"] !== "") || /^Bearer \S+/.test(req.headers.authorization ?? "");
    return (typeof req.headers["x-goog-api-key"] === "string" && req.headers["x-goog-api-key"] !== "") || url.searchParams.has("key");
  }

  const inFlight = new Map<EngineId, { now: number; peak: number }>();
  const countOf = (engine: EngineId) => {
    let count = inFlight.get(engine);
    if (!count) inFlight.set(engine, (count = { now: 0, peak: 0 }));
    return count;
  };

  async function handleEngine(engine: EngineId, req: IncomingMessage, res: ServerResponse, url: URL, pathModel: string | null): Promise<void> {
    const count = countOf(engine);
    count.now += 1;
    count.peak = Math.max(count.peak, count.now);
    // Until the answer is sent or the client goes away (a "timeout" failure never answers).
    res.once("close", () => (count.now -= 1));
    return answerEngine(engine, req, res, url, pathModel);
  }

  async function answerEngine(engine: EngineId, req: IncomingMessage, res: ServerResponse, url: URL, pathModel: string | null): Promise<void> {
    let body: Record<string, unknown>;
    try {
      body = ((await readJson(req)) ?? {}) as Record<string, unknown>;
    } catch {
      return fail(engine, res, { kind: "bad_request", retryAfterSeconds: 1 });
    }
    // DataForSEO's body is a list of tasks; its first is what the task envelope echoes.
    const posted = (Array.isArray(body) && body[0] && typeof body[0] === "object" ? body[0] : {}) as Record<string, unknown>;
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    if (!hasKey(engine, req, url)) return authError(engine, res);

    const model = APP_MODELS[engine] ?? simulatedModel(pathModel ?? (typeof body.model === "string" ? body.model : "model"));
    const prompt = promptOf(engine, body);
    const isContinuation = engine === "claude" && Array.isArray(body.messages) && body.messages.length > 1;
    if (options.onCall && !isContinuation) await options.onCall({ engine, prompt, body, path: url.pathname, authorization: req.headers.authorization ?? null });

    // A Claude continuation carries the paused assistant turn; it is the same run, not a repeat.
    if (engine === "claude" && Array.isArray(body.messages) && body.messages.length > 1) {
      const last = body.messages[body.messages.length - 1] as { role?: string; content?: unknown };
      const ids = Array.isArray(last.content) ? (last.content as Array<{ id?: string }>).map((b) => b.id).filter((id): id is string => !!id) : [];
      const state = ids.length > 0 ? paused.get(ids[ids.length - 1]!) : undefined;
      if (last.role !== "assistant" || !state) {
        return send(res, 400, claudeError("invalid_request_error", "messages: unexpected conversation for this simulator", "req_sim_400"));
      }
      paused.delete(ids[ids.length - 1]!);
      const input = 1200 + JSON.stringify(body.messages).length / 4;
      return send(res, 200, claudeMessage(state.rest, state.model, "end_turn", Math.ceil(input), rngFrom(state.seedKey, "continue")), { "request-id": "req_sim_cont" });
    }

    const key = `${engine}\u0000${prompt}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const tokens = readTokens(prompt, engine, attempt);
    const failure = ruleFailure(engine, prompt) ?? tokens.failure;
    if (failure) return fail(engine, res, failure, posted);

    if (isStructured(engine, body)) return answerStructured(engine, body, res, model, prompt, attempt, tokens.flags);

    const { noSearch, noCitations, unicode } = tokens.flags;
    const market = marketOf(engine, body);
    const scenario = buildScenario(prompt, `${seed}:${engine}`, attempt, { noSearch, noCitations, unicode, market, engine, answer: exactAnswerOf(prompt), app: isApp(engine) });
    const rng = rngFrom(seed, engine, prompt, attempt, "wire");
    if (engine === "perplexity") return send(res, 200, perplexityResponse(scenario, model, prompt, rng));
    if (isApp(engine)) {
      // Google's AI Overview shows for some queries only; an exact answer is asked to be shown.
      const shown = engine !== "google_ai_overview" || (exactAnswerOf(prompt) !== null && !/\[\[sim:no_overview/.test(prompt)) || overviewShown(seed, prompt, market);
      return send(res, 200, dataforseoResponse(engine, scenario, posted, model, rng, shown));
    }
    if (engine === "chatgpt") {
      return send(res, 200, openaiResponse(scenario, model, prompt, rng), { "x-request-id": `req_${rng.id(24)}`, "openai-processing-ms": String(latencyMs) });
    }
    if (engine === "claude") {
      const content = claudeContent(scenario, rng, { searchError: tokens.flags.searchError });
      const input = 800 + Math.ceil(prompt.length / 4) + scenario.pages.length * 900;
      if (tokens.flags.pauseTurn && scenario.calls.length > 0) {
        const cut = pauseIndex(content);
        const first = content.slice(0, cut);
        const lastTool = [...first].reverse().find((b) => (b as { type: string }).type === "server_tool_use") as { id: string };
        paused.set(lastTool.id, { rest: content.slice(cut), model, seedKey: `${seed}:${prompt}:${attempt}` });
        return send(res, 200, claudeMessage(first, model, "pause_turn", input, rng), { "request-id": `req_${rng.id(24)}` });
      }
      return send(res, 200, claudeMessage(content, model, "end_turn", input, rng), { "request-id": `req_${rng.id(24)}` });
    }
    const redirectBase = `http://${req.headers.host}`;
    return send(res, 200, geminiResponse(scenario, model, prompt, redirectBase, rng, { failRedirects: tokens.flags.redirectFail }));
  }

  function answerStructured(engine: EngineId, body: Record<string, unknown>, res: ServerResponse, model: string, prompt: string, attempt: number, flags: Flags): void {
    const invalid = flags.invalidJson;
    const judging = isJudgeRequest(prompt);
    const reply = judging
      ? simulatedJudgement(prompt, `${seed}:${engine}`, { unusable: flags.judgeUnusable })
      : { questions: simulatedQuestions(prompt, `${seed}:${engine}`) };
    const rng = rngFrom(seed, engine, prompt, attempt, "wire");
    const json = JSON.stringify(reply);
    const text = invalid ? json.slice(0, Math.floor(json.length / 2)) : json;
    if (engine === "chatgpt") {
      const format = (body.text as { format: unknown }).format;
      return send(res, 200, openaiStructuredResponse(text, format, model, prompt, rng), { "x-request-id": `req_${rng.id(24)}`, "openai-processing-ms": String(latencyMs) });
    }
    if (engine === "claude") {
      const tool = String((body.tool_choice as { name?: unknown }).name);
      const input = 400 + Math.ceil(prompt.length / 4) + Math.ceil(JSON.stringify(body.tools ?? []).length / 4);
      const block = claudeToolUse(tool, invalid ? (judging ? { entities: "not a list" } : { questions: "not a list" }) : reply, rng);
      return send(res, 200, claudeMessage([block], model, "tool_use", input, rng), { "request-id": `req_${rng.id(24)}` });
    }
    return send(res, 200, geminiStructuredResponse(text, model, prompt, rng));
  }

  function handleRedirect(req: IncomingMessage, res: ServerResponse, token: string): void {
    const parsed = parseRedirectToken(token);
    const head = req.method === "HEAD";
    const reply = (status: number, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "text/html; charset=UTF-8", ...headers });
      res.end(head ? undefined : `<html><body>${status}</body></html>`);
    };
    if (!parsed || parsed.b === "not_found") return reply(404);
    if (parsed.b === "server_error") return reply(500);
    if (parsed.b === "no_location") return reply(302);
    if (parsed.b === "get_only" && head) return reply(405, { allow: "GET" });
    return reply(302, { location: parsed.u });
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === "/_simulator/health") return send(res, 200, { ok: true, engines: ENGINE_IDS });
    if (path === "/_simulator/failures" && req.method === "PUT") {
      const body = await readJson(req);
      if (!Array.isArray(body)) return send(res, 400, { error: "expected a JSON list of failure rules" });
      rules = (body as FailureRule[]).map((r) => ({ ...r, used: 0 }));
      return send(res, 200, { rules: rules.length });
    }
    if (path === "/_simulator/failures" && req.method === "DELETE") {
      rules = [];
      return send(res, 200, { rules: 0 });
    }
    return send(res, 404, { error: "not found" });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator.invalid");
    const path = url.pathname;
    const route = async () => {
      if (req.method === "POST" && path === "/v1/responses") return handleEngine("chatgpt", req, res, url, null);
      if (req.method === "POST" && path === "/v1/messages") return handleEngine("claude", req, res, url, null);
      if (req.method === "POST" && path === "/chat/completions") return handleEngine("perplexity", req, res, url, null);
      const app = DATAFORSEO_PATHS[path];
      if (req.method === "POST" && app) return handleEngine(app, req, res, url, null);
      const gemini = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(path);
      if (req.method === "POST" && gemini) return handleEngine("gemini", req, res, url, decodeURIComponent(gemini[1]!));
      const redirect = /^\/grounding-api-redirect\/([A-Za-z0-9_-]+)$/.exec(path);
      if ((req.method === "GET" || req.method === "HEAD") && redirect) return handleRedirect(req, res, redirect[1]!);
      if (path.startsWith("/_simulator/")) return handleControl(req, res, path);
      return send(res, 404, { error: { message: `no route for ${req.method} ${path}` } });
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error) } });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  if (options.unref) server.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Requests held open by the timeout failure would keep close() waiting forever.
        server.closeAllConnections();
      }),
    setFailures: (next) => {
      rules = next.map((r) => ({ ...r, used: 0 }));
    },
    reset: () => {
      rules = [];
      attempts.clear();
      paused.clear();
      for (const count of inFlight.values()) count.peak = count.now;
    },
    callsInFlight: (engine) => ({ ...countOf(engine) }),
  };
}
