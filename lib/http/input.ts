// Reading a request's path parameters, query and JSON body, and turning zod's complaints into
// one 400 message that names each field and its rule ("prompt: must be 1 to 4000 characters").
import type { z } from "zod";
import type { core } from "zod";
import { ApiError, notFound } from "./errors";

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
};

/** Default wording for zod's issues; a message a schema sets itself always wins over this. */
export const issueWording: core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small": {
      const n = Number(issue.minimum);
      if (issue.origin === "string") return `must be at least ${n} character${n === 1 ? "" : "s"}`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at least ${n} item${n === 1 ? "" : "s"}`;
      return issue.inclusive ? `must be at least ${n}` : `must be greater than ${n}`;
    }
    case "too_big": {
      const n = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${n} character${n === 1 ? "" : "s"}`;
      if (issue.origin === "array" || issue.origin === "set") return `must have at most ${n} item${n === 1 ? "" : "s"}`;
      return issue.inclusive ? `must be at most ${n}` : `must be less than ${n}`;
    }
    case "invalid_format":
      return issue.format === "regex" ? "has the wrong format" : `must be a valid ${issue.format}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    case "invalid_union":
      return "does not match any allowed shape";
    default:
      return undefined;
  }
};

function pathOf(path: PropertyKey[], where: string): string {
  if (path.length === 0) return where;
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

export function describeZodError(error: z.ZodError, where: string): string {
  return error.issues.map((issue) => `${pathOf(issue.path, where)}: ${issue.message}`).join("; ");
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value, { error: issueWording });
  if (!result.success) throw new ApiError("invalid_request", describeZodError(result.error, where));
  return result.data;
}

const PARAM_KINDS: Record<string, string> = {
  run_id: "run",
  batch_id: "batch",
  fanout_id: "fanout",
  analysis_id: "analysis",
  project_id: "project",
  workspace_id: "workspace",
  member_id: "member",
  invitation_id: "invitation",
  key_id: "API key",
};

/** What a path parameter names, for the 404 message (`object_id` is a run or an analysis by its path). */
export function kindOfParam(param: string, path = ""): string {
  if (param === "object_id") return path.startsWith("/analyses") ? "analysis" : "run";
  return PARAM_KINDS[param] ?? "object";
}

/**
 * A malformed id in the path is a missing object: 404 with the same message a well-formed
 * missing id gets, never 400 or 500.
 */
export function parseParams<S extends z.ZodObject>(
  schema: S,
  params: Record<string, string | string[]>,
  path?: string,
): z.output<S> {
  const result = schema.safeParse(params);
  if (!result.success) {
    const param = String(result.error.issues[0]?.path[0] ?? "");
    const value = params[param];
    throw notFound(kindOfParam(param, path), Array.isArray(value) ? value.join("/") : value);
  }
  return result.data;
}

/**
 * The query string against the endpoint's query schema (none: it takes no parameters). An
 * unknown parameter is refused like an unknown body field, so a misspelt or unsupported filter
 * is never silently ignored.
 */
export function parseQuery<S extends z.ZodObject>(schema: S | undefined, url: URL): z.output<S> {
  const known = schema ? Object.keys(schema.shape) : [];
  const raw: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (!known.includes(key)) {
      const takes = known.length === 0 ? "this endpoint takes no query parameters" : `this endpoint takes ${known.join(", ")}`;
      throw new ApiError("invalid_request", `query: unknown parameter ${JSON.stringify(key)} (${takes})`);
    }
    const values = url.searchParams.getAll(key);
    if (values.length > 1) throw new ApiError("invalid_request", `${key}: must be given at most once`);
    raw[key] = values[0]!;
  }
  return schema ? parseOrThrow(schema, raw, "query") : ({} as z.output<S>);
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** Reads at most `maxBytes` of body, whatever Content-Length claims, and parses it as JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () =>
    new ApiError("invalid_request", `request body: must be at most ${formatBytes(maxBytes)}`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  // An empty body reads as an empty object, so the message names the missing fields.
  if (size === 0) return {};

  const contentType = request.headers.get("content-type") ?? "";
  if (!JSON_TYPE.test(contentType)) {
    throw new ApiError(
      "invalid_request",
      `request body: Content-Type must be application/json (got ${contentType ? JSON.stringify(contentType) : "none"})`,
    );
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "unreadable";
    throw new ApiError("invalid_request", `request body: is not valid JSON (${detail})`);
  }
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseOrThrow(schema, body, "request body");
}

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
