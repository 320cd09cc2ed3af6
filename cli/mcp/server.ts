// `geoscope mcp`: the API as Model Context Protocol tools over stdio, through the same typed client
// as the CLI. A tool's result is the API's body (JSON text, and structuredContent); an API error is
// a tool error (isError) whose content is the error envelope. stdout carries the protocol only.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type ServerNotification, type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { getPricing, type RateCard } from "../../lib/schemas/billing";
import { endpoints } from "../../lib/schemas/registry";
import { CliHttpError, localError, type Client } from "../client";
import { NoJsonSchemaValidator } from "./no-json-schema-validator";
import { buildTools, splitArguments, timeoutSeconds, type CostKind, type Tool } from "./tools";

type Card = z.output<typeof RateCard>;

/** Statuses after which a run, batch, fanout or analysis no longer changes. */
// A monitor tick can also end skipped (credit or budget): nothing more comes of it.
const FINISHED = new Set(["completed", "partial", "failed", "skipped"]);

const INSTRUCTIONS = `geoscope runs prompts on answer engines (the ChatGPT, Claude, Gemini and Perplexity APIs, and what people see in the ChatGPT and Gemini apps and Google's AI Overviews and AI Mode) and records what each answered, cited and searched.
list_engines says which engines the server runs and which are apps: always say whether a figure came from an API or an app.
Start with whoami, then list_projects (or create_project): work-starting tools need a project id (pr_…).
Work-starting tools (run_prompt and the like) return at once with the object queued; call the matching wait_for_… tool until its status is completed, partial or failed.
Each result is the API's JSON body. Visibility analyses and monitor ticks (a monitor's last_tick too) carry \`summary\`: up to five plain-words sentences made from their figures, each with its n; tell people those first, and call a difference a change only where a summary or a series' \`significant\` does.
An error is a tool error whose text is the API's error envelope {"error":{"code","message","engine","retryable"}}.`;

const usd = (amount: string) => `$${amount}`;

/** What a work-starting tool costs, from the rate card read at start (or said in general when it could not be read). */
export function costLine(kind: CostKind, card: Card | null): string {
  const rows = (product: string) => card?.prices.filter((p) => p.product === product) ?? [];
  const perEngine = rows("prompt").map((p) => `${p.engine ?? "any engine"} ${usd(p.unit_price_usd)}`).join(", ");
  const version = card ? ` (rate card ${card.version}; see get_pricing)` : "; see get_pricing";
  const one = (product: string, unit: string) => {
    const row = rows(product)[0];
    return row ? `${usd(row.unit_price_usd)} per ${unit}` : null;
  };
  switch (kind) {
    case "prompt":
      return `Cost: holds each engine's prompt price from your credit when queued (${perEngine || "the engine's prompt price per engine"}), paid when a run completes, released if it fails${version}.`;
    case "fanout":
      return `Cost: every execution (prompts × engines × runs) at its engine's prompt price (${perEngine || "per engine"}), the whole price held at creation; a failed run is not charged. estimate_fanout prices it for free first${version}.`;
    case "questions":
      return `Cost: ${one("questions", "question") ?? "a price per question"}, held for the count asked and paid for the questions generated${version}.`;
    case "audit":
      return `Cost: ${one("audit", "url") ?? "a price per page"}, held when queued and released if the audit fails${version}.`;
    case "citations":
      return `Cost: ${one("citations", "analysis") ?? "a price per analysis"} (0 means included); it calls no model${version}.`;
  }
}

/**
 * The API's own advice to wait with `GET /path?wait=30`, as an agent follows it here: with the
 * waiting tool of that path (an agent's tool call is not an HTTP request it can make).
 */
export function withWaitTools(text: string, tools: readonly Tool[]): string {
  return text.replace(/GET (\/\S+?)\?wait=\d+/g, (phrase, path: string) => tools.find((t) => t.waitsOn && t.definition.path === path)?.name ?? phrase);
}

