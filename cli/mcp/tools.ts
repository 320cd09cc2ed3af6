// The MCP tools of `geoscope mcp`, one line each. A tool names an operation by "METHOD /path" as
// the registry (lib/schemas/registry.ts) does: the spec's endpoint table, with the share paths'
// `{object_id}` written `{run_id}` / `{analysis_id}` (docs/decisions.md "Sharing"), and four share
// tools for every kind that can be shared (SHARE_TARGETS, lib/schemas/shares.ts). Its input
// schema, its call and most of its description come from that endpoint's definition. A line whose
// endpoint is not in the registry yet (audits are being built) gives no tool until it is added.
import { z } from "zod";
import { ENGINE_IDS } from "../../lib/schemas/common";
import type { EndpointDefinition } from "../../lib/schemas/endpoint";
import { SHARE_ENDPOINTS, SHARE_KIND_NAMES } from "../../lib/schemas/shares";

/** A rate-card product, or `fanout`: prompt executions priced per engine. */
export type CostKind = "prompt" | "questions" | "audit" | "citations" | "fanout";

export type ToolSpec = {
  name: string;
  /** "METHOD /path", as in the spec's endpoint table. */
  endpoint: string;
  /** Said after the endpoint's own summary and description. */
  hint?: string;
  /** Work-starting: what it is charged as; the description then says what it costs. */
  cost?: CostKind;
  /** A waiting tool: repeats the GET with `?wait=30` until the status at this path of the body is finished, or its time is up. */
  waitsOn?: string;
  /** A POST that only reads (starts, holds and changes nothing): read-only and idempotent to the client. */
  readOnly?: true;
};

