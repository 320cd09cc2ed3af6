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
  .meta({ id: "Error", description: "Every non-2xx response has this shape." });

/** ULIDs in Crockford base32, as made by lib/db/ids.ts. */
export const ULID_PATTERN = "[0-9A-HJKMNP-TV-Z]{26}";

export function idOf(...prefixes: string[]) {
  const re = new RegExp(`^(${prefixes.join("|")})_${ULID_PATTERN}$`);
  return z.string().regex(re, { error: `must be an id like ${prefixes[0]}_01J...` });
}

/** A person-given name (workspace, project, key, CLI client): trimmed, 1 to `max` characters. */
export const name = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `must be 1 to ${max} characters` })
    .max(max, { error: `must be 1 to ${max} characters` });

/** Decimal USD string, never a number: "0.02", "12.50". */
export const Usd = z
  .string()
  .regex(/^-?\d+\.\d{2,6}$/)
  .meta({ id: "Usd", description: "An amount in USD as a decimal string with 2 to 6 decimals, never a number.", examples: ["0.02", "12.50"] });

export const DateTime = z.iso.datetime({ offset: true });

function intParam(min: number, max: number, fallback: number, description: string) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error: rule })
    .int({ error: rule })
    .min(min, { error: rule })
    .max(max, { error: rule })
    .default(fallback)
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

export function listOf<T extends z.ZodType>(item: T, id: string, description?: string) {
  return z
    .object({ items: z.array(item), next_cursor: z.string().nullable() })
    .meta({ id, ...(description ? { description } : {}) });
}

/** The answer engines' ids (decisions.md "Engines"), one list for the schemas, the adapters and the simulator. */
export const ENGINE_IDS = ["chatgpt", "claude", "gemini"] as const;
export const EngineId = z.enum(ENGINE_IDS).meta({ id: "EngineId", description: "An answer engine: `chatgpt`, `claude` or `gemini`." });
