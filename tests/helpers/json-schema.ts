// Request schemas as the JSON Schema the OpenAPI document publishes (zod's toJSONSchema, input
// side), which the fuzzers generate from and the authorization matrix reads id fields from. No
// vitest import.
import { z } from "zod";
import { ULID_PATTERN } from "@/lib/schemas/common";

export type Node = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
  anyOf?: Node[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  $defs?: Record<string, Node>;
};

export type Schema = { root: Node; defs: Record<string, Node> };

export function jsonSchemaOf(schema: z.ZodType): Schema {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", reused: "inline" }) as Node;
  return { root, defs: root.$defs ?? {} };
}

/** The node itself, with a `$ref` followed (keywords beside the `$ref`, such as `default`, kept). */
export function resolve(node: Node, defs: Record<string, Node>): Node {
  let out = node;
  for (let hops = 0; out.$ref && hops < 20; hops++) {
    const { $ref, ...rest } = out;
    const target = defs[$ref.replace("#/$defs/", "")];
    if (!target) throw new Error(`unresolved ${$ref}`);
    out = { ...target, ...rest };
  }
  return out;
}

const ID_REGEX = new RegExp(`^\\^\\(([a-z|]+)\\)_${ULID_PATTERN.replace(/[[\]{}]/g, "\\$&")}\\$$`);

/** The prefixes of an id field (`pr`, `dr`…) from the pattern idOf() gives it, else null. */
export function idPrefixesOf(node: Node): string[] | null {
  const match = node.pattern ? ID_REGEX.exec(node.pattern) : null;
  return match ? match[1]!.split("|") : null;
}

/** JSON types a node accepts (anyOf flattened). */
export function typesOf(node: Node, defs: Record<string, Node>): Set<string> {
  const n = resolve(node, defs);
  if (n.anyOf) return new Set(n.anyOf.flatMap((branch) => [...typesOf(branch, defs)]));
  if (n.enum) return new Set(n.enum.map((v) => (v === null ? "null" : typeof v)));
  if (n.type === "integer") return new Set(["integer"]);
  return new Set(n.type ? [n.type] : ["string", "number", "integer", "boolean", "null", "object", "array"]);
}

/** Dotted paths (`prompts[].source.analysis_id`) of every id field under `node`. */
export function idFieldPaths(schema: Schema, node: Node = schema.root, at = ""): string[] {
  const n = resolve(node, schema.defs);
  if (idPrefixesOf(n)) return [at];
  if (n.anyOf) return [...new Set(n.anyOf.flatMap((branch) => idFieldPaths(schema, branch, at)))];
  if (n.items) return idFieldPaths(schema, n.items, `${at}[]`);
  return Object.entries(n.properties ?? {}).flatMap(([key, child]) => idFieldPaths(schema, child, at ? `${at}.${key}` : key));
}
