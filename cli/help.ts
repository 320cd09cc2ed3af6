// `geoscope --help`, `geoscope <group> --help` and `geoscope <command> --help`, written from the
// command table.
import { GLOBAL_OPTIONS, namesOf, type CommandSpec, type OptionSpec, type Section } from "./command";

/** `--wait SECONDS`, `--wait [SECONDS]` when the value may be left out, `--raw` for a flag. */
function flag(name: string, o: Pick<OptionSpec, "type" | "arg" | "valueOptional">): string {
  if (o.type !== "string") return `--${name}`;
  const value = o.arg ?? "VALUE";
  return `--${name} ${o.valueOptional ? `[${value}]` : value}`;
}

/** The usage line; `brief` folds more than three optional options into `[options]` (the command's --help lists them). */
function usage(c: CommandSpec, brief = false): string {
  const entries = Object.entries(c.options ?? {});
  const optional = entries.filter(([, o]) => !o.required).length;
  const options = entries.flatMap(([name, o]) => {
    const text = flag(name, o);
    if (o.required) return [text];
    return brief && optional > 3 ? [] : [`[${text}]`];
  });
  if (brief && optional > 3) options.push("[options]");
  return [...c.words, ...(c.args ? [c.args] : []), ...options].join(" ");
}

function commandLines(c: CommandSpec): string {
  const line = `  ${usage(c, true)}`;
  const summary = c.aliases?.length ? `${c.summary} (also: ${c.aliases.map((a) => a.join(" ")).join(", ")})` : c.summary;
  return line.length <= 56 ? `${line.padEnd(58)}${summary}` : `${line}\n      ${summary}`;
}

const EXIT_HELP = `Exit codes
  0  success
  1  server error, unreachable server, or anything else
  2  usage error (bad command, option or argument)
  3  authentication or permission (401, 403); login denied or expired
  4  not found (404)
  5  insufficient credit (402)
  6  rate limited (429)
  7  CLI outdated (426): upgrade the CLI
  8  invalid request or conflict (400, 409)`;

function optionLines(options: Readonly<Record<string, OptionSpec & { short?: string }>>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const text = `${o.short ? `-${o.short}, ` : ""}${flag(name, o)}`;
    return `  ${text.length < 24 ? text.padEnd(24) : `${text}  `}${o.help}`;
  });
}

export function help(sections: readonly Section[]): string {
  return `geoscope: run prompts on answer engines and read what they answered, cited and searched.

Usage: geoscope <command> [arguments] [options]    (geoscope <command> --help for one command)

${sections.map((s) => [s.title, ...s.commands.map(commandLines)].join("\n")).join("\n")}

Options (every command)
${optionLines(GLOBAL_OPTIONS).join("\n")}

The login is saved in $GEOSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/geoscope, else
~/.config/geoscope (config.json, mode 0600). Errors go to stderr; with --json the error envelope
is printed on stdout too.

${EXIT_HELP}
`;
}

export function commandHelp(c: CommandSpec): string {
  const own = c.options ?? {};
  return [
    `Usage: geoscope ${usage(c)}`,
    ...(c.aliases ?? []).map((a) => `   or: geoscope ${usage({ ...c, words: a })}`),
    "",
    c.summary,
    ...(Object.keys(own).length ? ["", "Options", ...optionLines(own)] : []),
    "",
    "Options (every command): --json, --pretty, --base-url URL, --token TOKEN (geoscope --help)",
    "",
  ].join("\n");
}

/** A group's commands: its subcommands, a one-word command of the same name (`questions "TOPIC"`), and aliases in the group. */
export function groupHelp(sections: readonly Section[], group: string): string {
  const named = sections.flatMap((s) => s.commands).flatMap((c) => namesOf(c).filter((w) => w[0] === group).map((words) => ({ ...c, words, aliases: namesOf(c).filter((w) => w !== words) })));
  const heads = named.map((c) => c.words[1] ?? c.args ?? c.words[0]);
  return [`geoscope ${group}: ${heads.join(", ")}`, "", ...named.map(commandLines), "", "geoscope --help for the options every command takes.", ""].join("\n");
}
