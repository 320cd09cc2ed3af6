// What the monitor page's "What it measures" form compares: its engines as a set, and how the
// project's brands and competitors now differ from the monitor's (kept as they were when it was
// made or last changed). Its prompts are read by ../../_lib/lines.ts; a kept line's question and
// market are kept by lib/monitors/prompts.ts.
import type { Entity } from "@/lib/visibility/entities";

/** The same engines, in whatever order they were ticked. */
export function sameEngines(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a.filter(Boolean));
  const y = new Set(b.filter(Boolean));
  return x.size === y.size && [...x].every((e) => y.has(e));
}

export type EntityChanges = { added: string[]; removed: string[]; changed: string[] };

const shape = (e: Pick<Entity, "role" | "aliases" | "domains" | "case_sensitive">) =>
  JSON.stringify([e.role, [...e.aliases].sort(), [...e.domains].sort(), e.case_sensitive ?? false]);

/**
 * How the project's brands and competitors differ from the monitor's, by name (ignoring case):
 * names only the project has, names only the monitor has, and names whose role, other names or
 * domains differ. Null when they are the same.
 */
export function entityChanges(monitor: readonly Entity[], project: readonly Entity[]): EntityChanges | null {
  const key = (name: string) => name.normalize("NFC").toLowerCase();
  const mine = new Map(monitor.map((e) => [key(e.name), e]));
  const theirs = new Map(project.map((e) => [key(e.name), e]));
  const added = project.filter((e) => !mine.has(key(e.name))).map((e) => e.name);
  const removed = monitor.filter((e) => !theirs.has(key(e.name))).map((e) => e.name);
  const changed = project.filter((e) => {
    const m = mine.get(key(e.name));
    return m !== undefined && (shape(m) !== shape(e) || m.name !== e.name);
  }).map((e) => e.name);
  return added.length || removed.length || changed.length ? { added, removed, changed } : null;
}
