// Benchmark: the pure computation of a visibility analysis (lib/visibility) over 10,000 completed
// runs × 5 tracked entities, with answers built in memory like the simulator's (1.5–3 KB: an
// opener that sometimes quotes the prompt, numbered or bulleted lists of brands from a catalogue,
// prose naming several, now and then a sentence saying nothing was found about one). No database:
// this is the part of POST /visibility-analyses that must leave room for reading the answers
// (bench:visibility measures the whole against a bare SELECT of the answer texts).
// Prints the workload, each round's time and phase split, the median of the rounds with their
// spread, and the cores. Run: npm run bench:visibility-compute [-- --runs N] [--rounds N]
import { computeVisibilityAnalysis } from "@/lib/visibility";
import { loadAverage, machine, spread } from "./lib/rounds";
import { buildRuns, entities } from "./lib/visibility-answers";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = arg("--runs", 10_000);
const ROUNDS = arg("--rounds", 3);
const runs = buildRuns(RUNS);
const bytes = runs.reduce((s, r) => s + Buffer.byteLength(r.answer ?? ""), 0);
console.log(`workload: ${RUNS} runs × ${entities.length} entities, answers ${(bytes / RUNS / 1024).toFixed(2)} KB on average (${(bytes / 2 ** 20).toFixed(1)} MiB), ${new Set(runs.map((r) => r.prompt)).size} prompts, ${ROUNDS} rounds`);
console.log(`machine: ${machine()}; load ${loadAverage()}`);

// A warm-up round, then the measured ones.
computeVisibilityAnalysis(runs, { entities });
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const times: number[] = [];
const cpu: number[] = [];
let last: ReturnType<typeof computeVisibilityAnalysis> | null = null;
for (let round = 1; round <= ROUNDS; round++) {
  const t = performance.now();
  const c = process.cpuUsage();
  last = computeVisibilityAnalysis(runs, { entities });
  const ms = performance.now() - t;
  times.push(ms);
  cpu.push(cpuMs(c));
  console.log(
    `round ${round}: ${ms.toFixed(1)} ms (cpu ${cpu.at(-1)!.toFixed(0)} ms); ${last.mentions.length} mentions, ${last.totals.mentions_not_counted.prompt_echo} echoes, ${last.totals.mentions_not_counted.absence} absences`,
  );
}
console.log(`median ${spread(times)} ms (cpu ${spread(cpu, 0)} ms) over ${ROUNDS} rounds; load ${loadAverage()}`);
for (const row of last!.rows) {
  console.log(`  ${row.name.padEnd(12)} visibility ${row.visibility} ${JSON.stringify(row.visibility_interval)}  avg position ${row.average_position} ${JSON.stringify(row.average_position_interval)}  prominence ${row.prominence} ${JSON.stringify(row.prominence_interval)}`);
}
