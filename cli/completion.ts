// Shell completion scripts for bash, zsh and fish, written from the command table: the command
// words, each command's options, and the values an option (or a first argument) takes. A command
// added to a module of cli/commands completes with no change here.
import { GLOBAL_OPTIONS, namesOf, type OptionSpec, type Section } from "./command";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

type Flat = { key: string; words: readonly string[]; summary: string; options: Record<string, OptionSpec>; argValues: readonly string[] };

/** Every name of every command (an alias is one more entry), with its options. */
function flatten(sections: readonly Section[]): Flat[] {
  return sections.flatMap((s) => s.commands).flatMap((c) =>
    namesOf(c).map((words) => ({
      key: words.join(" "),
      words,
      summary: c.summary,
      options: { ...GLOBAL_OPTIONS, ...(c.options ?? {}) },
      argValues: c.argValues ?? [],
    })),
  );
}

/** A group's second words. */
const subcommands = (flat: Flat[], group: string) => flat.filter((f) => f.words.length === 2 && f.words[0] === group);

const groupsOf = (flat: Flat[]) => [...new Set(flat.filter((c) => c.words.length === 2).map((c) => c.words[0]!))];

/** The first words: top-level commands and group names, each with what it is for. */
function firstWords(flat: Flat[]): [string, string][] {
  const seen = new Map<string, string>();
  for (const c of flat) {
    const [first] = c.words;
    if (seen.has(first!)) continue;
    const subs = subcommands(flat, first!);
    seen.set(first!, subs.length ? subs.map((f) => f.words[1]).join(", ") : c.summary);
  }
  return [...seen];
}

/**
 * The `case "$key"` lines of bash and zsh: each command's options and argument values. A one-word
 * command whose word is also a group's (`questions "TOPIC"` beside `questions get`) is matched
 * last, by its word and any second word the subcommands did not take.
 */
function keyCases(flat: Flat[], set: (c: Flat) => string): string[] {
  const groups = groupsOf(flat);
  const shared = flat.filter((c) => c.words.length === 1 && groups.includes(c.words[0]!));
  return [
    ...flat.map((c) => `    ${quote(c.key)}) ${set(c)} ;;`),
    ...shared.map((c) => `    ${quote(`${c.key} `)}*) ${set(c)} ;;`),
  ];
}

/** Options that take a value, with the values to offer (empty: anything). `--wait` is a flag for `prompt`, so it is left out. */
function valueOptions(flat: Flat[]): Map<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const c of flat) {
    for (const [name, spec] of Object.entries(c.options)) {
      if (spec.type !== "string" || name === "wait") continue;
      if (!map.has(name) || (map.get(name)!.length === 0 && spec.values)) map.set(name, spec.values ?? []);
    }
  }
  return map;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const words = (list: readonly string[]) => list.join(" ");

function bash(flat: Flat[]): string {
  const values = valueOptions(flat);
  const groups = groupsOf(flat);
  return `# geoscope completion for bash. Load it with: source <(geoscope completion bash)
_geoscope() {
  local cur prev cmd="" sub="" i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      ${[...values.keys()].map((n) => `--${n}`).join("|")}) ((i++)); continue ;;
      -*) continue ;;
    esac
    if [[ -z "$cmd" ]]; then cmd="$w"
    elif [[ -z "$sub" ]]; then case " ${words(groups)} " in *" $cmd "*) sub="$w" ;; *) break ;; esac
    fi
  done
  case "$prev" in
${[...values].map(([n, v]) => `    --${n}) COMPREPLY=($(compgen -W ${quote(words(v))} -- "$cur")); return ;;`).join("\n")}
  esac
  if [[ -z "$cmd" ]]; then
    [[ "$cur" == -* ]] && COMPREPLY=($(compgen -W ${quote(words(Object.keys(GLOBAL_OPTIONS).map((o) => `--${o}`)))} -- "$cur")) || COMPREPLY=($(compgen -W ${quote(words(firstWords(flat).map(([w]) => w)))} -- "$cur"))
    return
  fi
  local key="$cmd"
  case " ${words(groups)} " in
    *" $cmd "*)
      if [[ -n "$sub" ]]; then key="$cmd $sub"
      elif [[ "$cur" != -* ]]; then
        case "$cmd" in
${groups.map((g) => `          ${g}) COMPREPLY=($(compgen -W ${quote(words(subcommands(flat, g).map((c) => c.words[1]!)))} -- "$cur")) ;;`).join("\n")}
        esac
        return
      fi ;;
  esac
  local opts="" args=""
  case "$key" in
${keyCases(flat, (c) => `opts=${quote(words(Object.keys(c.options).map((o) => `--${o}`)))}; args=${quote(words(c.argValues))}`).join("\n")}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n "$args" ]]; then COMPREPLY=($(compgen -W "$args" -- "$cur"))
  fi
}
complete -F _geoscope geoscope
`;
}

