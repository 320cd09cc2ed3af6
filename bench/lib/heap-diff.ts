// Compares two V8 heap snapshots (a server's, from bench/mixed-load.ts with BENCH_HEAP_SNAPSHOTS):
// the live heap in each (a snapshot is taken after a full garbage collection, so it holds only
// what is reachable) and the constructors whose objects grew most between them.
// Run: tsx bench/lib/heap-diff.ts before.heapsnapshot after.heapsnapshot [top]
import { readFileSync } from "node:fs";

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
};

function byConstructor(file: string): { total: number; groups: Map<string, { count: number; size: number }> } {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const groups = new Map<string, { count: number; size: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const size = snap.nodes[i + sizeAt]!;
    total += size;
    // Objects by constructor name; strings, code, arrays and the rest by their type.
    const key = type === "object" || type === "closure" ? `${type} ${snap.strings[snap.nodes[i + nameAt]!]}` : type;
    const g = groups.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += size;
    groups.set(key, g);
  }
  return { total, groups };
}

const [beforeFile, afterFile, topArg] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error("usage: tsx bench/lib/heap-diff.ts before.heapsnapshot after.heapsnapshot [top]");
const mib = (n: number) => (n / 2 ** 20).toFixed(2);
const before = byConstructor(beforeFile);
const after = byConstructor(afterFile);
console.log(`live heap: ${mib(before.total)} MiB → ${mib(after.total)} MiB (${after.total >= before.total ? "+" : ""}${mib(after.total - before.total)} MiB)`);
const rows = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((key) => {
  const b = before.groups.get(key) ?? { count: 0, size: 0 };
  const a = after.groups.get(key) ?? { count: 0, size: 0 };
  return { key, dCount: a.count - b.count, dSize: a.size - b.size, count: a.count, size: a.size };
});
rows.sort((x, y) => y.dSize - x.dSize);
console.log("grew most (size, count):");
for (const r of rows.slice(0, Number(topArg ?? 25))) console.log(`  ${mib(r.dSize).padStart(8)} MiB  ${String(r.dCount).padStart(8)} objects  now ${mib(r.size)} MiB in ${r.count}  ${r.key.slice(0, 120)}`);
