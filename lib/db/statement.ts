// Typed statements: the one way code outside lib/db sends SQL of its own. A statement declares its
// parameters by name and its columns by name with their decoders; it renders the SELECT (or
// RETURNING) list and the numbered placeholders itself, and answers named row objects. Its name
// on the driver (a pg named statement, a PGlite PREPARE) is its label and a hash of its text, so a
// statement whose text changed can never run under the name of its old text, on any driver.
//
// Every column travels as text (cast in the SQL the decoder writes): rows come back as arrays of
// strings or nulls on both drivers, and the decoder turns each into what it declares.
import { createHash } from "node:crypto";
import { standalone, type Prepared, type SqlSession, type TextRow } from "./sql";

/** A part of a row: a column, or a group of them decoded into one object. */
export interface Shape<T> {
  /** The SQL expressions of its columns, each yielding text or null, with their names. */
  readonly leaves: readonly { sql: string; name: string }[];
  /** Decodes its columns from `values`, starting at `at`. */
  read(values: TextRow, at: number): T;
}

export type Columns = { readonly [name: string]: Shape<unknown> };
/** The object a statement's columns decode to. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: C[K] extends Shape<infer T> ? T : never };

/** One column: its SQL (yielding text) and how its text becomes a value. Null is refused unless `.nullable`. */
export class Column<T> implements Shape<T> {
  readonly leaves: readonly { sql: string; name: string }[];

  constructor(
    private readonly sql: string,
    private readonly decode: (text: string) => T,
    private readonly orNull = false,
  ) {
    this.leaves = [{ sql, name: "" }];
  }

  read(values: TextRow, at: number): T {
    const text = values[at];
    if (text === null || text === undefined) {
      if (this.orNull) return null as T;
      throw new Error(`a statement's column ${this.sql} is null, and it is not declared nullable`);
    }
    return this.decode(text);
  }

  /** The same column, null allowed. */
  get nullable(): Column<T | null> {
    return new Column<T | null>(this.sql, this.decode, true);
  }
}

/** A timestamp(3) column (UTC) as ISO 8601 text, exactly as Date.prototype.toISOString writes it. */
/** A timestamp parameter (ISO text) as the UTC timestamp(3) Prisma's columns hold. */
export const atUtc = (param: string) => `${param}::timestamptz AT TIME ZONE 'UTC'`;

