// The inputs of tests/helpers/fuzz.ts: valid bodies and queries generated with fast-check from an
// endpoint's request schema (the JSON Schema the OpenAPI document publishes), the JSON text
// JSON.stringify cannot write (duplicate keys, -0, raw bytes), and each mutation with the answer
// it must get. No vitest import.
import fc from "fast-check";
import { config } from "@/lib/config/env";
import { ENGINE_IDS } from "@/lib/schemas/common";
import { encodeSegment } from "./routes";
import { idPrefixesOf, resolve, typesOf, type Node, type Schema } from "./json-schema";

// ---------------------------------------------------------------------------------------------
// Valid inputs

/** Real objects for generated values to name, so requests get past 404 to the code behind it. */
export type InputPools = {
  /** Ids by prefix (`pr`, `dr`…). */
  ids: Record<string, string[]>;
  questionIds: string[];
  deviceCode: string;
};

const constant = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** Fields whose schema alone does not say what a useful valid value is. */
function hint(key: string, pools: InputPools): fc.Arbitrary<unknown> | undefined {
  switch (key) {
    case "engines[]":
      return constant(ENGINE_IDS);
    case "ids[]":
      return constant([...(pools.ids.dr ?? []), ...(pools.ids.rq ?? [])]);
    case "question_id":
      return constant(pools.questionIds.length ? pools.questionIds : ["q1"]);
    case "device_code":
      return fc.oneof({ weight: 4, arbitrary: fc.constant(pools.deviceCode) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) });
    case "email":
      return fc.nat({ max: 10_000 }).map((n) => `person${n}@example.com`);
    case "url":
      return constant(["https://example.com/", "http://127.0.0.1:9/page", "https://www.example.org/a/b?c=d#e"]);
    case "primary_domain":
    case "domains[]":
      return constant(["acme.com", "https://www.example.org/path", "sub.example.co.uk", "XN--BCHER-KVA.example"]);
    case "cursor":
      // Only a previous page's cursor is valid; mutations send others.
      return fc.constant(undefined);
    case "wait":
      return constant([0, 1]);
    default:
      return undefined;
  }
}

