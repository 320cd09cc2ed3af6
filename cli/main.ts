// `geoscope`: the command-line client of the research API. This file only finds the command in
// the command table (cli/commands), parses its options, runs it and turns errors into exit codes;
// the commands, their options, help and formatters live in cli/commands/<group>.ts.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliHttpError, Client, EXIT, exitCodeFor } from "./client";
import { GLOBAL_OPTIONS, namesOf, note, out, printJson, UsageError, type CommandSpec, type OptionSpec, type Values } from "./command";
import { SECTIONS } from "./commands";
import { commandHelp, groupHelp, help } from "./help";
import { cliVersion, PACK_HINT, resolveSettings, STANDALONE, type Settings } from "./config";

const COMMANDS: readonly CommandSpec[] = SECTIONS.flatMap((s) => s.commands);
const NAMES = COMMANDS.flatMap((command) => namesOf(command).map((words) => ({ words, command })));
const GROUPS = new Set(NAMES.filter((n) => n.words.length === 2).map((n) => n.words[0]));
const byKey = new Map(NAMES.map((n) => [n.words.join(" "), n.command]));

/** Options that take a value in some command; `--wait` is a flag for `prompt` and takes seconds elsewhere. */
const VALUE_OPTIONS = new Set(
  [GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options ?? {})].flatMap((o) => Object.entries(o).filter(([n, s]) => s.type === "string" && n !== "wait").map(([n]) => n)),
);

/** The command words, found before parsing because whether an option takes a value depends on the command. */
function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      const name = arg.replace(/^-+/, "");
      if (VALUE_OPTIONS.has(name)) i++;
      else if (name === "wait" && /^\d+$/.test(argv[i + 1] ?? "")) i++;
      continue;
    }
    words.push(arg);
    if (!GROUPS.has(words[0]!)) break;
  }
  return words;
}

/**
 * The command the words name, and how many words name it: a group's subcommand, else a one-word
 * command (`questions "TOPIC"` beside the group's `questions get`).
 */
function findCommand(words: string[]): { command: CommandSpec; count: number } | undefined {
  const pair = words.length === 2 ? byKey.get(words.join(" ")) : undefined;
  if (pair) return { command: pair, count: 2 };
  const single = byKey.get(words[0] ?? "");
  return single ? { command: single, count: 1 } : undefined;
}

/** `--wait` or `--wait 60` of an option whose value may be left out, as `--wait=` or `--wait=60` for parseArgs. */
function joinOptionalValues(argv: string[], specs: readonly Readonly<Record<string, OptionSpec>>[]): string[] {
  const optional = new Set(specs.flatMap((spec) => Object.entries(spec).filter(([, o]) => o.valueOptional).map(([name]) => name)));
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return [...joined, ...argv.slice(i)];
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    if (name === undefined || !optional.has(name)) joined.push(arg);
    else if (/^\d+$/.test(argv[i + 1] ?? "")) joined.push(`--${name}=${argv[++i]}`);
    else joined.push(`--${name}=`);
  }
  return joined;
}

/**
 * Parses with the command's own options (and the global ones) only, so two commands may give one
 * option name different kinds (`--wait` a flag or seconds, `--domain` once or repeated). Without a
 * known command (help, a typo) every option is accepted, so the message can name the command.
 */
function parse(argv: string[], command: CommandSpec | undefined) {
  const options: NonNullable<ParseArgsConfig["options"]> = {};
  // A command's own option wins over a global one of the same name (`monitor series --version N`), as in completion.
  const specs = command ? [GLOBAL_OPTIONS, command.options ?? {}] : [...COMMANDS.map((c) => c.options ?? {}), GLOBAL_OPTIONS];
  for (const spec of specs) {
    for (const [name, o] of Object.entries(spec)) options[name] = { type: o.type, ...("short" in o && o.short ? { short: o.short as string } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  if (!command) options.wait = { type: "string" };
  try {
    const parsed = parseArgs({ args: command ? joinOptionalValues(argv, [command.options ?? {}]) : argv, options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec(error instanceof Error ? error.message : "")?.[1];
    if (unknown) throw new UsageError(`${command ? `geoscope ${command.words.join(" ")} does not take` : "unknown option"} ${unknown}${command ? ` (its --help lists its options)` : ""}`);
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

// ---------- errors ----------

function describeError(error: CliHttpError, settings: Settings): string {
  if (error.code === "cli_outdated") {
    const needed = error.headers?.get("x-min-cli-version");
    return [
      `error: ${error.envelope.error.message}`,
      `This CLI is ${settings.version}${needed ? `; the server at ${settings.baseUrl} needs ${needed} or newer` : ""}.`,
      STANDALONE
        ? `Upgrade: install a newer geoscope-cli package (${PACK_HINT}) and run the command again.`
        : "Upgrade: from a checkout, git pull && npm install (then run the command again).",
    ].join("\n");
  }
  const hint = error.code === "unauthenticated" && !error.message.includes("geoscope login") ? "\n(run `geoscope login`, or pass --token / set GEOSCOPE_TOKEN)" : "";
  return `error: ${error.envelope.error.message}${error.envelope.error.engine ? ` (engine ${error.envelope.error.engine})` : ""}${hint}`;
}

// ---------- dispatch ----------

export async function main(argv: string[]): Promise<number> {
  let json = argv.includes("--json") || argv.includes("--pretty");
  let settings: Settings | null = null;
  try {
    const words = commandWords(argv);
    const found = findCommand(words);
    const command = found?.command;
    const { values, positionals } = parse(argv, command);
    json = Boolean(values.json || values.pretty);
    if (values.version === true) {
      out(`geoscope-cli ${cliVersion()}`);
      return EXIT.ok;
    }
    if (words[0] === "help" || (values.help && words.length === 0)) {
      out(help(SECTIONS));
      return EXIT.ok;
    }
    if (words.length === 0) {
      process.stderr.write(help(SECTIONS));
      return EXIT.usage;
    }
    if (values.help) {
      if (GROUPS.has(words[0]!) && words.length === 1) out(groupHelp(SECTIONS, words[0]!));
      else if (command) out(commandHelp(command));
      else throw new UsageError(`unknown command: ${words.join(" ")}`);
      return EXIT.ok;
    }
    if (!found) {
      if (GROUPS.has(words[0]!) && words.length < 2) throw new UsageError(`${words[0]} needs a subcommand: ${NAMES.filter((n) => n.words[0] === words[0]).map((n) => n.words[1]).join(", ")}`);
      throw new UsageError(`unknown command: ${words.join(" ")}`);
    }
    // Positionals after the command words are the command's arguments.
    const args = positionals.slice(found.count);
    settings = resolveSettings({ baseUrl: values["base-url"] as string | undefined, token: values.token as string | undefined });
    return await found.command.run({ settings, client: new Client(settings), values, args, json, pretty: Boolean(values.pretty), commands: SECTIONS });
  } catch (error) {
    if (error instanceof UsageError) {
      note(`usage error: ${error.message}\nRun geoscope --help for the commands and options.`);
      return EXIT.usage;
    }
    if (error instanceof CliHttpError) {
      if (json) printJson(error.text || JSON.stringify(error.envelope), false);
      note(settings ? describeError(error, settings) : `error: ${error.message}`);
      return exitCodeFor(error);
    }
    note(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.other;
  }
}

process.exitCode = await main(process.argv.slice(2));