export const isoSql = (sql: string) => `to_char(${sql}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Text (any type cast to text); `T` narrows it to the values the column can hold (an enum). */
export const text = <T extends string = string>(sql: string) => new Column<T>(`(${sql})::text`, (v) => v as T);
/** An integer that fits a JavaScript number. */
export const int = (sql: string) => new Column<number>(`(${sql})::text`, Number);
/** A float8 or numeric (a rate, a mean): its text read as a JavaScript number, as PostgreSQL wrote it (float8 text is exact since PostgreSQL 12). */
export const float = (sql: string) => new Column<number>(`(${sql})::text`, Number);
/** An int8 of micro-dollars (or any bigint), exact. */
export const micros = (sql: string) => new Column<bigint>(`(${sql})::text`, BigInt);
export const bool = (sql: string) => new Column<boolean>(`(${sql})::text`, (v) => v === "true");
/** A timestamp(3) column as a Date. */
export const date = (sql: string) => new Column<Date>(isoSql(sql), (v) => new Date(v));
/** A json or jsonb value, parsed. */
export const json = <T = unknown>(sql: string) => new Column<T>(`(${sql})::text`, (v) => JSON.parse(v) as T);

class Group<C extends Columns> implements Shape<RowOf<C>> {
  private readonly keys: string[];
  private readonly shapes: Shape<unknown>[];
  /** The columns each key's shape takes in a row (read once per row per key). */
  private readonly widths: number[];
  readonly leaves: { sql: string; name: string }[];

  constructor(columns: C) {
    this.keys = Object.keys(columns);
    this.shapes = this.keys.map((key) => columns[key]!);
    this.widths = this.shapes.map((shape) => shape.leaves.length);
    this.leaves = this.keys.flatMap((key) => columns[key]!.leaves.map((leaf) => ({ sql: leaf.sql, name: leaf.name ? `${key}.${leaf.name}` : key })));
  }

  read(values: TextRow, at: number): RowOf<C> {
    const row: Record<string, unknown> = {};
    let offset = at;
    for (let i = 0; i < this.keys.length; i++) {
      row[this.keys[i]!] = this.shapes[i]!.read(values, offset);
      offset += this.widths[i]!;
    }
    return row as RowOf<C>;
  }
}

/** Columns decoded into one object (a field of the row). */
export function group<C extends Columns>(columns: C): Shape<RowOf<C>> {
  return new Group(columns);
}

class Optional<C extends Columns> implements Shape<RowOf<C> | null> {
  private readonly inner: Group<C>;
  readonly leaves: { sql: string; name: string }[];

  constructor(columns: C, present: string) {
    this.inner = new Group(columns);
    // A marker first, then each column only when present: what is absent is never sent.
    this.leaves = [
      { sql: `CASE WHEN ${present} THEN 't' END`, name: "?" },
      ...this.inner.leaves.map((leaf) => ({ sql: `CASE WHEN ${present} THEN ${leaf.sql} END`, name: leaf.name })),
    ];
  }

  read(values: TextRow, at: number): RowOf<C> | null {
    return values[at] === null ? null : this.inner.read(values, at + 1);
  }
}

/**
 * Columns decoded into one object when the SQL condition `present` holds, else null (a left-joined
 * row that may be missing; or a row the caller already has, sent only when it changed).
 */
export function optional<C extends Columns>(columns: C, present: string): Shape<RowOf<C> | null> {
  return new Optional(columns, present);
}

/** PostgreSQL's limit on a function's arguments (json_build_array's elements). */
const MAX_PACKED = 100;

class Packed<C extends Columns> implements Shape<RowOf<C> | null> {
  private readonly inner: Group<C>;
  readonly leaves: { sql: string; name: string }[];

  constructor(columns: C, present: string) {
    this.inner = new Group(columns);
    const leaves = this.inner.leaves;
    if (leaves.length > MAX_PACKED) throw new Error(`packed(): ${leaves.length} columns, PostgreSQL's json_build_array takes at most ${MAX_PACKED}`);
    this.leaves = [{ sql: `CASE WHEN ${present} THEN json_build_array(${leaves.map((leaf) => leaf.sql).join(", ")})::text END`, name: "" }];
  }

  read(values: TextRow, at: number): RowOf<C> | null {
    const text = values[at];
    return text === null || text === undefined ? null : this.inner.read(JSON.parse(text) as TextRow, 0);
  }
}

/**
 * optional() sent as one column: the texts of the columns in one JSON array, when `present`
 * holds. For a large group a statement mostly leaves out (a run's columns, sent only when the
 * caller's version is not current): the condition is evaluated once, not once per column, and a
 * row without the group is two short columns, not fifty, for the server to make and describe and
 * the client to parse. The decoded object is the same as optional()'s.
 */
export function packed<C extends Columns>(columns: C, present: string): Shape<RowOf<C> | null> {
  return new Packed(columns, present);
}

/** What a parameter may be given as: sent as text (a Date as ISO 8601). Undefined leaves it out. */
export type Param = string | number | bigint | boolean | Date | null;

/** A parameter's placeholder in the SQL (`$n`), by name. */
export type Placeholders<P extends string> = { readonly [K in P]: string };

/** Which parameters a call gives (a statement's text may depend on it: a list's filters). */
export type Given<P extends string> = { readonly [K in P]: boolean };

type Spec<P extends string, C extends Columns> = {
  /** The statement's name on the driver starts with it: lower-case letters, digits and _. */
  label: string;
  params?: readonly P[];
  /** The columns, by name; a function when they use parameters. */
  columns?: C | ((p: Placeholders<P>) => C);
  /** The text; `select` is the rendered column list (a SELECT or a RETURNING list). */
  sql: (q: { select: string; p: Placeholders<P>; given: Given<P> }) => string;
};

/** One text of a statement: its name on the driver, its text, and the order its parameters are numbered in. */
export type Rendered = Prepared & { readonly params: readonly string[]; readonly shape: Shape<Record<string, unknown>> };

const LABEL = /^[a-z][a-z0-9_]{0,39}$/;