/** Valid values of `node`; `key` is the field's name (`engines[]` for an item of `engines`). */
export function validInput(schema: Schema, pools: InputPools, node: Node = schema.root, key = ""): fc.Arbitrary<unknown> {
  const n = resolve(node, schema.defs);
  const hinted = hint(key, pools);
  if (hinted) return hinted;
  if (n.anyOf) {
    const branches = n.anyOf.map((branch) => ({
      weight: resolve(branch, schema.defs).type === "null" ? 1 : 4,
      arbitrary: validInput(schema, pools, branch, key),
    }));
    return fc.oneof(...branches);
  }
  if (n.enum) return constant(n.enum);
  if (n.const !== undefined) return fc.constant(n.const);
  const prefixes = idPrefixesOf(n);
  if (prefixes) {
    const known = prefixes.flatMap((p) => pools.ids[p] ?? []);
    const random = fc.stringMatching(new RegExp(n.pattern!));
    return known.length ? fc.oneof({ weight: 5, arbitrary: constant(known) }, { weight: 1, arbitrary: random }) : random;
  }
  switch (n.type) {
    case "object": {
      // An optional field is there three times in four, so nested objects (a project's context,
      // a prompt's source) are there to mutate.
      const required = new Set(n.required ?? []);
      const model = Object.fromEntries(
        Object.entries(n.properties ?? {}).map(([k, child]) => {
          const value = validInput(schema, pools, child, k);
          return [k, required.has(k) ? value : fc.option(value, { nil: undefined, freq: 4 })];
        }),
      );
      return fc.record(model, { noNullPrototype: true });
    }
    case "array": {
      const min = n.minItems ?? 0;
      const max = Math.min(n.maxItems ?? 3, Math.max(min, 3));
      return fc.array(validInput(schema, pools, n.items ?? {}, `${key}[]`), { minLength: min, maxLength: max });
    }
    case "integer":
    case "number": {
      // Small valid values: the bounds themselves are a mutation of their own.
      const min = n.minimum ?? -5;
      return fc.integer({ min, max: Math.min(n.maximum ?? 100, min + 4) });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "string": {
      const needsText = n.pattern === "\\S";
      const min = Math.max(n.minLength ?? 0, needsText ? 1 : 0);
      return fc
        .string({ unit: "grapheme", minLength: min, maxLength: Math.max(min, Math.min(n.maxLength ?? 30, 30)) })
        .filter((s) => !s.includes("\u0000") && (!needsText || /\S/.test(s)));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// JSON text that JSON.stringify cannot write

/** Written verbatim into the JSON text (`-0`, `1e999`, a thousand nested arrays). */
class Raw {
  constructor(readonly text: string) {}
}
/** A JSON string with raw bytes in it (invalid UTF-8, an unescaped NUL). */
class RawBytesString {
  constructor(
    readonly before: string,
    readonly bytes: number[],
    readonly after: string,
  ) {}
}
/** An object written with its entries exactly as given: duplicate keys, `__proto__`. */
class Entries {
  constructor(readonly entries: [string, unknown][]) {}
}

const encoder = new TextEncoder();

export function serialize(value: unknown): Uint8Array {
  const parts: (string | number[])[] = [];
  const write = (v: unknown): void => {
    if (v instanceof Raw) {
      parts.push(v.text);
    } else if (v instanceof RawBytesString) {
      parts.push(JSON.stringify(v.before).slice(0, -1), v.bytes, JSON.stringify(v.after).slice(1));
    } else if (Array.isArray(v)) {
      parts.push("[");
      v.forEach((item, i) => {
        if (i) parts.push(",");
        write(item);
      });
      parts.push("]");
    } else if (v instanceof Entries || (v !== null && typeof v === "object")) {
      const entries = v instanceof Entries ? v.entries : Object.entries(v).filter(([, x]) => x !== undefined);
      parts.push("{");
      entries.forEach(([k, item], i) => {
        parts.push(`${i ? "," : ""}${JSON.stringify(k)}:`);
        write(item);
      });
      parts.push("}");
    } else {
      parts.push(JSON.stringify(v) ?? "null");
    }
  };
  write(value);
  return concat(parts.map((p) => (typeof p === "string" ? encoder.encode(p) : Uint8Array.from(p))));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** What the answer must be: any status below 500, or exactly 400 invalid_request, or 404. */
export type Expectation = "any" | "400" | "404";

/** The random numbers a case draws besides its valid input, which pick where and how to mutate. */
export type Draw = { base: Record<string, unknown>; a: number; b: number; c: number; flag: boolean };

export type Mutated = { mutation: string; expect: Expectation; field?: string; enclosing?: string[]; body?: Uint8Array; contentType?: string; search?: string };

export const BODY_MUTATIONS = [
  "valid", "wrong type", "missing field", "unknown field", "huge string", "body over the limit", "deep nesting", "NUL",
  "raw NUL byte", "lone surrogate", "bounds", "negative zero", "NaN-like", "number forms", "duplicate key", "content type",
  "empty body", "not an object", "invalid JSON", "invalid UTF-8", "byte order mark",
] as const;
export const QUERY_MUTATIONS = [
  "valid", "unknown parameter", "repeated parameter", "wrong type", "bounds", "NUL", "lone surrogate", "invalid percent-escape",
  "huge value", "empty value",
] as const;

type Path = (string | number)[];
/** `node`: the field's whole schema (anyOf included), for what it accepts; `branch`: the part that describes the value there. */
type Slot = { path: Path; node: Node | undefined; branch: Node | undefined; required: boolean };

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const show = (path: Path) => path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : `${s}.${p}`), "body");
const leafName = (path: Path) => [...path].reverse().find((p): p is string => typeof p === "string");
/**
 * The objects holding the field at `path`, as the API's messages write paths (`judge.discover`,
 * `prompts[0]`): a 400 that refuses one of them as a whole (`judge.discover: is not available on
 * monitors`) names the field's place too.
 */
const enclosingOf = (path: Path) => path.slice(1).map((_, k) => show(path.slice(0, k + 1)).replace(/^body\.?/, ""));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function valueType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function accepts(node: Node | undefined, value: unknown, defs: Record<string, Node>): boolean {
  if (!node) return true;
  const types = typesOf(node, defs);
  const type = valueType(value);
  return types.has(type) || (type === "integer" && types.has("number"));
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const p of path.slice(0, -1)) at = at[p] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
}

function getAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, p) => (v as Record<string | number, unknown>)[p], root);
}

