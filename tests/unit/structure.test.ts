// The shape of lib/ that docs/architecture.md promises (#43), read from the code's own imports: no
// import cycle; the job registry imported only where work starts (the server's start, the Inngest
// route), so code that queues work never pulls in every job; a domain's presenter never imports its
// reads (rows in, JSON out: the reads may call the presenters, never the other way).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return name === "generated" ? [] : filesUnder(rel);
    return /\.(ts|tsx)$/.test(name) ? [rel] : [];
  });
}

/**
 * The files of the tree a file imports statically (`import … from`, `export … from`; not
 * `import()`), with `import type` too when `types` (it makes no cycle at run time, but it ties a
 * module to another all the same).
 */
function importsOf(file: string, types = false): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const out: string[] = [];
  const pattern = types ? /^(?:import|export)\s+(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm : /^(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of text.matchAll(pattern)) {
    const spec = m[1]!;
    let target: string;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.join(path.dirname(file), spec);
    else continue;
    for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")]) {
      try {
        if (statSync(path.join(ROOT, candidate)).isFile()) {
          out.push(path.normalize(candidate));
          break;
        }
      } catch {
        // not this one
      }
    }
  }
  return out;
}

const libFiles = filesUnder("lib");
const graph = new Map(libFiles.map((f) => [f, importsOf(f).filter((t) => t.startsWith("lib/"))]));

/** Strongly connected components of more than one file (Tarjan): the import cycles. */
function cycles(): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

describe("lib/'s imports", () => {
  it("have no cycle", () => {
    expect(cycles()).toEqual([]);
  });

  it("bring in the job registry only where work starts", () => {
    const importers = [...libFiles, ...filesUnder("app"), ...filesUnder("inngest")].filter((f) => importsOf(f).includes("lib/work/registry.ts"));
    expect(importers.sort()).toEqual(["inngest/functions/jobs.ts", "lib/work/start.ts"]);
  });

  it("never let a domain's presenter import its reads: rows in, JSON out", () => {
    const upward = libFiles
      .filter((f) => f.endsWith("/present.ts"))
      .flatMap((f) => importsOf(f, true).filter((t) => t === path.join(path.dirname(f), "read.ts")).map((t) => `${f} -> ${t}`));
    expect(upward).toEqual([]);
  });
});
