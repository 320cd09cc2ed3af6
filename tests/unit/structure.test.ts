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

// The access rule (docs/architecture.md "The data path") is written once, in
// lib/workspaces/access.ts: every read folds reachableSql into its statement. A second rule would
// show as a membership filter of its own (SQL reading memberships, a Prisma `memberships: { some`)
// or as a list of workspace ids a read is narrowed to (`workspaceId: { in`, `workspace_id = ANY(`).
describe("the access rule", () => {
  const ACCESS = "lib/workspaces/access.ts";
  const code = [...libFiles, ...filesUnder("app"), ...filesUnder("inngest")];
  const offending = (pattern: RegExp, allowed: (file: string) => boolean) =>
    code.filter((f) => !allowed(f) && pattern.test(readFileSync(path.join(ROOT, f), "utf8")));

  it("is written once: nothing else reads memberships in SQL or filters by them in Prisma", () => {
    expect(offending(/\b(?:FROM|JOIN)\s+"?memberships"?\b/i, (f) => f === ACCESS)).toEqual([]);
    expect(offending(/\bmemberships\s*:\s*\{\s*(?:some|every|none)\b/, (f) => f === ACCESS)).toEqual([]);
  });

  it("is not narrowed to a list of workspace ids fetched beforehand", () => {
    expect(offending(/\bworkspaceId\s*:\s*\{\s*in\s*:/, () => false)).toEqual([]);
    expect(offending(/\bworkspace_id\s*(?:=\s*ANY\s*\(|IN\s*\()/i, (f) => f === ACCESS)).toEqual([]);
  });

  it("is the only place that reads memberships through Prisma, besides the workspace's own people (lib/workspaces)", () => {
    expect(offending(/\.membership\.(?:find|count|aggregate|groupBy)/, (f) => f.startsWith("lib/workspaces/"))).toEqual([]);
  });

  it("is the one exported: access.ts defines reachableSql and no other SQL form of it", () => {
    const text = readFileSync(path.join(ROOT, ACCESS), "utf8");
    expect(text).toMatch(/export const reachableSql\b/);
    expect([...text.matchAll(/export (?:const|function) (\w*Sql)\b/g)].map((m) => m[1])).toEqual(["reachableSql"]);
    expect(offending(/export (?:const|function) (?:reachable|inReachable)\w*/, (f) => f === ACCESS)).toEqual([]);
  });
});

// docs/architecture.md "Who owns which table": each table's owner (a file, or a folder ending in
// "/") and what still touches it outside the owner. A file touches a table when it reads it (FROM),
// writes it (INSERT INTO, UPDATE, DELETE FROM) or calls its Prisma model; a JOIN for a column does not.
describe("who owns which table", () => {
  const doc = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Who owns which table"), doc.indexOf("\n## ", doc.indexOf("## Who owns which table") + 5));
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const rows = section
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .flatMap((line) => {
      const [tables, owner, style, also] = line.split("|").slice(1, 5).map((c) => c.trim());
      return ticked(tables!).map((table) => ({ table, owner: ticked(owner!)[0]!, style: style!, also: ticked(also ?? "") }));
    });
  const schema = readFileSync(path.join(ROOT, "prisma", "schema.prisma"), "utf8");
  const models = [...schema.matchAll(/^model (\w+) \{[\s\S]*?@@map\("(\w+)"\)/gm)].map((m) => ({ model: m[1]!, table: m[2]! }));
  const code = [...libFiles, ...filesUnder("app"), ...filesUnder("inngest")].map((f) => ({ f, text: readFileSync(path.join(ROOT, f), "utf8") }));
  const PRISMA_CALLS =
    "findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy";
  const sqlOn = (table: string) => new RegExp(`\\b(?:FROM|INTO|UPDATE)\\s+"?${table}"?(?![\\w"])`);
  const prismaOn = (model: string) => new RegExp(`\\.${model[0]!.toLowerCase()}${model.slice(1)}\\.(?:${PRISMA_CALLS})\\(`);
  const touching = (model: string, table: string) => code.filter(({ text }) => sqlOn(table).test(text) || prismaOn(model).test(text)).map(({ f }) => f);
  const within = (file: string, place: string) => (place.endsWith("/") ? file.startsWith(place) : file === place);

  it("lists every table of the schema once, with an owner that exists", () => {
    expect(models.length).toBeGreaterThan(20);
    expect(rows.map((r) => r.table).sort()).toEqual(models.map((m) => m.table).sort());
    for (const r of rows) {
      expect(statSync(path.join(ROOT, r.owner)), `${r.table}'s owner ${r.owner}`).toBeTruthy();
    }
  });

  it("has no second owner: nothing outside the owner touches a table unless the list names it", () => {
    const strays = models.flatMap(({ model, table }) => {
      const row = rows.find((r) => r.table === table)!;
      return touching(model, table)
        .filter((f) => !within(f, row.owner) && !row.also.some((place) => within(f, place)))
        .map((f) => `${table}: ${f}`);
    });
    expect(strays).toEqual([]);
  });

  it("reaches each table in one style, its own: typed statements or Prisma, never both", () => {
    expect(rows.every((r) => r.style === "typed" || r.style === "Prisma"), "each style is typed or Prisma").toBe(true);
    const mixed = models.flatMap(({ model, table }) => {
      const { style } = rows.find((r) => r.table === table)!;
      const other = style === "typed" ? prismaOn(model) : sqlOn(table);
      const raw = /\$(?:queryRaw|executeRaw)(?:Unsafe)?\b/;
      return code
        .filter(({ text }) => other.test(text) || (style === "typed" && raw.test(text) && sqlOn(table).test(text)))
        .map(({ f }) => `${table} (${style}): ${f}`);
    });
    expect(mixed).toEqual([]);
  });

  it("lists only what still touches the table outside its owner (a moved statement leaves the list)", () => {
    const stale = models.flatMap(({ model, table }) => {
      const files = touching(model, table);
      return rows.find((r) => r.table === table)!.also.filter((place) => !files.some((f) => within(f, place))).map((place) => `${table}: ${place}`);
    });
    expect(stale).toEqual([]);
  });
});

// docs/architecture.md "The shape of a domain": which of create.ts, read.ts, present.ts and jobs/
// each domain folder has (a mark: it has it; a dash: it has none, and the row says why), and the
// rules every domain keeps: a route file reaches a domain only through its create.ts (requests that
// change something) or read.ts (reads); a presenter takes rows and answers JSON, reading nothing;
// lib/ builds no route handler; and the map of the tree (the folder table) names every file.
describe("the shape of a domain", () => {
  const doc = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
  const sectionOf = (title: string) => {
    const start = doc.indexOf(title);
    expect(start, `docs/architecture.md has "${title}"`).toBeGreaterThan(-1);
    const end = doc.indexOf("\n## ", start + title.length);
    return doc.slice(start, end === -1 ? undefined : end);
  };
  const PARTS = ["create.ts", "read.ts", "present.ts", "jobs"] as const;
  const shapes = sectionOf("## The shape of a domain")
    .split("\n")
    .filter((line) => /^\| `lib\/\w+\/` \|/.test(line))
    .map((line) => {
      const cells = line.split("|").slice(1, -1).map((c) => c.trim());
      return { folder: cells[0]!.replaceAll("`", ""), marks: PARTS.map((_, i) => cells[i + 1]!) };
    });
  const domains = shapes.map((s) => s.folder);
  const domainOf = (file: string) => domains.find((d) => file.startsWith(d));

  it("lists domain folders that exist, each part marked ✓ exactly when the folder has it", () => {
    expect(domains.length).toBeGreaterThan(10);
    const wrong = shapes.flatMap(({ folder, marks }) =>
      PARTS.flatMap((part, i) => {
        const has = (() => {
          try {
            return statSync(path.join(ROOT, folder, part)) !== undefined;
          } catch {
            return false;
          }
        })();
        const marked = marks[i]!.startsWith("✓");
        // A domain without background work has no jobs/ to explain; a missing create, read or present says why.
        const explained = /^—\s*\S/.test(marks[i]!) || (part === "jobs" && marks[i] === "—");
        if (!marked && !explained) return [`${folder}${part}: neither ✓ nor "— why"`];
        return has === marked ? [] : [`${folder}${part}: ${marked ? "marked ✓ but missing" : "marked — but present"}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("lets route files reach a domain only through its create.ts or read.ts", () => {
    const routes = filesUnder("app/api/v1").filter((f) => f.endsWith("/route.ts"));
    const strays = routes.flatMap((f) =>
      importsOf(f, true)
        .filter((t) => domainOf(t) !== undefined && !/\/(create|read)\.ts$/.test(t))
        .map((t) => `${f} -> ${t}`),
    );
    expect(strays).toEqual([]);
  });

  it("keeps presenters free of reads: no database module, no store, no read.ts or create.ts", () => {
    const reading = (t: string) => t.startsWith("lib/db/") || /\/(read|create|store)\.ts$/.test(t);
    const strays = libFiles
      .filter((f) => f.endsWith("/present.ts"))
      .flatMap((f) => importsOf(f).filter(reading).map((t) => `${f} -> ${t}`));
    expect(strays).toEqual([]);
  });

  it("builds route handlers only in app/: nothing in lib/ but lib/http imports the route wrapper", () => {
    expect(libFiles.filter((f) => !f.startsWith("lib/http/") && importsOf(f, true).includes("lib/http/route.ts"))).toEqual([]);
  });

  it("maps every file and folder of lib/: each is named in its folder's row of the folder table", () => {
    const rows = sectionOf("## The layers").split("\n").filter((line) => line.startsWith("| `lib/"));
    const missing = readdirSync(path.join(ROOT, "lib"))
      .filter((name) => statSync(path.join(ROOT, "lib", name)).isDirectory())
      .flatMap((folder) => {
        const row = rows.find((line) => line.split("|")[1]!.includes(`\`lib/${folder}/\``));
        if (!row) return [`lib/${folder}/: no row`];
        const named = new Set([...row.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "")));
        return readdirSync(path.join(ROOT, "lib", folder))
          .filter((name) => name !== "generated")
          .filter((name) => !named.has(name) && !named.has(name.replace(/\.(ts|tsx|mjs)$/, "")))
          .map((name) => `lib/${folder}/${name}`);
      });
    expect(missing).toEqual([]);
  });
});
