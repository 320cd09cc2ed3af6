// `geoscope --help`, `geoscope <group> --help` and `geoscope <command> --help`, written from the
// command table.
import { GLOBAL_OPTIONS, type CommandSpec, type Section } from "./command";

/** The usage line; `brief` folds more than three optional options into `[options]` (the command's --help lists them). */
function usage(c: CommandSpec, brief = false): string {
  const entries = Object.entries(c.options ?? {});
  const optional = entries.filter(([, o]) => !o.required).length;
  const options = entries.flatMap(([name, o]) => {
    const text = `--${name}${o.type === "string" ? ` ${o.arg ?? "VALUE"}` : ""}`;
    if (o.required) return [text];
    return brief && optional > 3 ? [] : [`[${text}]`];
  });
  if (brief && optional > 3) options.push("[options]");
  return [...c.words, ...(c.args ? [c.args] : []), ...options].join(" ");
}

function commandLines(c: CommandSpec): string {
  const line = `  ${usage(c, true)}`;
  return line.length <= 56 ? `${line.padEnd(58)}${c.summary}` : `${line}\n      ${c.summary}`;
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

function optionLines(options: Readonly<Record<string, { type: string; arg?: string; help: string; short?: string }>>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${"short" in o && o.short ? `-${o.short}, ` : ""}--${name}${o.type === "string" ? ` ${o.arg ?? "VALUE"}` : ""}`;
    return `  ${flag.length < 24 ? flag.padEnd(24) : `${flag}  `}${o.help}`;
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
    "",
    c.summary,
    ...(Object.keys(own).length ? ["", "Options", ...optionLines(own)] : []),
    "",
    "Options (every command): --json, --pretty, --base-url URL, --token TOKEN (geoscope --help)",
    "",
  ].join("\n");
}

export function groupHelp(sections: readonly Section[], group: string): string {
  const commands = sections.flatMap((s) => s.commands).filter((c) => c.words[0] === group);
  return [`geoscope ${group}: ${commands.map((c) => c.words[1]).join(", ")}`, "", ...commands.map(commandLines), "", "geoscope --help for the options every command takes.", ""].join("\n");
}