function zsh(flat: Flat[]): string {
  const values = valueOptions(flat);
  const groups = groupsOf(flat);
  const described = (pairs: [string, string][]) => pairs.map(([w, d]) => quote(`${w}:${d.replace(/:/g, "\\:")}`)).join(" ");
  return `#compdef geoscope
# geoscope completion for zsh. Load it (after compinit) with: source <(geoscope completion zsh)
# (or save it as _geoscope in a folder of $fpath).
_geoscope() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmd="" sub="" i w
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$w" in
      ${[...values.keys()].map((n) => `--${n}`).join("|")}) ((i++)); continue ;;
      -*) continue ;;
    esac
    if [[ -z "$cmd" ]]; then cmd="$w"
    elif [[ -z "$sub" ]]; then case " ${words(groups)} " in *" $cmd "*) sub="$w" ;; *) break ;; esac
    fi
  done
  case "$prev" in
${[...values].map(([n, v]) => `    --${n}) ${v.length ? `compadd -- ${words(v)}` : "_default"}; return ;;`).join("\n")}
  esac
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then compadd -- ${words(Object.keys(GLOBAL_OPTIONS).map((o) => `--${o}`))}
    else local -a cmds; cmds=(${described(firstWords(flat))}); _describe command cmds
    fi
    return
  fi
  local key="$cmd"
  case " ${words(groups)} " in
    *" $cmd "*)
      if [[ -n "$sub" ]]; then key="$cmd $sub"
      elif [[ "$cur" != -* ]]; then
        local -a subs
        case "$cmd" in
${groups.map((g) => `          ${g}) subs=(${described(subcommands(flat, g).map((c) => [c.words[1]!, c.summary]))}) ;;`).join("\n")}
        esac
        _describe subcommand subs
        return
      fi ;;
  esac
  local -a opts args
  case "$key" in
${keyCases(flat, (c) => `opts=(${words(Object.keys(c.options).map((o) => `--${o}`))}); args=(${words(c.argValues)})`).join("\n")}
  esac
  if [[ "$cur" == -* ]]; then compadd -- $opts
  elif (( \${#args} )); then compadd -- $args
  fi
}
if [[ "$funcstack[1]" == "_geoscope" ]]; then _geoscope "$@"; else compdef _geoscope geoscope; fi
`;
}

function fish(flat: Flat[]): string {
  const lines = ["# geoscope completion for fish. Load it with: geoscope completion fish | source", "complete -c geoscope -f"];
  const firsts = firstWords(flat);
  const firstList = words(firsts.map(([w]) => w));
  for (const [w, d] of firsts) lines.push(`complete -c geoscope -n "not __fish_seen_subcommand_from ${firstList}" -a ${quote(w)} -d ${quote(d)}`);
  const option = (name: string, spec: OptionSpec, condition: string | null) => {
    const parts = ["complete -c geoscope"];
    if (condition) parts.push(`-n ${quote(condition)}`);
    parts.push(`-l ${name}`);
    if (name === "help") parts.push("-s h");
    // No option takes a file: -f keeps fish from offering files for the value.
    if (spec.type === "string") parts.push("-r -f");
    if (spec.values?.length) parts.push(`-a ${quote(words(spec.values))}`);
    parts.push(`-d ${quote(spec.help)}`);
    return parts.join(" ");
  };
  for (const [name, spec] of Object.entries(GLOBAL_OPTIONS)) lines.push(option(name, spec, null));
  for (const c of flat) {
    let seen: string;
    const siblings = words(subcommands(flat, c.words[0]!).map((f) => f.words[1]!));
    if (c.words.length === 2) {
      lines.push(`complete -c geoscope -n ${quote(`__fish_seen_subcommand_from ${c.words[0]}; and not __fish_seen_subcommand_from ${siblings}`)} -a ${quote(c.words[1]!)} -d ${quote(c.summary)}`);
      seen = `__fish_seen_subcommand_from ${c.words[0]}; and __fish_seen_subcommand_from ${c.words[1]}`;
    } else seen = siblings ? `__fish_seen_subcommand_from ${c.words[0]}; and not __fish_seen_subcommand_from ${siblings}` : `__fish_seen_subcommand_from ${c.words[0]}`;
    for (const [name, spec] of Object.entries(c.options)) if (!(name in GLOBAL_OPTIONS)) lines.push(option(name, spec, seen));
    if (c.argValues.length) lines.push(`complete -c geoscope -n ${quote(seen)} -a ${quote(words(c.argValues))}`);
  }
  return `${lines.join("\n")}\n`;
}

export function completionScript(shell: Shell, sections: readonly Section[]): string {
  const flat = flatten(sections);
  return shell === "bash" ? bash(flat) : shell === "zsh" ? zsh(flat) : fish(flat);
}
