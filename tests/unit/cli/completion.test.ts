// Shell completion is written from the command table: every command, its options and their values
// complete, in a real bash; the zsh and fish scripts name the same words.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GLOBAL_OPTIONS, namesOf, type CommandSpec } from "@/cli/command";
import { SECTIONS } from "@/cli/commands";
import { completionScript } from "@/cli/completion";

const COMMANDS: CommandSpec[] = SECTIONS.flatMap((s) => [...s.commands]);
/** Every name a command answers to (aliases too), each with its command. */
const NAMES = COMMANDS.flatMap((command) => namesOf(command).map((words) => ({ words, command })));
const dir = mkdtempSync(path.join(tmpdir(), "geoscope-completion-"));
const bashScript = path.join(dir, "geoscope.bash");
writeFileSync(bashScript, completionScript("bash", SECTIONS));

/** What bash offers for the command line `words` (the last word is the one being completed). */
function complete(...words: string[]): string[] {
  const line = ["geoscope", ...words];
  const script = `source ${JSON.stringify(bashScript)}
COMP_WORDS=(${line.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${line.length - 1}
_geoscope; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["--norc", "--noprofile", "-c", script], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
}

describe("geoscope completion bash", () => {
  it("completes the first word with every command and group", () => {
    const firsts = [...new Set(NAMES.map((n) => n.words[0]))].sort();
    expect(complete("")).toEqual(firsts);
    expect(complete("pr")).toEqual(["pricing", "projects", "prompt"]);
  });

  it("completes a group's subcommands", () => {
    for (const group of new Set(NAMES.filter((n) => n.words.length === 2).map((n) => n.words[0]))) {
      expect(complete(group, ""), group).toEqual(NAMES.filter((n) => n.words.length === 2 && n.words[0] === group).map((n) => n.words[1]).sort());
    }
    expect(complete("analyses", "")).toEqual(["list"]);
  });

  it("completes each command's options, its own and the global ones", () => {
    for (const { words, command } of NAMES) {
      // A command's own option may share a global's name (monitor series --version N): offered once.
      const expected = [...new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(command.options ?? {})])].map((o) => `--${o}`).sort();
      expect(complete(...words, "--"), words.join(" ")).toEqual(expected);
    }
  });

  it("completes a one-word command that shares its word with a group once its argument is given", () => {
    const topic = COMMANDS.find((c) => c.words.join(" ") === "questions")!;
    const expected = [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(topic.options ?? {})].map((o) => `--${o}`).sort();
    expect(complete("questions", "best crm", "--")).toEqual(expected);
    expect(complete("questions", "--project", "pr_x", "best crm", "--co")).toEqual(["--count"]);
    expect(complete("questions", "get", "--")).not.toContain("--count");
  });

  it("completes option values and argument values the table names, after other options", () => {
    expect(complete("runs", "list", "--status", "")).toEqual(["completed", "failed", "queued", "running"]);
    expect(complete("runs", "list", "--limit", "5", "--engine", "c")).toEqual(["chatgpt", "chatgpt_app", "claude"]);
    expect(complete("--base-url", "http://x", "invitations", "create", "--role", "")).toEqual(["admin", "member"]);
    expect(complete("completion", "")).toEqual(["bash", "fish", "zsh"]);
  });
});

describe("geoscope completion zsh and fish", () => {
  it("name every command and option", () => {
    for (const shell of ["zsh", "fish"] as const) {
      const script = completionScript(shell, SECTIONS);
      for (const c of COMMANDS) {
        for (const word of namesOf(c).flat()) expect(script, `${shell}: ${word}`).toContain(word);
        for (const option of Object.keys(c.options ?? {})) expect(script, `${shell}: ${c.words.join(" ")} --${option}`).toMatch(new RegExp(`(--|-l )${option}\\b`));
      }
    }
    expect(completionScript("zsh", SECTIONS).startsWith("#compdef geoscope\n")).toBe(true);
  });
});
