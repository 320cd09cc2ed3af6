// The OpenAPI 3.1 document, generated from the endpoint registry and the zod schemas, so the
// description cannot drift from what the server enforces.
import { z } from "zod";
import { ErrorBody, NO_NUL_PATTERN, idSchemas } from "../schemas/common";
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
  // Any operation refuses a query parameter it does not take (those without parameters, any).
  codes.add("invalid_request");
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
}

/**
 * Every string schema that states no pattern, enum, const or format gets NO_NUL_PATTERN, in
 * place: the server refuses NUL in any request string (info.description, "Text in requests"), and
 * a client generating requests from the document must not send one. Responses never hold one
 * (PostgreSQL stores none), so a schema both sides share says it truly for both.
 */
function refuseNul(schema: unknown): void {
  if (Array.isArray(schema)) for (const item of schema) refuseNul(item);
  else if (schema && typeof schema === "object") {
    const object = schema as Record<string, unknown>;
    const types = Array.isArray(object.type) ? object.type : [object.type];
    if (types.includes("string") && !("pattern" in object) && !("enum" in object) && !("const" in object) && !("format" in object)) object.pattern = NO_NUL_PATTERN;
    for (const [key, value] of Object.entries(object)) if (key !== "examples" && key !== "example" && key !== "default") refuseNul(value);
  }
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

/** Every component id a schema refers to, directly. */
function refsOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, into);
  else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENTS)) into.add(value.slice(COMPONENTS.length));
      else refsOf(value, into);
    }
  }
  return into;
}

/** The ids `roots` refer to, and those they refer to, through `schemas`. */
function closure(roots: unknown[], schemas: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const queue = [...refsOf(roots)];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...refsOf(schemas[id]));
  }
  return seen;
}

/** Points every `$ref` to a renamed component at its new name, in place. */
function renameRefs(schema: unknown, renamed: ReadonlyMap<string, string>): void {
  if (Array.isArray(schema)) for (const item of schema) renameRefs(item, renamed);
  else if (schema && typeof schema === "object") {
    const object = schema as Record<string, unknown>;
    for (const [key, value] of Object.entries(object)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENTS)) {
        const to = renamed.get(value.slice(COMPONENTS.length));
        if (to) object[key] = `${COMPONENTS}${to}`;
      } else renameRefs(value, renamed);
    }
  }
}