/** `s` split before its code point number `at` (mod its length + 1), so nothing lands inside a surrogate pair. */
function splitAt(s: string, at: number): [string, string] {
  const points = Array.from(s);
  const i = at % (points.length + 1);
  return [points.slice(0, i).join(""), points.slice(i).join("")];
}

/** Every position in `value`, with the schema that describes it. */
function slotsOf(value: unknown, node: Node | undefined, defs: Record<string, Node>, path: Path = [], required = true): Slot[] {
  const whole = node && resolve(node, defs);
  const branch = whole?.anyOf ? resolve(whole.anyOf.find((b) => typesOf(b, defs).has(valueType(value))) ?? whole.anyOf[0]!, defs) : whole;
  const here: Slot = { path, node: whole, branch, required };
  if (Array.isArray(value)) return [here, ...value.flatMap((v, i) => slotsOf(v, branch?.items, defs, [...path, i]))];
  if (!isObject(value)) return [here];
  const children = Object.entries(value).flatMap(([k, v]) =>
    v === undefined ? [] : slotsOf(v, branch?.properties?.[k], defs, [...path, k], branch?.required?.includes(k) ?? false),
  );
  return [here, ...children];
}

const WRONG_VALUES: unknown[] = [0, 1.5, -1, "", "text", true, false, null, [], {}, ["x"], { a: 1 }];
const FILLERS = ["x", "é", "😀", "a\u0301"];
const SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800", "a\ud83d"];
const INVALID_UTF8 = [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xe2, 0x82]];
const EXTRA_KEYS = ["unexpected", "__proto__", "constructor", "Name", "project_id", "x".repeat(300), "name "];
const NAN_LIKE = ["NaN", "Infinity", "-Infinity", "1e2", "0x10", " 5", "5 ", "", "٣", "1_000", "+1"];
const BARE_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "0x10", "01", "+1", ".5"];
const NON_JSON_TYPES = [
  "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "text/json", "application/xml", "",
];
const JSON_TYPES = ["application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", 'application/json;charset="utf-8"'];

/**
 * Mutation `kind` of a valid body. `round` is which time this mutation comes round for the
 * endpoint: odd rounds aim below the top level when they can (a project's context, a prompt's
 * source), so "at every depth" is not left to chance.
 */