/** The name a statement's text runs under: its label and a hash of the text (at most 53 characters). */
export function statementName(label: string, text: string): string {
  return `${label}_${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
}

export class TypedStatement<P extends string, R> {
  private readonly texts = new Map<string, Rendered>();

  constructor(private readonly spec: Spec<P, Columns>) {
    if (!LABEL.test(spec.label)) throw new Error(`statement label "${spec.label}": lower-case letters, digits and _, at most 40`);
  }

  get label(): string {
    return this.spec.label;
  }

  get params(): readonly P[] {
    return this.spec.params ?? [];
  }

  /** The text for a call giving these parameters (made once per combination, then remembered). */
  render(given: Given<P>): Rendered {
    const key = this.params.map((name) => (given[name] ? "1" : "0")).join("");
    let rendered = this.texts.get(key);
    if (!rendered) this.texts.set(key, (rendered = this.make(given)));
    return rendered;
  }

  private make(given: Given<P>): Rendered {
    const order: string[] = [];
    const p = {} as Record<string, string>;
    for (const name of this.params) {
      Object.defineProperty(p, name, {
        enumerable: true,
        get: () => {
          if (!given[name]) throw new Error(`statement ${this.spec.label}: its text uses ${name}, which this call does not give`);
          if (!order.includes(name)) order.push(name);
          return `$${order.indexOf(name) + 1}`;
        },
      });
    }
    const columns = typeof this.spec.columns === "function" ? this.spec.columns(p as Placeholders<P>) : (this.spec.columns ?? {});
    const shape = group(columns);
    const select = shape.leaves.map((leaf) => `${leaf.sql} AS "${leaf.name}"`).join(", ");
    const text = this.spec.sql({ select, p: p as Placeholders<P>, given });
    return { name: statementName(this.spec.label, text), text, params: order, shape };
  }

  /** Runs the statement on `session` (standalone(): on its own, outside any transaction) and decodes its rows. */
  async query(session: SqlSession, values: { readonly [K in P]?: Param }): Promise<R[]> {
    const given = {} as Record<P, boolean>;
    for (const name of this.params) given[name] = values[name] !== undefined;
    const rendered = this.render(given);
    const rows = await session.query(rendered, rendered.params.map((name) => encode(values[name as P]!)));
    return rows.map((row) => rendered.shape.read(row, 0) as R);
  }

  /** The first row, or undefined. */
  async first(session: SqlSession, values: { readonly [K in P]?: Param }): Promise<R | undefined> {
    return (await this.query(session, values))[0];
  }
}

function encode(value: Param): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  return typeof value === "string" ? value : String(value);
}

// Every statement defined, for the test that checks each text's name (tests/unit/statements.test.ts).
const defined: TypedStatement<string, unknown>[] = [];

/** Every statement defined so far in this process. */
export function definedStatements(): readonly TypedStatement<string, unknown>[] {
  return defined;
}

/**
 * Declares a statement. Its rows are objects named as its columns; its parameters are given by
 * name; its text may depend on which parameters a call gives (`given`), each combination then a
 * prepared statement of its own, with its own plan.
 */
export function defineStatement<const P extends string = never, C extends Columns = Record<never, never>>(spec: Spec<P, C>): TypedStatement<P, RowOf<C>> {
  const statement = new TypedStatement<P, RowOf<C>>(spec as Spec<P, Columns>);
  defined.push(statement as TypedStatement<string, unknown>);
  return statement;
}

/** What an array element escapes; tested first, as most (ids, digits) have none and a replace copies the string. */
const ESCAPED = /[\\"]/;
const ESCAPED_ALL = /[\\"]/g;

/**
 * A list as one parameter: PostgreSQL's array literal (`{"a","b"}`, NULL for null), for
 * `${p.x}::text[]`, `::int[]` or `::bigint[]` in a statement's text (one parameter whatever the
 * length; unnest() reads several such lists side by side as rows).
 */
export function arrayParam(values: readonly (string | number | bigint | null)[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : typeof v === "string" ? `"${ESCAPED.test(v) ? v.replace(ESCAPED_ALL, "\\$&") : v}"` : String(v))).join(",")}}`;
}

/** `conditions` that are not false or empty, joined by AND (a WHERE clause from a list's filters). */
export function allOf(...conditions: (string | false | undefined | null)[]): string {
  return conditions.filter((c): c is string => typeof c === "string" && c !== "").join(" AND ");
}

export { standalone, type SqlSession };
