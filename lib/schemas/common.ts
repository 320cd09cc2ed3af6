// Shapes shared by many endpoints: the error envelope, ids, money, and the common query
// parameters of spec 4.1 with the bounds of decisions.md.
import { z } from "zod";
import { ERROR_CODES } from "./error-codes";

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().describe(`Stable, machine-readable. Known codes: ${ERROR_CODES.join(", ")}.`),
      message: z.string().describe("For people."),
      engine: z.string().nullable().describe("The answer engine at fault, if any."),
      retryable: z.boolean().describe("Whether the same request could succeed later."),
    }),
  })
  .meta({
    id: "Error",
    description: "Every non-2xx response has this shape.",
    examples: [{ error: { code: "not_found", message: 'No such run "dr_01M7W4N5HZGWT0SFG9MVH8BXJ1".', engine: null, retryable: false } }],
  });

/** ULIDs in Crockford base32, as made by lib/db/ids.ts. */
export const ULID_PATTERN = "[0-9A-HJKMNP-TV-Z]{26}";

/**
 * Every id schema idOf made, with its prefixes. A request that names an object by id in its
 * query or body answers 404 when the caller cannot reach it, so the OpenAPI document lists 404
 * for every operation whose query or body holds one of these (lib/http/openapi.ts).
 */
export const idSchemas = z.registry<{ prefixes: readonly string[] }>();

/** "va_", "fa_, ca_, va_ or op_": the prefixes an id may start with, as a refusal names them. */
function prefixesSaid(prefixes: readonly string[]): string {
  const said = prefixes.map((p) => `${p}_`);
  return said.length === 1 ? said[0]! : `${said.slice(0, -1).join(", ")} or ${said.at(-1)}`;
}

/**
 * `<prefix>_<ULID>` for one of `prefixes`; requests and responses alike (OpenAPI shows the pattern).
 * A refusal names the prefixes and gives an example with the first: "must be an id: fa_, ca_, va_,
 * cm_ or op_ followed by 26 letters and digits, such as fa_01JD4M9RZ6XQ7W8V5T3S2R1P0N".
 */
export function idOf(...prefixes: string[]) {
  return idSaidAs(`an id: ${prefixesSaid(prefixes)}`, prefixes);
}

/**
 * The same, its refusal saying what the request is expected to name (`expected`, the first
 * prefix's kind): a field that takes other ids only to refuse them in words of their own (an
 * opportunity list's `analysis`: "must be a visibility analysis id: va_ followed by …").
 */
export function idSaidAs(expected: string, prefixes: readonly string[]) {
  const re = new RegExp(`^(${prefixes.join("|")})_${ULID_PATTERN}$`);
  const schema = z.string().regex(re, { error: `must be ${expected} followed by 26 letters and digits, such as ${prefixes[0]}_01JD4M9RZ6XQ7W8V5T3S2R1P0N` });
  idSchemas.add(schema, { prefixes });
  return schema;
}

/**
 * Length in characters (Unicode code points), as the spec and JSON Schema's minLength and
 * maxLength count it; JavaScript's `length` counts UTF-16 units, two for an emoji.
 */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * What every request string's OpenAPI schema says when it states no stricter pattern: the server
 * refuses NUL (U+0000) anywhere in a request (lib/http/input.ts), so the document does too
 * (lib/http/openapi.ts adds it to every string schema without a pattern, enum or format).
 */
export const NO_NUL_PATTERN = "^[^\\u0000]*$";

/**
 * A string of `min` to `max` characters counted as code points (charCount), so a prompt of
 * 4000 emoji fits 4000. OpenAPI shows the bounds as minLength and maxLength.
 */
export function chars(min: number, max: number, rule = `must be ${min} to ${max} characters`) {
  return z
    .string()
    .refine((text) => {
      const n = charCount(text);
      return n >= min && n <= max;
    }, { error: rule })
    .meta({
      minLength: min,
      maxLength: max,
      pattern: NO_NUL_PATTERN,
      description: `${min} to ${max} characters (Unicode code points), kept exactly as given. NUL (U+0000) and unpaired surrogates are refused, as in every string.`,
    });
}