export function mutateBody(kind: string, d: Draw, schema: Schema, round: number): Mutated {
  const { defs } = schema;
  const base = d.base;
  const slots = slotsOf(base, schema.root, defs);
  const json: Json = (value, mutation, expect, field, enclosing) => ({
    body: serialize(value),
    contentType: "application/json",
    mutation,
    expect,
    field,
    enclosing,
  });
  /** Refused: 400 naming the field at `path` (or an object holding it, refused as a whole). */
  const refuse = (value: unknown, path: Path, mutation: string) => json(value, mutation, "400", leafName(path), enclosingOf(path));
  const raw = (text: string | Uint8Array, mutation: string, expect: Expectation): Mutated => ({
    body: typeof text === "string" ? encoder.encode(text) : text,
    contentType: "application/json",
    mutation,
    expect,
  });
  const ofType = (...types: string[]) =>
    slots.filter((s) => s.node && [...typesOf(s.node, defs)].some((t) => types.includes(t)) && types.includes(valueType(getAt(base, s.path))));
  const deep = (list: Slot[], minDepth = 2) => {
    const nested = list.filter((s) => s.path.length >= minDepth);
    return round % 2 === 1 && nested.length ? nested : list;
  };
  const objects = slots.filter((s) => isObject(getAt(base, s.path)));
  const requiresFields = (resolve(schema.root, defs).required ?? []).length > 0;
  const withExtra = (key: string, value: unknown) => new Entries([...Object.entries(base).filter(([, v]) => v !== undefined), [key, value]]);

  switch (kind) {
    case "wrong type": {
      const slot = pick(deep(slots), d.a);
      const v = pick(WRONG_VALUES.filter((w) => !accepts(slot.node, w, defs)), d.b);
      if (!slot.node || v === undefined) return json(base, "valid (no wrong type for the field chosen)", "any");
      return json(setAt(base, slot.path, v), `wrong type at ${show(slot.path)}: ${JSON.stringify(v)}`, "400", leafName(slot.path) ?? "request body");
    }
    case "missing field": {
      const members = deep(slots.filter((s) => typeof s.path[s.path.length - 1] === "string"));
      if (members.length === 0) return json({}, "no fields", requiresFields ? "400" : "any");
      const slot = pick(members, d.a);
      const parent = { ...(getAt(base, slot.path.slice(0, -1)) as Record<string, unknown>) };
      delete parent[slot.path[slot.path.length - 1] as string];
      const value = setAt(base, slot.path.slice(0, -1), parent);
      return slot.required ? refuse(value, slot.path, `missing ${show(slot.path)}`) : json(value, `missing ${show(slot.path)} (optional)`, "any");
    }
    case "unknown field": {
      const slot = pick(deep(objects, 1), d.a);
      const key = pick(EXTRA_KEYS, d.b);
      const entries = Object.entries(getAt(base, slot.path) as object).filter(([, v]) => v !== undefined);
      const value = setAt(base, slot.path, new Entries([...entries, [key, pick([1, "x", null, {}], d.c)]]));
      return json(value, `unknown field ${JSON.stringify(key.length > 20 ? `${key.slice(0, 20)}…` : key)} in ${show(slot.path)}`, "400");
    }
    case "huge string": {
      const slot = pick(slots.filter((s) => s.path.length > 0), d.a) ?? slots[0]!;
      const filler = pick(FILLERS, d.b);
      const text = filler.repeat(Math.floor(1_000_000 / encoder.encode(filler).length));
      const b = slot.branch;
      const unbounded = b?.type === "string" && b.maxLength === undefined && b.pattern === undefined && b.enum === undefined && !idPrefixesOf(b);
      const mutation = `1 MB string (${JSON.stringify(filler)} × ${text.length / filler.length}) at ${show(slot.path)}`;
      return unbounded ? json(setAt(base, slot.path, text), mutation, "any") : refuse(setAt(base, slot.path, text), slot.path, mutation);
    }
    case "body over the limit": {
      const slot = pick(ofType("string"), d.a) ?? slots[0]!;
      const size = config().MAX_BODY_BYTES + 1;
      return json(setAt(base, slot.path, "y".repeat(size)), `body over MAX_BODY_BYTES (a ${size}-byte string at ${show(slot.path)})`, "400");
    }
    case "deep nesting": {
      const slot = pick(slots, d.a);
      const depth = pick([1000, 1001, 5000], d.b);
      const nested = d.flag ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      return json(setAt(base, slot.path, new Raw(nested)), `${depth} levels of ${d.flag ? "arrays" : "objects"} at ${show(slot.path)}`, "400");
    }
    case "NUL": {
      const slot = pick(deep(ofType("string")), d.a);
      if (!slot) return json(withExtra("na\u0000me", "x"), "NUL in an unknown field's name", "400");
      const [before, after] = splitAt(getAt(base, slot.path) as string, d.b);
      return refuse(setAt(base, slot.path, `${before}\u0000${after}`), slot.path, `NUL (\\u0000) at ${show(slot.path)}`);
    }
    case "raw NUL byte": {
      const slot = pick(ofType("string"), d.a);
      if (!slot) return raw('{"a\u0000":1}', "raw NUL byte in a key", "400");
      const value = setAt(base, slot.path, new RawBytesString(getAt(base, slot.path) as string, [0], ""));
      return json(value, `unescaped NUL byte inside the JSON string at ${show(slot.path)}`, "400");
    }
    case "lone surrogate": {
      const slot = pick(deep(ofType("string")), d.a);
      const half = pick(SURROGATES, d.b);
      if (!slot) return json(withExtra(`k${half}`, "x"), "lone surrogate in an unknown field's name", "400");
      const [before, after] = splitAt(getAt(base, slot.path) as string, d.c);
      return refuse(setAt(base, slot.path, `${before}${half}${after}`), slot.path, `lone surrogate ${JSON.stringify(half)} at ${show(slot.path)}`);
    }
    case "bounds":
      return boundsMutation(d, slots, base, json);
    case "negative zero": {
      const slot = pick(ofType("integer", "number"), d.a);
      if (!slot) return json(withExtra("zero", new Raw("-0")), "-0 in an unknown field", "400");
      const value = setAt(base, slot.path, new Raw(pick(["-0", "-0.0", "-0e0"], d.b)));
      const inRange = (slot.branch?.minimum ?? -1) <= 0 && (slot.branch?.maximum ?? 1) >= 0;
      return inRange ? json(value, `-0 at ${show(slot.path)}`, "any") : refuse(value, slot.path, `-0 at ${show(slot.path)}`);
    }
    case "NaN-like": {
      const slot = pick(ofType("integer", "number"), d.a) ?? pick(slots.filter((s) => s.path.length > 0), d.a);
      if (!slot) return raw("NaN", "NaN as the body", "400");
      if (d.flag) {
        const bare = pick(BARE_NUMBERS, d.b);
        return json(setAt(base, slot.path, new Raw(bare)), `bare ${bare} at ${show(slot.path)} (not JSON)`, "400");
      }
      const text = pick(NAN_LIKE, d.b);
      const numeric = ["integer", "number"].some((t) => typesOf(slot.node!, defs).has(t));
      const value = setAt(base, slot.path, text);
      const mutation = `${JSON.stringify(text)} at ${show(slot.path)}`;
      return numeric ? refuse(value, slot.path, mutation) : json(value, mutation, "any");
    }
    case "number forms": {
      const slot = pick(ofType("integer"), d.a);
      if (!slot) return json(base, "valid (no integer field)", "any");
      const v = getAt(base, slot.path) as number;
      const form = pick([`${v}.0`, `${v}e0`, `${v}.000000000000000001`, `${v}E+0`], d.b);
      return json(setAt(base, slot.path, new Raw(form)), `${form} at ${show(slot.path)}`, "any");
    }
    case "duplicate key": {
      const slot = pick(objects.filter((s) => Object.values(getAt(base, s.path) as object).some((v) => v !== undefined)), d.a);
      if (!slot) return json(base, "valid (no object with fields)", "any");
      const entries = Object.entries(getAt(base, slot.path) as object).filter(([, v]) => v !== undefined);
      const [key, value] = pick(entries, d.b);
      const child = slot.branch?.properties?.[key];
      const wrong = child ? pick(WRONG_VALUES.filter((w) => !accepts(child, w, defs)), d.c) : undefined;
      if (wrong === undefined) return json(base, "valid (no wrong value for the key chosen)", "any");
      // JSON.parse keeps the last of two equal keys.
      const lastWrong = d.flag;
      const dup: [string, unknown][] = lastWrong
        ? [...entries, [key, wrong]]
        : [...entries.map(([k, v]): [string, unknown] => [k, k === key ? wrong : v]), [key, value]];
      const mutation = `duplicate key ${JSON.stringify(key)} in ${show(slot.path)}, the ${lastWrong ? "last" : "first"} one ${JSON.stringify(wrong)}`;
      return json(setAt(base, slot.path, new Entries(dup)), mutation, lastWrong ? "400" : "any", lastWrong ? key : undefined);
    }
    case "content type": {
      const type = pick([...NON_JSON_TYPES, ...JSON_TYPES], d.a);
      const expect = JSON_TYPES.includes(type) ? "any" : "400";
      return { body: serialize(base), contentType: type || undefined, mutation: `Content-Type ${JSON.stringify(type || "(none)")}`, expect };
    }
    case "empty body": {
      const contentType = d.flag ? "application/json" : undefined;
      const body = d.b % 2 ? new Uint8Array() : undefined;
      const mutation = `empty body (${body ? "zero bytes" : "none"}, Content-Type ${contentType ?? "none"})`;
      return { body, contentType, mutation, expect: requiresFields ? "400" : "any" };
    }
    case "not an object": {
      const text = pick(["null", "[]", '"text"', "0", "true", "[{}]", "{}", " ", "\t\n"], d.a);
      const emptyish = text.trim() === "" || text === "{}";
      return raw(text, `body ${JSON.stringify(text)}`, emptyish && !requiresFields ? "any" : "400");
    }
    case "invalid JSON": {
      const text = new TextDecoder().decode(serialize(base));
      const broken = pick(
        [text.slice(0, Math.max(1, d.b % text.length)), `${text}}`, `${text},`, text.replace(":", "="), text.replace(/"/g, "'"),
          `/* c */${text}`, `${text} // c`, text.replace(/}$/, ",}"), `${text}${text}`],
        d.a,
      );
      return raw(broken, `invalid JSON ${JSON.stringify(broken.slice(0, 60))}`, broken === text ? "any" : "400");
    }
    case "invalid UTF-8": {
      const slot = pick(ofType("string"), d.a);
      const bytes = pick(INVALID_UTF8, d.b);
      const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join(" ");
      if (!slot) return raw(concat([Uint8Array.from(bytes), encoder.encode("{}")]), `invalid UTF-8 (${hex}) before the body`, "400");
      const [before, after] = splitAt(getAt(base, slot.path) as string, d.c);
      return json(setAt(base, slot.path, new RawBytesString(before, bytes, after)), `invalid UTF-8 bytes ${hex} at ${show(slot.path)}`, "any");
    }
    case "byte order mark":
      return raw(concat([Uint8Array.from([0xef, 0xbb, 0xbf]), serialize(base)]), "UTF-8 byte order mark before the body", "any");
    default:
      return json(base, "valid", "any");
  }
}