function describe(tool: Tool, card: Card | null, tools: readonly Tool[]): string {
  const e = tool.definition;
  const parts = [tool.waitsOn ? `Waits for ${e.method} ${e.path} to finish, asking the API with ?wait=30 repeatedly until its status is completed, partial or failed (a monitor tick's also skipped), or timeout_seconds have passed; returns the body as it then is.` : `${e.summary}.`];
  if (!tool.waitsOn && e.description) parts.push(withWaitTools(e.description, tools));
  if (tool.hint) parts.push(tool.hint);
  if (tool.cost) parts.push(costLine(tool.cost, card));
  if (!tool.waitsOn) parts.push(`(${e.method} ${e.path})`);
  return parts.join(" ");
}

function bodyResult(text: string, extra: string[] = []): CallToolResult {
  let structured: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) structured = parsed as Record<string, unknown>;
  } catch {
    /* no body (204) */
  }
  return {
    content: [{ type: "text", text: text === "" ? "Done: the API answered 204 with no body." : text }, ...extra.map((t) => ({ type: "text" as const, text: t }))],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

function errorResult(error: CliHttpError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: error.text }], structuredContent: error.envelope };
}

function at(body: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), body);
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function createMcpServer(client: Client, options: { card: Promise<Card | null> }) {
  const tools = buildTools(endpoints);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server({ name: "geoscope", version: client.settings.version }, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: new NoJsonSchemaValidator(),
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const card = await options.card;
    return {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: describe(tool, card, tools),
        inputSchema: tool.inputJsonSchema as { type: "object" },
        annotations: {
          readOnlyHint: tool.definition.method === "GET" || tool.readOnly === true,
          destructiveHint: tool.definition.method === "DELETE",
          idempotentHint: tool.definition.method !== "POST" || tool.readOnly === true,
          openWorldHint: false,
        },
      })),
    };
  });

  async function waitFor(tool: Tool, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
    // timeout_seconds is this tool's own; everything else goes to the API, which judges it.
    const { timeout_seconds: given, ...rest } = args;
    const parsed = timeoutSeconds.safeParse(given);
    if (!parsed.success) throw localError(400, "invalid_request", `timeout_seconds: ${parsed.error.issues[0]!.message}`);
    const timeout = parsed.data;
    const { params, query } = splitArguments(tool, rest);
    const started = Date.now();
    const deadline = started + timeout * 1000;
    for (;;) {
      const asked = Date.now();
      const remaining = Math.max(0, Math.ceil((deadline - asked) / 1000));
      const result = await client.call(tool.definition, { params, query: { ...query, wait: Math.min(30, remaining) } });
      const status = String(at(result.body, tool.waitsOn!));
      const elapsed = Math.round((Date.now() - started) / 1000);
      if (FINISHED.has(status)) return bodyResult(result.text);
      if (Date.now() >= deadline || extra.signal.aborted) {
        return bodyResult(result.text, [`Still ${status} after ${elapsed} s. Call ${tool.name} again to keep waiting.`]);
      }
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: elapsed, total: timeout, message: `${status} after ${elapsed} s` } });
      }
      // A server that answered before `wait` was up without the object finished (one that ignores
      // `wait`, say) is asked at most once a second.
      const pause = Math.min(asked + 1000, deadline) - Date.now();
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them all.`);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      if (tool.waitsOn) return await waitFor(tool, args, extra);
      const result = await client.call(tool.definition, splitArguments(tool, args));
      return bodyResult(result.text);
    } catch (error) {
      if (error instanceof CliHttpError) return errorResult(error);
      throw error;
    }
  });

  return { server, tools };
}

/** Serves until the client closes stdin. Reads the rate card at start, for the work-starting tools' descriptions. */
export async function serveMcp(client: Client, transport?: Transport): Promise<void> {
  const card = client.call(getPricing).then((r) => r.body, () => null);
  const { server, tools } = createMcpServer(client, { card });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  if (!transport) {
    // The SDK's stdio transport does not notice its client going away: stdin ending is the end.
    process.stdin.once("end", () => void server.close());
  }
  await server.connect(transport ?? new StdioServerTransport());
  process.stderr.write(
    `geoscope mcp: ${tools.length} tools for ${client.settings.baseUrl}${client.settings.token ? "" : " (no credential: run `geoscope login` or set GEOSCOPE_TOKEN; tools that need one answer unauthenticated)"}\n`,
  );
  await closed;
}
