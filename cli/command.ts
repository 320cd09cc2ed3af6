// What every command module shares: the shape of a command in the command table (its words,
// arguments, options and help, from which main.ts parses, `--help` is written and shell
// completion is generated), the context a command runs with, and the output helpers.
import { readFileSync } from "node:fs";
import { inEngineOrder } from "../lib/order";
import type { EndpointDefinition } from "../lib/schemas/endpoint";
import { Client, type ApiResult, type CallInput } from "./client";
import type { Settings } from "./config";

export class UsageError extends Error {}

export type OptionSpec = {
  type: "string" | "boolean";
  /** The value's placeholder in help (`ws_…`, `N`). */
  arg?: string;
  help: string;
  /** Values shell completion offers. */
  values?: readonly string[];
  /** Shown without brackets in the usage line; the command itself checks it. */
  required?: boolean;
  /** May be given more than once (`--brand A --brand B`); read with `strs`. */
  multiple?: boolean;
  /** Its value, a whole number, may be left out (`--wait` or `--wait 60`); left out, it reads as "". */
  valueOptional?: boolean;
};

export type Words = readonly [string] | readonly [string, string];

export type CommandSpec = {
  /** `["whoami"]` or `["runs", "list"]`. */
  words: Words;
  /** Other words for the same command (`analyses list` for `analysis list`). */
  aliases?: readonly Words[];
  /** The positional arguments as shown in usage: `dr_…`, `"TEXT"`, `ws_… MEMBER_ID admin|member`. */
  args?: string;
  summary: string;
  options?: Readonly<Record<string, OptionSpec>>;
  /** Values shell completion offers for the first argument. */
  argValues?: readonly string[];
  run(ctx: Ctx): Promise<number>;
};

/** Every name a command answers to: its words, then its aliases. */
export function namesOf(c: CommandSpec): readonly Words[] {
  return [c.words, ...(c.aliases ?? [])];
}

/** A part of `geoscope --help`, one module of cli/commands. */
export type Section = { title: string; commands: readonly CommandSpec[] };

export type Values = Record<string, string | boolean | string[] | undefined>;

export type Ctx = {
  settings: Settings;
  client: Client;
  values: Values;
  args: string[];
  json: boolean;
  pretty: boolean;
  /** The whole command table (for `completion`). */
  commands: readonly Section[];
};

// ---------- options every command takes ----------

export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec & { short?: string }>> = {
  json: { type: "boolean", help: "print exactly the API's response body on stdout, nothing else" },
  pretty: { type: "boolean", help: "like --json, indented" },
  "base-url": { type: "string", arg: "URL", help: "API address (env GEOSCOPE_BASE_URL; default http://localhost:3000/api/v1)" },
  token: { type: "string", arg: "TOKEN", help: "API key (gsk_…) or CLI token (gsc_…) (env GEOSCOPE_TOKEN; else the saved login)" },
  version: { type: "boolean", help: "this CLI's version (asks no server; `geoscope version` does)" },
  help: { type: "boolean", short: "h", help: "help: for everything, a group (`geoscope runs --help`) or one command" },
};

// ---------- output ----------

export function out(text: string) {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}
export function note(text: string) {
  process.stderr.write(`${text}\n`);
}

/** The body exactly as sent (a newline added only on a terminal), or reindented with --pretty. */
export function printJson(text: string, pretty: boolean) {
  if (pretty) {
    try {
      out(JSON.stringify(JSON.parse(text), null, 2));
      return;
    } catch {
      /* not JSON: print as sent */
    }
  }
  process.stdout.write(text);
  if (process.stdout.isTTY && text && !text.endsWith("\n")) process.stdout.write("\n");
}

/** Calls an endpoint with the context's client. */
export function request<const E extends EndpointDefinition>(ctx: Ctx, endpoint: E, ...args: {} extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]) {
  return ctx.client.call(endpoint, ...args);
}

/** Prints the body as sent for --json, else hands the parsed body to the human formatter. */
export function show<E extends EndpointDefinition>(ctx: Ctx, result: ApiResult<E>, human: (body: ApiResult<E>["body"]) => string | null) {
  if (ctx.json) return printJson(result.text, ctx.pretty);
  const text = human(result.body);
  if (text !== null) out(text);
}