/** A number, a list's length or a string's length (in code points) at, or just past, its bounds. */
type Json = (value: unknown, mutation: string, expect: Expectation, field?: string, enclosing?: string[]) => Mutated;

function boundsMutation(d: Draw, slots: Slot[], base: unknown, json: Json): Mutated {
  const hasBounds = (b: Node | undefined) =>
    b !== undefined && [b.minimum, b.maximum, b.minItems, b.maxItems, b.minLength, b.maxLength].some((x) => x !== undefined);
  const slot = pick(slots.filter((s) => hasBounds(s.branch)), d.a);
  if (!slot) return json(base, "valid (no bounded field)", "any");
  const n = slot.branch!;
  const v = getAt(base, slot.path);
  const at = (value: unknown, label: string, valid: boolean) =>
    json(setAt(base, slot.path, value), `${label} at ${show(slot.path)}`, valid ? "any" : "400", valid ? undefined : leafName(slot.path));
  if (typeof v === "number") {
    const lo = n.minimum ?? Number.MIN_SAFE_INTEGER;
    const hi = n.maximum ?? Number.MAX_SAFE_INTEGER;
    const options: [unknown, string, boolean][] = [
      [lo, `minimum ${lo}`, true],
      [hi, `maximum ${hi}`, true],
      [lo - 1, `minimum - 1 (${lo - 1})`, false],
      [hi + 1, `maximum + 1 (${hi + 1})`, false],
      [lo + 0.5, `fraction ${lo + 0.5}`, false],
      [1e308, "1e308", false],
      [new Raw("1e999"), "1e999 (Infinity)", false],
      [2 ** 53 + 2, "2^53 + 2", false],
    ];
    return at(...pick(options, d.b));
  }
  const lengths = (lo: number, hi: number | undefined): [number, boolean][] => [
    [lo, true],
    ...(lo > 0 ? [[lo - 1, false] as [number, boolean]] : []),
    ...(hi !== undefined ? ([[hi, true], [hi + 1, false]] as [number, boolean][]) : []),
  ];
  if (Array.isArray(v)) {
    const [count, valid] = pick(lengths(n.minItems ?? 0, n.maxItems), d.b);
    return at(Array.from({ length: count }, () => structuredClone(v[0] ?? "x")), `${count} items`, valid);
  }
  if (typeof v === "string") {
    const ch = pick(["a", "😀", "é"], d.c);
    const [count, valid] = pick(lengths(Math.max(n.minLength ?? 0, n.pattern === "\\S" ? 1 : 0), n.maxLength), d.b);
    return at(ch.repeat(count), `${count} × ${JSON.stringify(ch)} (code points)`, valid);
  }
  return json(base, "valid (the bounded field is absent)", "any");
}

