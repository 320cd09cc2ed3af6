// Reading a request's path parameters, query and JSON body, and turning zod's complaints into
// one 400 message that names each field and its rule ("prompt: must be 1 to 4000 characters").
import type { z } from "zod";
import type { core } from "zod";
import { cityElsewhere } from "../locale/places";
import { useCityCheck } from "../schemas/locale";
import { ApiError, notFound } from "./errors";

// Every request the server parses checks a location's city against the place data (decisions.md
// "The contract and operating it"); the schemas themselves carry no data.
useCityCheck(cityElsewhere);

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
    case "invalid_value": {
      // Naming what was sent too (an unknown engine is named, as docs/decisions.md wants).
      const given = typeof issue.input === "string" && issue.input.length <= 100 ? ` (got ${JSON.stringify(issue.input)})` : "";
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${given}`;
    }
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

/** Each field's complaints, each said once: a value failing two checks that word their rule alike (a pattern and a range, both "must be an amount in USD …") is one complaint. */
export function describeZodError(error: z.ZodError, where: string): string {
  return [...new Set(error.issues.map((issue) => `${pathOf(issue.path, where)}: ${issue.message}`))].join("; ");
}

// NUL, or half of a surrogate pair: PostgreSQL stores neither (NUL is refused in text and JSON,
// a lone surrogate in JSON), and a driver would silently turn a lone surrogate into U+FFFD. In
// /u mode a well-formed pair is one code point, so \p{Cs} matches only an unpaired half.
const UNSTORABLE = /\u0000|\p{Cs}/u;
const MAX_REPORTED = 10;

function unstorableRule(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return found[0] === "\u0000" ? "must not contain NUL (U+0000)" : "must not contain an unpaired surrogate (half of a UTF-16 pair)";
}

const PROTO = "__proto__";

/**
 * Every string of `value` (field names too) that no stored text may hold, and every field named
 * "__proto__" (which a map parsed from it would drop), as "field: rule", up to ten. Walked with a
 * stack, not recursion: a 1 MiB body can nest half a million levels deep.
 */
export function unstorableStrings(value: unknown, where: string): string[] {
  // Each entry points at its parent, so the path is spelt out only for what is reported.
  type Item = { value: unknown; key: PropertyKey | null; parent: Item | null };
  const pathTo = (item: Item | null): string => {
    const path: PropertyKey[] = [];
    for (let at = item; at !== null && at.key !== null; at = at.parent) path.push(at.key);
    const shown = pathOf(path.reverse(), where);
    return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
  };
  const problems: string[] = [];
  const stack: Item[] = [{ value, key: null, parent: null }];
  while (stack.length > 0 && problems.length < MAX_REPORTED) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === "string") {
      const rule = unstorableRule(current);
      if (rule) problems.push(`${pathTo(item)}: ${rule}`);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: item });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (key === PROTO) {
          // JSON.parse keeps it as a field, but any object built from it (a parsed map) would drop it unseen.
          problems.push(`${pathTo({ value: child, key, parent: item })}: "__proto__" may not name a field (it would be dropped, not stored)`);
          continue;
        }
        const rule = unstorableRule(key);
        if (rule) problems.push(`${pathTo(item)}: field names ${rule}`);
        else stack.push({ value: child, key, parent: item });
      }
    }
  }
  return problems;
}

/**
 * What every request input goes through: strings no stored text may hold are refused first
 * (400 naming each field), then the schema decides, its complaints worded by issueWording.
 * `where` names the input when a complaint is about the whole of it ("request body", "form").
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const unstorable = unstorableStrings(value, where);
  if (unstorable.length > 0) throw new ApiError("invalid_request", unstorable.join("; "));
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
  token_id: "CLI login",
};

/** What a path parameter names, for the 404 message (`object_id` is a run or an analysis by its path). */
export function kindOfParam(param: string, path = ""): string {
  if (param === "object_id") return path.startsWith("/analyses") ? "analysis" : "run";
  // Only a visibility analysis has mentions: another kind's id names no object of the path's kind.
  if (param === "analysis_id" && path.endsWith("/mentions")) return "visibility analysis";
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
  const missing = (param: string) => {
    const value = params[param];
    return notFound(kindOfParam(param, path), Array.isArray(value) ? value.join("/") : value);
  };
  // No id holds NUL; a param that does is a missing object like any other malformed id.
  const unstorable = Object.keys(params).find((param) => unstorableStrings(params[param], param).length > 0);
  if (unstorable !== undefined) throw missing(unstorable);
  const result = schema.safeParse(params);
  if (!result.success) throw missing(String(result.error.issues[0]?.path[0] ?? ""));
  return result.data;
}

/**
 * The query string against the endpoint's query schema (none: it takes no parameters). An
 * unknown parameter is refused like an unknown body field, so a misspelt or unsupported filter
 * is never silently ignored.
 */
export function parseQuery<S extends z.ZodObject>(schema: S | undefined, url: URL): z.output<S> {
  if (!isUtf8Query(url.search)) {
    throw new ApiError("invalid_request", "query: is not valid UTF-8 (a percent-escape encodes bytes that are not UTF-8 text)");
  }
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
  return schema ? parseInput(schema, raw, "query") : ({} as z.output<S>);
}

/**
 * Whether the query's percent-escapes decode to UTF-8 text. URLSearchParams would turn bytes that
 * are not into U+FFFD, silently; a `%` that starts no escape stays a literal `%`, as it does there.
 */
function isUtf8Query(search: string): boolean {
  if (!search.includes("%")) return true;
  const escapes = search.match(/(?:%[0-9a-f]{2})+/gi) ?? [];
  return escapes.every((run) => {
    try {
      decodeURIComponent(run);
      return true;
    } catch {
      return false;
    }
  });
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
  let text: string;
  try {
    // Fatal: bytes that are not UTF-8 would otherwise be stored as U+FFFD, altered.
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_request", "request body: is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "unreadable";
    throw new ApiError("invalid_request", `request body: is not valid JSON (${detail})`);
  }
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseInput(schema, body, "request body");
}

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
