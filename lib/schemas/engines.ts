// The answer engines as a reader must know them (decisions.md "Engines, wave 4"): what each is
// called, whether it is a model's API or what people see in a consumer app, whose it is and what
// a market reaches. One table read by GET /engines, the CLI, MCP and every engine label in the
// browser, so a figure never leaves without saying whether an API or an app gave it. The server
// side of each row (its adapter, model or endpoint, price) is lib/engines/table.ts.
import { z } from "zod";
import { defineEndpoint } from "./endpoint";
import { ENGINE_IDS, EngineId } from "./common";

export const ENGINE_SURFACES = ["api", "app"] as const;
export const ENGINE_VENDORS = ["openai", "anthropic", "google", "perplexity", "dataforseo"] as const;

export type EngineFacts = {
  /** The product's own name; `label` adds the surface. */
  name: string;
  surface: (typeof ENGINE_SURFACES)[number];
  /** Who geoscope calls: the model's maker, or the capture vendor for an app. */
  vendor: (typeof ENGINE_VENDORS)[number];
  /** What a run's market can reach: a location and a language parameter of the vendor's. */
  locale: { location: boolean; language: boolean };
  /** Whether the engine tells which searches it ran (their queries); Perplexity's depends on its model (lib/engines/table.ts). */
  reports_queries: boolean;
};

export const ENGINE_FACTS: Record<(typeof ENGINE_IDS)[number], EngineFacts> = {
  chatgpt: { name: "ChatGPT", surface: "api", vendor: "openai", locale: { location: true, language: false }, reports_queries: true },
  claude: { name: "Claude", surface: "api", vendor: "anthropic", locale: { location: true, language: false }, reports_queries: true },
  gemini: { name: "Gemini", surface: "api", vendor: "google", locale: { location: true, language: true }, reports_queries: true },
  perplexity: { name: "Perplexity", surface: "api", vendor: "perplexity", locale: { location: true, language: false }, reports_queries: false },
  chatgpt_app: { name: "ChatGPT", surface: "app", vendor: "dataforseo", locale: { location: true, language: true }, reports_queries: true },
  gemini_app: { name: "Gemini", surface: "app", vendor: "dataforseo", locale: { location: true, language: true }, reports_queries: false },
  google_ai_overview: { name: "Google AI Overview", surface: "app", vendor: "dataforseo", locale: { location: true, language: true }, reports_queries: false },
  google_ai_mode: { name: "Google AI Mode", surface: "app", vendor: "dataforseo", locale: { location: true, language: true }, reports_queries: false },
};

/**
 * What pages, the CLI and CSV call an engine: its name and surface, "ChatGPT (API)", "ChatGPT
 * (app)". An id the table does not know (a stored run of an engine since removed) is shown as is.
 */
export function engineLabel(engine: string): string {
  const facts = (ENGINE_FACTS as Record<string, EngineFacts | undefined>)[engine];
  return facts ? `${facts.name} (${facts.surface === "api" ? "API" : "app"})` : engine;
}

/** Whether the engine tells which searches it ran; where it does not, no query shown is no sign of no search. */
export function reportsQueries(engine: string): boolean {
  return (ENGINE_FACTS as Record<string, EngineFacts | undefined>)[engine]?.reports_queries !== false;
}

/**
 * Whether the engine may show nothing at all for a query: Google shows an AI Overview (or an AI
 * Mode answer) for some searches only; every other engine answers every time. Fanouts give these
 * engines' `shown` rate (decisions.md "Engines, wave 4").
 */
export function mayShowNothing(engine: string): boolean {
  return engine === "google_ai_overview" || engine === "google_ai_mode";
}

export const EngineSurface = z.enum(ENGINE_SURFACES).meta({
  id: "EngineSurface",
  description: "`api`: a model's API with its web search, as a developer calls it. `app`: what a signed-out person sees in the consumer product (ChatGPT, Gemini, Google Search), captured by a vendor.",
});

export const EngineVendor = z.enum(ENGINE_VENDORS).meta({ id: "EngineVendor", description: "Whom geoscope calls for the engine: the model's maker, or `dataforseo`, which captures the consumer apps." });

export const Engine = z
  .object({
    id: EngineId,
    name: z.string().describe("The product's name."),
    label: z.string().describe("The name with its surface, as pages and the CLI show it: `ChatGPT (API)`, `ChatGPT (app)`."),
    surface: EngineSurface,
    vendor: EngineVendor,
    enabled: z.boolean().describe("Whether this server can run it (its vendor's credentials are set, or the server is simulated). A request naming a disabled engine is 400."),
    model: z
      .string()
      .describe("The model a run asks for (`OPENAI_MODEL` and the like), or for an app the capture vendor's endpoint; a run records the model the vendor reported."),
    locale: z
      .object({
        location: z.boolean().describe("A run's `location` reaches the engine, in the vendor's own parameter."),
        language: z.boolean().describe("A run's `language` reaches the engine."),
      })
      .describe("What a market can reach; each run's `result.locale_applied` says what its request carried."),
    reports_queries: z.boolean().describe("Whether the engine tells which searches it ran (a run's `searches`); where it does not, `searches` is empty."),
  })
  .meta({
    id: "Engine",
    examples: [
      {
        id: "chatgpt_app",
        name: "ChatGPT",
        label: "ChatGPT (app)",
        surface: "app",
        vendor: "dataforseo",
        enabled: true,
        model: "ai_optimization/chat_gpt/llm_scraper/live/advanced",
        locale: { location: true, language: true },
        reports_queries: true,
      },
    ],
  });

export const EngineList = z
  .object({ items: z.array(Engine).describe("Every engine geoscope knows, enabled or not, in the order every list shows them.") })
  .meta({
    id: "EngineList",
    examples: [
      {
        items: [
          { id: "chatgpt", name: "ChatGPT", label: "ChatGPT (API)", surface: "api", vendor: "openai", enabled: true, model: "gpt-5.4", locale: { location: true, language: false }, reports_queries: true },
          {
            id: "google_ai_overview",
            name: "Google AI Overview",
            label: "Google AI Overview (app)",
            surface: "app",
            vendor: "dataforseo",
            enabled: false,
            model: "serp/google/organic/live/advanced",
            locale: { location: true, language: true },
            reports_queries: false,
          },
        ],
      },
    ],
  });

export const listEngines = defineEndpoint({
  method: "GET",
  path: "/engines",
  operationId: "listEngines",
  summary: "The answer engines and which are enabled",
  description:
    "Every engine id with its name, surface (`api` or `app`), vendor, whether this server can run it, the model or endpoint it asks, what a market reaches and whether it reports its searches. `engines` omitted in a request means every enabled one. Needs no credential.",
  tags: ["Service"],
  auth: "none",
  response: EngineList,
  status: 200,
});