type QueryPair = [name: string, value: string, encoded?: boolean];

function queryString(pairs: QueryPair[]): string {
  if (pairs.length === 0) return "";
  return `?${pairs.map(([k, v, encoded]) => `${encodeSegment(k)}=${encoded ? v : encodeSegment(v)}`).join("&")}`;
}

/** The query string of a valid input. */
export function validQuery(base: Record<string, unknown>): string {
  return queryString(Object.entries(base).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
}

/** Mutation `kind` of a valid query (its `search`). */
export function mutateQuery(kind: string, d: Draw, schema: Schema): Mutated {
  const props = resolve(schema.root, schema.defs).properties ?? {};
  const pairs: QueryPair[] = Object.entries(d.base).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]);
  const name = pick(Object.keys(props), d.a);
  const node = resolve(props[name]!, schema.defs);
  // A number, one of a list, or an id: anything else (a cursor) is only for the service to judge.
  const typed = node.type === "integer" || node.enum !== undefined || idPrefixesOf(node) !== null;
  const as = (value: string, encoded = false) => queryString([...pairs.filter(([k]) => k !== name), [name, value, encoded]]);
  const answer = (search: string, mutation: string, refused: boolean, field?: string): Mutated =>
    ({ search, mutation, expect: refused ? "400" : "any", field: refused ? field : undefined });
  switch (kind) {
    case "unknown parameter": {
      const key = pick(["unexpected", "Limit", "limit[]", "__proto__", "", "wait ", "project_id"], d.b);
      return answer(queryString([...pairs, [key, "1"]]), `unknown query parameter ${JSON.stringify(key)}`, true);
    }
    case "repeated parameter": {
      const [k, v] = pairs.length ? pick(pairs, d.b) : [name, "1"];
      const search = queryString([...pairs.filter(([x]) => x !== k), [k, v], [k, d.flag ? v : `${v}0`]]);
      return answer(search, `query parameter ${k} given twice`, true, k);
    }
    case "wrong type": {
      const given = d.base[name];
      const values = node.type === "integer"
        ? ["abc", "1.5", "1e2", "0x10", " 5", "5 ", "-1", "+5", "٣", "NaN", "Infinity", "-0", "1,000"]
        : node.enum
          ? ["bogus", String(node.enum[0]).toUpperCase(), `${String(node.enum[0])} `, "null"]
          : idPrefixesOf(node)
            ? [`xx_${"0".repeat(26)}`, typeof given === "string" ? given.toLowerCase() : "pr_x", "pr_", "null", "undefined", "[object Object]"]
            : ["x", "!!", "null"];
      const value = pick(values, d.b);
      const negativeAllowed = value === "-1" && (node.minimum ?? 0) < 0;
      return answer(as(value), `${name}=${JSON.stringify(value)}`, typed && !negativeAllowed, name);
    }
    case "bounds": {
      if (node.type !== "integer") return answer(validQuery(d.base), "valid (the parameter chosen is not a number)", false);
      const lo = node.minimum ?? 0;
      const hi = node.maximum ?? 1000;
      const options: [string, boolean][] = [
        [`${lo}`, true], [`${hi}`, true], [`${lo - 1}`, false], [`${hi + 1}`, false], ["99999999999999999999", false], [`${hi}.0`, false],
      ];
      // `wait` at its maximum is harmless: every object the fuzzers name has finished.
      const [value, valid] = pick(options, d.b);
      return answer(as(value), `${name}=${value}`, !valid, name);
    }
    case "NUL": {
      const [before, after] = splitAt(String(d.base[name] ?? "x"), d.b);
      return answer(as(`${before}\u0000${after}`), `NUL in ${name}`, true, name);
    }
    case "lone surrogate": {
      const escape = pick(["%ED%A0%80", "%ED%BF%BF", "%F0%9F", "%C0%AF"], d.b);
      return answer(as(`x${escape}`, true), `${name}=x${escape} (a surrogate or broken UTF-8, percent-encoded)`, typed);
    }
    case "invalid percent-escape": {
      const escape = pick(["%ZZ", "%", "%C3%28", "%E0%A4%A", "%%", "%u0041"], d.b);
      return answer(as(escape, true), `${name}=${escape}`, typed);
    }
    case "huge value": {
      const value = pick(FILLERS, d.b).repeat(200_000);
      return answer(as(value), `${name} of ${value.length} UTF-16 units`, typed, name);
    }
    case "empty value":
      return answer(as(""), `${name}= (empty)`, true, name);
    default:
      return answer(validQuery(d.base), "valid", false);
  }
}

/** Path segments no object's id can be, each sent percent-encoded or (true) as it stands. */
export const JUNK_SEGMENTS: [segment: string, asIs: boolean][] = [
  ["%ZZ", true], ["%C3%28", true], ["%", true], ["%E0%A4%A", true], ["\u0000", false], ["\ud800", false], ["x".repeat(100_000), false],
  ["", false], [" ", false], ["..", false], ["0", false], ["-1", false], ["1e2", false], ["99999999999999999999", false], ["null", false],
];