export const TOOLS: readonly ToolSpec[] = [
  { name: "whoami", endpoint: "GET /me", hint: "Start here: the account, the credential, and the workspaces it can act in." },
  {
    name: "list_engines",
    endpoint: "GET /engines",
    hint: "Which engine ids this server can run (`enabled`), and whether each is a model's API (`surface` api) or what people see in a consumer app (`app`): say which when you report a figure.",
  },
  { name: "get_pricing", endpoint: "GET /pricing" },
  { name: "get_billing", endpoint: "GET /billing" },
  { name: "list_projects", endpoint: "GET /projects", hint: "Work-starting tools need a project id (`pr_…`) from here or from create_project." },
  { name: "create_project", endpoint: "POST /projects" },
  { name: "get_project", endpoint: "GET /projects/{project_id}" },
  { name: "run_prompt", endpoint: "POST /prompts", cost: "prompt", hint: "wait_for_batch takes its batch.id." },
  { name: "wait_for_batch", endpoint: "GET /batches/{batch_id}", waitsOn: "batch.status" },
  { name: "get_batch", endpoint: "GET /batches/{batch_id}" },
  { name: "get_run", endpoint: "GET /runs/{run_id}" },
  { name: "wait_for_run", endpoint: "GET /runs/{run_id}", waitsOn: "status" },
  { name: "list_runs", endpoint: "GET /runs" },
  { name: "estimate_fanout", endpoint: "POST /fanouts/estimate", hint: "Free: starts and holds nothing.", readOnly: true },
  { name: "create_fanout", endpoint: "POST /fanouts", cost: "fanout", hint: "Returns at once with the fanout queued; then call wait_for_fanout with its id." },
  { name: "wait_for_fanout", endpoint: "GET /fanouts/{fanout_id}", waitsOn: "status" },
  { name: "get_fanout", endpoint: "GET /fanouts/{fanout_id}" },
  { name: "get_fanout_queries", endpoint: "GET /fanouts/{fanout_id}/queries" },
  { name: "list_fanouts", endpoint: "GET /fanouts" },
  {
    name: "create_monitor",
    endpoint: "POST /monitors",
    hint: "Starts nothing now: each tick (at next_run_at, then every day or week) is a fanout charged like create_fanout; monthly_budget_usd caps what its ticks spend in a month. The answer's webhook_secret is shown only here.",
  },
  { name: "estimate_monitor", endpoint: "POST /monitors/estimate", hint: "Free: creates and holds nothing. Says a tick's and a month's price, how precise each tick's rates will be, and how large a change its alerts catch.", readOnly: true },
  { name: "list_monitors", endpoint: "GET /monitors" },
  { name: "get_monitor", endpoint: "GET /monitors/{monitor_id}" },
  { name: "update_monitor", endpoint: "PATCH /monitors/{monitor_id}", hint: "Pause with status paused, resume with status active." },
  { name: "delete_monitor", endpoint: "DELETE /monitors/{monitor_id}" },
  { name: "run_monitor", endpoint: "POST /monitors/{monitor_id}/run", cost: "fanout", hint: "The tick's id goes to wait_for_monitor_tick (its summary says what it found once it has closed), its fanout_id to wait_for_fanout; a skipped tick (skip_reason) started and charged nothing." },
  { name: "list_monitor_ticks", endpoint: "GET /monitors/{monitor_id}/ticks", hint: "Each tick's summary says in words how often each entity was named and what changed since the tick before (only what the series' test calls a change)." },
  { name: "wait_for_monitor_tick", endpoint: "GET /monitors/{monitor_id}/ticks/{tick_id}", waitsOn: "status" },
  {
    name: "get_monitor_series",
    endpoint: "GET /monitors/{monitor_id}/series",
    hint: "One metric (visibility, share_of_voice, cited_rate, average_position, top3_rate) of one entity on one engine or all, per tick: value with n and 95% interval, and the change from the previous tick with significant (as alerts decide). Call once per entity to compare them.",
  },
  {
    name: "monitor_overview",
    endpoint: "GET /projects/{project_id}/monitor-overview",
    hint: "Every monitor of a project at once (competitor benchmarking over time): per entity its latest visibility over all engines with n and 95% interval, its last 12 points, and its change since last week and last month with significant (the series' test). Read summary first; get_monitor_series goes deeper into one monitor.",
  },
  { name: "rotate_monitor_webhook_secret", endpoint: "POST /monitors/{monitor_id}/webhook-secret/rotate" },
  { name: "list_monitor_alerts", endpoint: "GET /monitors/{monitor_id}/alerts", hint: "Each alert's deliveries say whether its webhook and email went out, with every attempt." },
  { name: "list_monitor_digests", endpoint: "GET /monitors/{monitor_id}/digests", hint: "The monitor's weekly e-mail digests (alerts.digest \"weekly\"), each with its status: sent, logged (no SMTP on the server), not_sent with its reason, failed." },
  {
    name: "test_monitor_webhook",
    endpoint: "POST /monitors/{monitor_id}/alerts/test",
    hint: "Free. The ping's delivery is pending in this answer; list_monitor_alerts shows how it went a few seconds later.",
  },
  { name: "generate_questions", endpoint: "POST /questions", cost: "questions", hint: "Returns at once with the analysis queued; then call wait_for_analysis with its id." },
  { name: "analyze_citations", endpoint: "POST /citation-analyses", cost: "citations" },
  {
    name: "analyze_visibility",
    endpoint: "POST /visibility-analyses",
    hint:
      "Free without judge: computed from stored answers, no model is called. Without entities, the project's brands and competitors (with their aliases and domains). get_analysis reads it again; list_mentions pages the evidence of each figure. With judge {engine, sentiment, discover}: returns at once with the analysis queued and credit held per run (see get_pricing, product judge); then call wait_for_analysis with its id for sentiment per entity (with verified quotes), discovered competitors and the judge's agreement with the rules.",
  },
  {
    name: "get_visibility_analysis",
    endpoint: "GET /analyses/{analysis_id}",
    hint: "For a va_… id: summary (plain-words sentences to read first), then per entity visibility, share of voice, average position, top-1/top-3 rates, prominence and cited rate, each with its n and 95% interval, overall and by engine, prompt and country.",
  },
  {
    name: "compare_engines",
    endpoint: "POST /comparison-analyses",
    hint:
      "Free: computed from stored answers. Give the fanout (or batch, run) ids and the two engines, `a` (the baseline) and `b` (e.g. chatgpt and chatgpt_app: the API against the app people use). Answers summary first, then per entity each engine's visibility with n and 95% interval and the difference b - a with its interval and significant; cited-domain overlap (Jaccard) and the domains only one engine cites; the share of a's searches b also ran; the order of brands (rank-biased overlap); by_prompt. Prompts only one engine answered are listed in excluded_prompts. get_analysis reads it again.",
  },
  {
    name: "find_opportunities",
    endpoint: "POST /opportunity-analyses",
    hint: "Free, no model: from a va_… visibility analysis, the prompts competitors win beyond chance (with the difference's 95% interval), the pages cited where a competitor is named and the brand is not, the brand's own pages cited (and how often without its name), and the searches engines ran on lost prompts; every row with its n and evidence run ids. Read summary first. get_analysis reads it again.",
  },
  { name: "list_mentions", endpoint: "GET /analyses/{analysis_id}/mentions", hint: "format=csv answers every matching mention as CSV text instead of a page." },
  { name: "wait_for_analysis", endpoint: "GET /analyses/{analysis_id}", waitsOn: "status" },
  { name: "get_analysis", endpoint: "GET /analyses/{analysis_id}" },
  { name: "list_analyses", endpoint: "GET /analyses" },
  { name: "audit_page", endpoint: "POST /audits", cost: "audit", hint: "Returns at once with the audit run queued; then call wait_for_run with its id." },
  // share_run, get_run_share, rotate_run_share, unshare_run; the same for every kind that can be shared.
  ...SHARE_KIND_NAMES.flatMap((kind): ToolSpec[] => {
    const e = SHARE_ENDPOINTS[kind];
    const at = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;
    return [
      { name: `share_${kind}`, endpoint: at(e.create) },
      { name: `get_${kind}_share`, endpoint: at(e.get) },
      { name: `rotate_${kind}_share`, endpoint: at(e.rotate) },
      { name: `unshare_${kind}`, endpoint: at(e.revoke) },
    ];
  }),
];

