// `geoscope`: the command-line client of the research API. This file only finds the command in
// the command table (cli/commands), parses its options, runs it and turns errors into exit codes;
// the commands, their options, help and formatters live in cli/commands/<group>.ts.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliHttpError, Client, EXIT, exitCodeFor } from "./client";
import { GLOBAL_OPTIONS, note, out, printJson, UsageError, type CommandSpec, type Values } from "./command";
import { SECTIONS } from "./commands";
import { commandHelp, groupHelp, help } from "./help";
import { cliVersion, PACK_HINT, resolveSettings, STANDALONE, type Settings } from "./config";

const COMMANDS: readonly CommandSpec[] = SECTIONS.flatMap((s) => s.commands);
const GROUPS = new Set(COMMANDS.filter((c) => c.words.length === 2).map((c) => c.words[0]));
const byKey = new Map(COMMANDS.map((c) => [c.words.join(" "), c]));

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
 * Parses with the command's own options (and the global ones) only, so two commands may give one
 * option name different kinds (`--wait` a flag or seconds, `--domain` once or repeated). Without a
 * known command (help, a typo) every option is accepted, so the message can name the command.
 */
function parse(argv: string[], command: CommandSpec | undefined) {
  const options: NonNullable<ParseArgsConfig["options"]> = {};
  const specs = command ? [command.options ?? {}, GLOBAL_OPTIONS] : [...COMMANDS.map((c) => c.options ?? {}), GLOBAL_OPTIONS];
  for (const spec of specs) {
    for (const [name, o] of Object.entries(spec)) options[name] = { type: o.type, ...("short" in o && o.short ? { short: o.short as string } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  if (!command) options.wait = { type: "string" };
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
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
    const key = GROUPS.has(words[0] ?? "") ? words.join(" ") : (words[0] ?? "");
    const command = byKey.get(key);
    const { values, positionals } = parse(argv, command);
    json = Boolean(values.json || values.pretty);
    if (values.version) {
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
      if (command) out(commandHelp(command));
      else if (GROUPS.has(words[0]!) && words.length === 1) out(groupHelp(SECTIONS, words[0]!));
      else throw new UsageError(`unknown command: ${words.join(" ")}`);
      return EXIT.ok;
    }
    if (GROUPS.has(words[0]!) && words.length < 2) throw new UsageError(`${words[0]} needs a subcommand: ${COMMANDS.filter((c) => c.words[0] === words[0]).map((c) => c.words[1]).join(", ")}`);
    if (!command) throw new UsageError(`unknown command: ${key}`);
    // Positionals after the command words are the command's arguments.
    const args = positionals.slice(command.words.length);
    settings = resolveSettings({ baseUrl: values["base-url"] as string | undefined, token: values.token as string | undefined });
    return await command.run({ settings, client: new Client(settings), values, args, json, pretty: Boolean(values.pretty), commands: SECTIONS });
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
