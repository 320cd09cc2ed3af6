// The OpenAPI 3.1 document, generated from the endpoint registry and the zod schemas, so the
// description cannot drift from what the server enforces.
import { z } from "zod";
import { ErrorBody, idSchemas } from "../schemas/common";
import type { EndpointDefinition } from "../schemas/endpoint";
import { endpoints as registeredEndpoints, schemaModules } from "../schemas/registry";
import { ERROR_STATUS, type ErrorCode } from "./errors";

type JsonSchema = Record<string, unknown>;
const COMPONENTS = "#/components/schemas/";

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request: "Malformed request, or one that asks for something impossible. The message names the field and the rule.",
  unauthenticated: "No credential, or a revoked, expired or unknown one.",
  insufficient_credit: "Available credit does not cover the request; nothing was created.",
  permission_denied: "The caller is in the workspace, but the action is admin-only.",
  not_found: "No such object, or not the caller's (the two are indistinguishable).",
  method_not_allowed: "The path exists but does not accept this method (see the Allow header).",
  conflict: "The object is not in a state that allows this.",
  cli_outdated: "The geoscope CLI named in User-Agent is older than this server's minimum; nothing was run or charged.",
  rate_limited: "Too many runs queued or running at once for the account.",
  internal_error: "The service failed; the message carries a request id for support.",
  engine_error: "An answer engine failed; `engine` says which.",
};

type AnySchema = z.core.$ZodType;

/**
 * Whether `schema` holds an id (an idOf schema, or one derived from it by describe/meta, under
 * optional, nullable, default, a list, an object or a union): a request naming an object the
 * caller cannot reach answers 404, as reading it would.
 */
export function namesObject(schema: AnySchema | undefined, seen = new Set<AnySchema>()): boolean {
  if (!schema || seen.has(schema)) return false;
  seen.add(schema);
  for (let s: AnySchema | undefined = schema; s; s = s._zod.parent) if (idSchemas.has(s)) return true;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string) => namesObject(def[key] as AnySchema | undefined, seen);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return inner("innerType");
    case "pipe":
      return inner("in") || inner("out");
    case "array":
      return inner("element");
    case "object":
      return Object.values(def.shape as Record<string, AnySchema>).some((field) => namesObject(field, seen));
    case "union":
      return (def.options as AnySchema[]).some((option) => namesObject(option, seen));
    default:
      return false;
  }
}

/** Codes every operation can answer, besides its own. */
function errorCodesOf(endpoint: EndpointDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(["internal_error"]);
  if (endpoint.cliVersionGate !== false) codes.add("cli_outdated");
  if (endpoint.auth === "bearer") codes.add("unauthenticated");
  // An id in the path, the query (`project`, `workspace`, `batch`…) or the body (`project`,
  // `workspace_id`) names an object: one the caller cannot reach is 404.
  if (endpoint.params || namesObject(endpoint.query) || namesObject(endpoint.body)) codes.add("not_found");
  if (endpoint.body || endpoint.query) codes.add("invalid_request");
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
}

function stripDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** Converts an unnamed schema; named schemas inside it become references to components. */
function inlineSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [name, def] of Object.entries(defs)) components[name] ??= def;
  const { $defs: _defs, ...rest } = stripDialect(converted);
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as JsonSchema;
}

function schemaFor(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `${COMPONENTS}${id}` } : inlineSchema(schema, io, components);
}

function parametersOf(endpoint: EndpointDefinition, components: Record<string, JsonSchema>): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, object] of [["path", endpoint.params], ["query", endpoint.query]] as const) {
    if (!object) continue;
    for (const [name, field] of Object.entries(object.shape)) {
      const schema = inlineSchema(field as z.ZodType, "input", components);
      const description = (field as z.ZodType).description;
      out.push({
        name,
        in: where,
        required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema,
      });
    }
  }
  return out;
}

/**
 * The named schemas (those with a metadata `id`) of this copy of lib/schemas, from the modules
 * the registry lists. Not z.globalRegistry itself: a Next.js server loads lib/schemas more than
 * once (route bundles can have their own copies), each copy registers its schemas there under the
 * same ids, and converting the global registry then fails with "Duplicate schema id".
 */
function namedSchemas(): z.core.$ZodRegistry<z.core.GlobalMeta> {
  const registry = z.registry<z.core.GlobalMeta>();
  for (const module of schemaModules) {
    for (const value of Object.values(module)) {
      if (!(value instanceof z.ZodType)) continue;
      const meta = z.globalRegistry.get(value);
      if (meta?.id) registry.add(value, meta);
    }
  }
  return registry;
}

export function buildOpenApiDocument(options: { serverUrl: string; endpoints?: readonly EndpointDefinition[] }) {
  const endpoints = options.endpoints ?? registeredEndpoints;
  const uri = (id: string) => `${COMPONENTS}${id}`;
  const named = namedSchemas();
  const output = z.toJSONSchema(named, { uri, io: "output", unrepresentable: "any" }).schemas;
  const input = z.toJSONSchema(named, { uri, io: "input", unrepresentable: "any" }).schemas;
  const requestIds = new Set(
    endpoints.map((e) => (e.body ? z.globalRegistry.get(e.body)?.id : undefined)).filter((id): id is string => !!id),
  );
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(output)) {
    components[id] = stripDialect((requestIds.has(id) ? input[id] : schema) as JsonSchema);
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const responses: Record<string, unknown> = {
      [endpoint.status]: endpoint.response
        ? { description: "Success", content: { "application/json": { schema: schemaFor(endpoint.response, "output", components) } } }
        : { description: "Done; no body." },
    };
    for (const code of errorCodesOf(endpoint)) {
      responses[String(ERROR_STATUS[code])] = { $ref: `#/components/responses/${code}` };
    }
    const parameters = parametersOf(endpoint, components);
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      tags: endpoint.tags,
      security: endpoint.auth === "bearer" ? [{ bearer: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(endpoint.body
        ? { requestBody: { required: true, content: { "application/json": { schema: schemaFor(endpoint.body, "input", components) } } } }
        : {}),
      responses,
    };
  }

  const errorRef = schemaFor(ErrorBody, "output", components);
  return {
    openapi: "3.1.0",
    info: {
      title: "geoscope research API",
      version: "1",
      description:
        "What answer engines (ChatGPT, Claude, Gemini) say about a topic, which pages they cite and which web searches they run. " +
        "Every non-2xx response is an Error envelope. Money is a decimal string in USD, never a number. " +
        "A geoscope CLI names its version in `User-Agent` as `geoscope-cli/<version>`; one older than `min_cli_version` of `GET /version` gets 426 `cli_outdated`.",
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set(endpoints.flatMap((e) => e.tags))].map((name) => ({ name })),
    paths,
    components: {
      // By name, so the document does not change when a schema moves between files.
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key (gsk_…, acts in the one workspace it was made for) or a CLI token (gsc_…, reaches all the person's workspaces).",
        },
      },
      responses: Object.fromEntries(
        (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => [
          code,
          { description: `${code}: ${ERROR_DESCRIPTIONS[code]}`, content: { "application/json": { schema: errorRef } } },
        ]),
      ),
    },
  };
}