/** How long a waiting tool waits by default: under the 60 s an MCP client commonly allows one call. */
export const DEFAULT_WAIT_SECONDS = 50;
export const MAX_WAIT_SECONDS = 600;

export const timeoutSeconds = z
  .int()
  .min(1)
  .max(MAX_WAIT_SECONDS)
  .default(DEFAULT_WAIT_SECONDS)
  .describe(
    `How long to wait, 1 to ${MAX_WAIT_SECONDS} seconds (default ${DEFAULT_WAIT_SECONDS}). If the object is still unfinished then, it is returned as it is; call again to keep waiting.`,
  );

export type Tool = ToolSpec & {
  definition: EndpointDefinition;
  /** The arguments: path parameters, query and body fields side by side (a waiting tool: the path parameters and timeout_seconds). */
  input: z.ZodObject;
  inputJsonSchema: Record<string, unknown>;
  /** Where each argument goes. */
  placement: Map<string, "params" | "query" | "body">;
};

/** The keys of an object schema, or none. */
function keysOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * Every `engines` argument (a list of engine ids the API checks against the enabled ones) with
 * the engine ids as its items' enum, so a client offers and checks them as it does `engine`.
 */
export function withEngineEnum(schema: Record<string, unknown>): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== "object") return node;
    const record = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, walk(v)]));
    const properties = record.properties as Record<string, Record<string, unknown>> | undefined;
    const engines = properties?.engines;
    const items = engines?.items as Record<string, unknown> | undefined;
    if (engines?.type === "array" && items?.type === "string" && items.enum === undefined) {
      record.properties = { ...properties, engines: { ...engines, items: { ...items, enum: [...ENGINE_IDS] } } };
    }
    return record;
  };
  return walk(schema) as Record<string, unknown>;
}

/** JSON Schema with every `$ref` to `$defs` replaced by its definition: MCP clients and the models behind them read flat schemas best. */
export function inlineRefs(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const walk = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, depth));
    if (!node || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    const ref = typeof record.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(record.$ref)?.[1] : undefined;
    if (ref !== undefined && depth < 20) {
      const { $ref: _, ...rest } = record;
      return walk({ ...(defs[ref] as object), ...rest }, depth + 1);
    }
    return Object.fromEntries(Object.entries(record).filter(([k]) => k !== "$defs").map(([k, v]) => [k, walk(v, depth)]));
  };
  return walk(schema, 0) as Record<string, unknown>;
}

/** One tool from its line and its endpoint: the merged input schema and where each argument goes. */
export function buildTool(spec: ToolSpec, definition: EndpointDefinition): Tool {
  const placement = new Map<string, "params" | "query" | "body">();
  const shape: Record<string, z.ZodType> = {};
  const add = (where: "params" | "query" | "body", schema: z.ZodType | undefined) => {
    if (!(schema instanceof z.ZodObject)) return;
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      if (placement.has(key)) throw new Error(`tool ${spec.name}: argument ${key} is both ${placement.get(key)} and ${where} of ${spec.endpoint}`);
      placement.set(key, where);
      shape[key] = field;
    }
  };
  add("params", definition.params);
  if (spec.waitsOn) {
    if (!keysOf(definition.query).includes("wait")) throw new Error(`tool ${spec.name}: ${spec.endpoint} takes no wait`);
    shape.timeout_seconds = timeoutSeconds;
  } else {
    add("query", definition.query);
    if (definition.body && !(definition.body instanceof z.ZodObject)) throw new Error(`tool ${spec.name}: the body of ${spec.endpoint} is not an object`);
    add("body", definition.body);
  }
  const input = z.strictObject(shape);
  return { ...spec, definition, input, placement, inputJsonSchema: withEngineEnum(inlineRefs(z.toJSONSchema(input, { io: "input" }) as Record<string, unknown>)) };
}

/** The tools whose endpoints the registry has, in the table's order. */
export function buildTools(endpoints: readonly EndpointDefinition[], specs: readonly ToolSpec[] = TOOLS): Tool[] {
  const byKey = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
  return specs.flatMap((spec) => {
    const definition = byKey.get(spec.endpoint);
    return definition ? [buildTool(spec, definition)] : [];
  });
}

/** Splits a tool call's arguments into the path parameters, query and body of its endpoint. */
export function splitArguments(tool: Tool, args: Record<string, unknown>) {
  const parts = { params: {} as Record<string, unknown>, query: {} as Record<string, unknown>, body: {} as Record<string, unknown> };
  for (const [key, value] of Object.entries(args)) {
    // An argument the endpoint does not know goes where the API will name it in its refusal.
    const where = tool.placement.get(key) ?? (tool.definition.body ? "body" : "query");
    parts[where][key] = value;
  }
  return { params: parts.params, query: parts.query, body: tool.definition.body ? parts.body : undefined };
}