export function table(rows: readonly object[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : String(v));
  const get = (row: object, c: string) => cell((row as Record<string, unknown>)[c]);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => get(r, c).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => get(r, c))))].join("\n");
}

/** The words of `text` on lines of at most `width` characters (a longer word has a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

export { inEngineOrder };

/** Engine ids in the engines' one order (inEngineOrder). */
export function enginesInOrder(engines: readonly string[]): string[] {
  return inEngineOrder(engines, (e) => e);
}

export function truncate(text: string, max: number) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function date(iso: string | null | undefined): string | null {
  return typeof iso === "string" ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : null;
}

// ---------- arguments ----------

/**
 * The items of a `--file FILE` (`-`: standard input), one a line: each line trimmed, blank lines
 * and `#` comment lines skipped. Standard input is read only when asked for: an agent's stdin that
 * never closes must not make a command hang. One reading for every command that takes a file.
 */
export function linesOfFile(file: string): string[] {
  return readFileSync(file === "-" ? 0 : file, "utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export function arg(ctx: Ctx, index: number, what: string): string {
  const value = ctx.args[index];
  if (value === undefined || value === "") throw new UsageError(`missing ${what}`);
  return value;
}

export function noExtraArgs(ctx: Ctx, count: number) {
  if (ctx.args.length > count) throw new UsageError(`unexpected argument: ${ctx.args[count]}`);
}

export function str(ctx: Ctx, name: string): string | undefined {
  const value = ctx.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value of an option that may be given more than once, in the order given. */
export function strs(ctx: Ctx, name: string): string[] {
  const value = ctx.values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

export function intOption(ctx: Ctx, name: string): number | undefined {
  const value = str(ctx, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** `--project pr_…` of the work-starting commands (`opt.project`). */
export function projectOf(ctx: Ctx): string {
  const project = str(ctx, "project");
  if (!project) throw new UsageError("--project pr_… is required (see `geoscope projects list`)");
  return project;
}

/** `--wait SECONDS` of the GET commands. */
export function waitOption(ctx: Ctx): number | undefined {
  const wait = ctx.values.wait;
  if (wait === undefined) return undefined;
  if (typeof wait !== "string" || !/^\d+$/.test(wait)) throw new UsageError("--wait takes a number of seconds (0 to 30)");
  return Number(wait);
}

/** `--wait [SECONDS]`: undefined without it, Infinity for a bare `--wait` (until finished), else the seconds. */
export function waitBudget(ctx: Ctx): number | undefined {
  const wait = ctx.values.wait;
  if (wait === undefined) return undefined;
  if (wait === "") return Infinity;
  if (typeof wait !== "string" || !/^\d+$/.test(wait)) throw new UsageError("--wait takes a number of seconds, or nothing to wait until it has finished");
  return Number(wait);
}

/**
 * Asks again with `?wait=` (at most 30 s, never past `deadline`) until the object has finished or
 * the time is spent, saying each new status on stderr; answers the last response.
 */
export async function followUntilFinished<R extends { body: { id: string; status: string } }>(
  first: R,
  deadline: number,
  describe: (body: R["body"]) => string,
  again: (id: string, waitSeconds: number) => Promise<R>,
): Promise<R> {
  let current = first;
  let last = "";
  for (;;) {
    const progress = describe(current.body);
    if (progress !== last) note(progress);
    last = progress;
    const left = Math.ceil((deadline - Date.now()) / 1000);
    if (current.body.status === "completed" || current.body.status === "failed" || left <= 0) return current;
    current = await again(current.body.id, Math.min(30, left));
  }
}

// ---------- option specs used by several commands ----------

export const opt = {
  project: { type: "string", arg: "pr_…", required: true, help: "the project the work belongs to (see `geoscope projects list`)" },
  workspace: { type: "string", arg: "ws_…", help: "a workspace you belong to (default: your personal one, or the API key's)" },
  limit: { type: "string", arg: "N", help: "page size, 1 to 200 (default 50)" },
  cursor: { type: "string", arg: "C", help: "the next page: the `more: --cursor …` a previous page printed" },
  wait: { type: "string", arg: "SECONDS", help: "hold until it has finished, up to 0 to 30 seconds" },
} as const satisfies Record<string, OptionSpec>;
