// Field types of environment variables, shared by the central configuration and the engines'.
import { z } from "zod";

/** A whole number from `min` to `max`, with a default; the message names the rule. */
export const wholeNumber = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })
    .default(fallback);

export const positiveInt = (fallback: number, max = 1_000_000_000) => wholeNumber(fallback, 1, max);
export const nonNegativeInt = (fallback: number, max: number) => wholeNumber(fallback, 0, max);

/** true/false, 1/0 or yes/no. */
export const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "true" || v === "1" || v === "yes"));
