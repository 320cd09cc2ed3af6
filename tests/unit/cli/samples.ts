// Valid values for any request or response schema of lib/schemas, made from the schema itself (its
// JSON Schema): a schema's own example when it has one that parses, else every property filled with
// a value that satisfies its type, format, pattern and bounds. Used to answer and to call each
// endpoint of the registry in the client and MCP tests, so a new endpoint is covered with no code.
import fc from "fast-check";
import { z } from "zod";

type Json = Record<string, unknown>;

function pick(schema: Json, defs: Json, io: "input" | "output", depth: number): unknown {
  if (depth > 30) throw new Error("samples: schema nests too deep");
  if (typeof schema.$ref === "string") {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    if (!name || !defs[name]) throw new Error(`samples: unknown $ref ${schema.$ref}`);
    return pick({ ...(defs[name] as Json), ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "$ref")) }, defs, io, depth + 1);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key] as Json[] | undefined;
    if (options) {
      const notNull = options.find((o) => o.type !== "null") ?? options[0]!;
      return pick(notNull, defs, io, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) return pick(Object.assign({}, ...(schema.allOf as Json[])), defs, io, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : (schema.type as string | undefined);
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const out: Json = {};
      for (const [key, value] of Object.entries(properties)) out[key] = pick(value, defs, io, depth + 1);
      // A record: every key of an enum of keys (z.record(enum, …) wants them all), else one key.
      const extra = schema.additionalProperties;
      if (Object.keys(properties).length === 0 && extra && typeof extra === "object") {
        const names = (schema.propertyNames as Json | undefined)?.enum as string[] | undefined;
        for (const key of names ?? ["key"]) out[key] = pick(extra as Json, defs, io, depth + 1);
      }
      return out;
    }
    case "array": {
      const items = (schema.items ?? {}) as Json;
      const count = Math.max(1, Number(schema.minItems ?? 0));
      return Array.from({ length: count }, () => pick(items, defs, io, depth + 1));
    }
    case "integer":
    case "number": {
      let n = 1;
      if (typeof schema.minimum === "number" && n < schema.minimum) n = schema.minimum;
      if (typeof schema.exclusiveMinimum === "number" && n <= schema.exclusiveMinimum) n = schema.exclusiveMinimum + 1;
      if (typeof schema.maximum === "number" && n > schema.maximum) n = schema.maximum;
      if (typeof schema.exclusiveMaximum === "number" && n >= schema.exclusiveMaximum) n = schema.exclusiveMaximum - 1;
      return n;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
      return stringFor(schema);
    default:
      // Anything (z.unknown()): a small object, which is valid JSON of every kind it might mean.
      return { any: "value" };
  }
}

function stringFor(schema: Json): string {
  // A string's own example: what refinements JSON Schema cannot say (a known country code) satisfy.
  const example = Array.isArray(schema.examples) ? schema.examples.find((e) => typeof e === "string") : undefined;
  if (example !== undefined) return example;
  switch (schema.format) {
    case "date-time":
      return "2025-01-02T03:04:05.000Z";
    case "date":
      return "2025-01-02";
    case "email":
      return "someone@example.com";
    case "uri":
    case "url":
      return "https://acme.com/";
  }
  if (typeof schema.pattern === "string") {
    const [value] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 7 });
    return value!;
  }
  // Satisfies every plain string, and the refinements JSON Schema cannot say (project domains).
  const text = "acme.com";
  const min = Number(schema.minLength ?? 0);
  return text.length >= min ? text : text.padEnd(min, "x");
}

/** A value the schema accepts (checked here), in its input or output form. */
export function sampleOf(schema: z.ZodType, io: "input" | "output" = "output"): unknown {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  const defs = (json.$defs ?? {}) as Json;
  const root = typeof json.$ref === "string" ? ((defs[json.$ref.replace("#/$defs/", "")] ?? json) as Json) : json;
  const examples = root.examples;
  if (Array.isArray(examples) && examples.length > 0 && schema.safeParse(examples[0]).success) return examples[0];
  const value = pick(json, defs, io, 0);
  const checked = schema.safeParse(value);
  if (!checked.success) throw new Error(`samples: made a value the schema refuses: ${checked.error.message}\n${JSON.stringify(value)}`);
  return value;
}

/**
 * How to break a body of this schema: a required property (required in every shape of a union)
 * whose type is definite, and a value of another type; for a body that is not an object, the
 * whole body (field null).
 */
export function breakingField(schema: z.ZodType): { field: string | null; wrong: unknown } {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json;
  const defs = (json.$defs ?? {}) as Json;
  const resolve = (node: Json): Json => (typeof node.$ref === "string" ? resolve(defs[node.$ref.replace("#/$defs/", "")] as Json) : node);
  const root = resolve(json);
  const shapes = ((root.anyOf ?? root.oneOf ?? [root]) as Json[]).map(resolve);
  const typeOf = (shape: Json, field: string) => resolve(((shape.properties ?? {}) as Record<string, Json>)[field] ?? {}).type;
  if (shapes.every((shape) => shape.type === "object")) {
    for (const field of (shapes[0]!.required ?? []) as string[]) {
      const type = typeOf(shapes[0]!, field);
      if (typeof type !== "string") continue;
      if (shapes.every((shape) => ((shape.required ?? []) as string[]).includes(field) && typeOf(shape, field) === type)) {
        return { field, wrong: type === "string" ? 12345 : "not the right type" };
      }
    }
  }
  return { field: null, wrong: root.type === "string" ? 12345 : "not the right type" };
}