/** Tags, in the order the document lists them, each with what its operations are for. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Service: "The server itself: its minimum CLI version, the answer engines it runs, the rate card, this document and its explorer. No credential needed.",
  Accounts: "Who the credential belongs to and where it can act.",
  "API keys": "Keys for servers, CI and agents: each acts in one workspace and spends its credit. The secret is shown once.",
  "CLI login": "Device login for the geoscope CLI (RFC 8628): start, approve in the browser, poll for the token; logout.",
  Runs: "Prompt runs on the answer engines (a batch per prompt), page audits, and reading runs and batches back, waiting for them to finish.",
  Fanouts: "Every prompt of a set on every engine, repeated, with the web searches each engine ran: estimate, start, read and tally.",
  Monitors:
    "The same prompts re-run every day or week, exactly once per slot however many servers run: each run of them a tick, a fanout made as POST /fanouts makes one, skipped when credit or the monthly budget cannot pay it.",
  Analyses:
    "Questions people ask about a topic (generated by an engine), and citation and visibility analyses of finished runs (computed from stored results), with the mentions behind a visibility analysis's figures.",
  Sharing: "One public, read-only link per finished run, analysis, fanout or prompt batch, and per monitor (a live dashboard of its series, shared at any time), which can be rotated or revoked; the page and its .json leave out what identifies or bills the workspace (a monitor's also its budget, spend and alert settings).",
  Billing: "Prepaid USD credit per workspace: the balance with what is held, the ledger and usage by day.",
  Workspaces: "Personal and team workspaces, their members and invitations.",
  Projects: "Projects group work within a workspace and carry its context: domains, brands and competitors.",
};

export function buildOpenApiDocument(options: { serverUrl: string; endpoints?: readonly EndpointDefinition[] }) {
  const endpoints = options.endpoints ?? registeredEndpoints;
  const uri = (id: string) => `${COMPONENTS}${id}`;
  const named = namedSchemas();
  // Every named schema twice: as a request gives it (defaults optional, before transforms) and as
  // a response carries it. Schemas met only inside unnamed ones are added as the conversion finds them.
  const inputs: Record<string, JsonSchema> = {};
  const outputs: Record<string, JsonSchema> = {};
  const found = { input: inputs, output: outputs };
  const convert = (schema: z.ZodType, io: "input" | "output") => schemaFor(schema, io, found[io]);
  for (const [id, schema] of Object.entries(z.toJSONSchema(named, { uri, io: "output", unrepresentable: "any" }).schemas)) outputs[id] = stripDialect(schema as JsonSchema);
  for (const [id, schema] of Object.entries(z.toJSONSchema(named, { uri, io: "input", unrepresentable: "any" }).schemas)) inputs[id] = stripDialect(schema as JsonSchema);

  const requestSide: unknown[] = [];
  const responseSide: unknown[] = [];
  const usedCodes = new Set<ErrorCode>();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const success = endpoint.response ? convert(endpoint.response, "output") : undefined;
    if (success) responseSide.push(success);
    const alternative = endpoint.alternative ? { [endpoint.alternative.mediaType]: { schema: { type: "string", description: endpoint.alternative.description } } } : {};
    const responses: Record<string, unknown> = {
      [endpoint.status]: success
        ? { description: endpoint.alternative ? `Success: JSON, or ${endpoint.alternative.mediaType} as the query asks.` : "Success", content: { "application/json": { schema: success }, ...alternative } }
        : { description: "Done; no body." },
    };
    if (endpoint.otherStatus && success) {
      responses[endpoint.otherStatus.status] = { description: endpoint.otherStatus.description, content: { "application/json": { schema: success } } };
    }
    for (const code of errorCodesOf(endpoint)) {
      usedCodes.add(code);
      responses[String(ERROR_STATUS[code])] = { $ref: `#/components/responses/${code}` };
    }
    const parameters = parametersOf(endpoint, inputs);
    const body = endpoint.body ? convert(endpoint.body, "input") : undefined;
    requestSide.push(parameters, body);
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      tags: endpoint.tags,
      security: endpoint.auth === "bearer" ? [{ bearer: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: { required: true, content: { "application/json": { schema: body } } } } : {}),
      responses,
    };
  }
  const errorRef = convert(ErrorBody, "output");
  responseSide.push(errorRef);

  // A schema both sides use whose request form differs (a default is optional in a request and
  // always there in a response), or that refers to such a one, is two components: `<id>Input` for
  // requests. The others are one. Only what some operation uses is listed.
  const requestIds = closure(requestSide, inputs);
  const responseIds = closure(responseSide, outputs);
  const both = [...requestIds].filter((id) => responseIds.has(id));
  const split = new Set(both.filter((id) => JSON.stringify(inputs[id]) !== JSON.stringify(outputs[id])));
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of both) {
      if (!split.has(id) && [...refsOf(inputs[id])].some((ref) => split.has(ref))) {
        split.add(id);
        grew = true;
      }
    }
  }
  const renamed = new Map([...split].map((id) => [id, `${id}Input`]));
  const components: Record<string, JsonSchema> = {};
  for (const id of responseIds) components[id] = outputs[id]!;
  for (const id of requestIds) {
    if (responseIds.has(id) && !split.has(id)) continue;
    const schema = structuredClone(inputs[id]!);
    renameRefs(schema, renamed);
    components[renamed.get(id) ?? id] = schema;
  }
  renameRefs(requestSide, renamed);
  for (const id of requestIds) refuseNul(components[renamed.get(id) ?? id]);
  refuseNul(requestSide);

  const tags = [...new Set(endpoints.flatMap((e) => e.tags))];
  return {
    openapi: "3.1.0",
    info: {
      title: "geoscope research API",
      version: "1",
      description: INFO_DESCRIPTION,
      // This server's own pages: its account page is where a person reaches its operators.
      contact: { name: "This geoscope server", url: `${options.serverUrl.replace(/\/api\/v1\/?$/, "")}/account` },
      // Not open source (package.json: private); an SPDX reference to no public license.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
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
      // Only the errors some operation answers; 405 and 502 are described in info.description.
      responses: Object.fromEntries(
        (Object.keys(ERROR_STATUS) as ErrorCode[])
          .filter((code) => usedCodes.has(code))
          .map((code) => [code, { description: `${code}: ${ERROR_DESCRIPTIONS[code]}`, content: { "application/json": { schema: errorRef } } }]),
      ),
    },
  };
}

const INFO_DESCRIPTION = [
  "What answer engines (ChatGPT, Claude, Gemini) say about a topic, which pages they cite and which web searches they run.",
  "",
  "**Errors.** Every non-2xx response is an `Error` envelope whose `code` names what happened; a client treats an unknown code as its HTTP status. " +
    "A path that exists answers a method it does not serve with 405 `method_not_allowed` and an `Allow` header (TRACE included); a path that does not exist answers 404 `not_found`. " +
    "An engine failing inside work fails that run (its `error` says which engine), not the request: no operation answers 502 `engine_error` today.",
  "",
  "**Text in requests.** A string anywhere in a request (body, field names too, query, path) that holds NUL (U+0000) or an unpaired UTF-16 surrogate is refused with 400 `invalid_request` naming the field; nothing is stored altered. " +
    "A body whose bytes are not UTF-8 is 400. Required text (a prompt, a topic, names, brands) is trimmed of leading and trailing whitespace and stored trimmed; whitespace only is refused. " +
    "Lengths count Unicode code points, as `minLength` and `maxLength` do. Unknown fields are refused at every depth.",
  "",
  "**Money** is a decimal string in USD, never a number.",
  "",
  "**Versions.** A geoscope CLI names its version in `User-Agent` as `geoscope-cli/<version>`; one older than `min_cli_version` of `GET /version` gets 426 `cli_outdated`.",
].join("\n");