/**
 * Text a request must say something in (a prompt, a topic, a name, a brand): leading and trailing
 * whitespace is trimmed and nothing else is changed (inner spaces, line breaks, case, accents kept
 * as given); then `min` to `max` characters (code points) of what is left, so whitespace only is
 * refused with the same rule, naming the field. Stored trimmed (docs/decisions.md, "Required
 * text"). `pattern` tells client generators that at least one non-space is needed, and no NUL.
 */
export function trimmedText(min: number, max: number) {
  const rule = `must be ${min} to ${max} characters after trimming spaces`;
  return z
    .string()
    .trim()
    .refine((text) => {
      const n = charCount(text);
      return n >= min && n <= max;
    }, { error: rule })
    .meta({
      minLength: min,
      maxLength: max,
      // At least one character that is neither whitespace nor NUL, and no NUL anywhere.
      pattern: "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$",
      description: `${min} to ${max} characters (Unicode code points), counted after leading and trailing whitespace is trimmed (whitespace only is refused). Stored trimmed, otherwise exactly as given. NUL (U+0000) and unpaired surrogates are refused, as in every string.`,
    });
}

/** A person-given name (workspace, project, API key, CLI client, brand): trimmedText of 1 to `max` characters. */
export const name = (max: number) => trimmedText(1, max);

/** Decimal USD string, never a number: "0.02", "12.50". */
export const Usd = z
  .string()
  .regex(/^-?\d+\.\d{2,6}$/)
  .meta({ id: "Usd", description: "An amount in USD as a decimal string with 2 to 6 decimals, never a number.", examples: ["0.02", "12.50"] });

export const DateTime = z.iso.datetime({ offset: true }).meta({ examples: ["2026-11-20T09:30:00.125Z"] });

/** Text of decimal digits as its number; anything else (empty, "1e2", "0x10", " 5") unchanged, for the schema to refuse. */
export function readDecimal(value: unknown): unknown {
  return typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value;
}

/**
 * An integer query parameter: decimal digits only, `min` to `max`, `fallback` when absent. Not
 * z.coerce, which reads "1e2", "0x10", " 5 " and an empty value (as 0) as numbers: those are 400
 * like any value out of bounds. `prefault` (not `default`) so OpenAPI still shows the default.
 */
export function intParam(min: number, max: number, fallback: number, description: string) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .preprocess(readDecimal, z.int({ error: rule }).min(min, { error: rule }).max(max, { error: rule }))
    .prefault(fallback)
    .describe(`${description} ${min} to ${max}, default ${fallback}.`);
}

export const limitParam = intParam(1, 200, 50, "Page size:");
export const cursorParam = z
  .string()
  .min(1, { error: "must be the next_cursor of a previous page" })
  .optional()
  .describe("The previous page's next_cursor.");
export const waitParam = intParam(0, 30, 0, "Seconds to wait for the object to finish:");

export const PageQuery = z.object({ limit: limitParam, cursor: cursorParam });

export function listOf<T extends z.ZodType>(item: T, id: string, meta: { description?: string; examples?: unknown[] } = {}) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() }).meta({ id, ...meta });
}

/**
 * The answer engines' ids (decisions.md "Engines, wave 4"), in the one order every list shows them:
 * the model APIs with their web search first, then what people see in the consumer products. One
 * list for the schemas, the adapters and the simulator; lib/schemas/engines.ts says what each is.
 */
export const ENGINE_IDS = ["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"] as const;
export const EngineId = z.enum(ENGINE_IDS).meta({
  id: "EngineId",
  description:
    "An answer engine. Model APIs with their web search (surface `api`): `chatgpt`, `claude`, `gemini`, `perplexity`. What a signed-out person sees in the consumer product (surface `app`, captured through DataForSEO): `chatgpt_app`, `gemini_app`, `google_ai_overview`, `google_ai_mode`. GET /engines says which are enabled on this server.",
});

/** The engines that answer a structured request (a questions analysis, a visibility judge): the model APIs with a JSON output mode. */
export const STRUCTURED_ENGINE_IDS = ["chatgpt", "claude", "gemini"] as const;
export const StructuredEngineId = z.enum(STRUCTURED_ENGINE_IDS).meta({
  id: "StructuredEngineId",
  description: "An engine that can answer in a JSON schema: `chatgpt`, `claude` or `gemini` (the apps and Perplexity cannot judge or write questions).",
});
