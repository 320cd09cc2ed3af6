// Benchmark: the pure computation of a visibility analysis (lib/visibility), no database: 10,000
// completed runs × 5 tracked entities, and a monitor tick's 500 prompts × 3 engines × 3 runs,
// with answers built in memory like the simulator's (1.5–3 KB: an opener that sometimes quotes the
// prompt, numbered or bulleted lists of brands from a catalogue, prose naming several, now and then
// a sentence saying nothing was found about one). This is the part of POST /visibility-analyses
// and of a tick's analysis that must leave room for reading the answers and storing the analysis
// (bench:visibility measures the whole against #44's targets). Prints the workload, each round, the
// median of the rounds with their spread, the cores, and one line per #44 target this part can
// miss alone: `target: ... met` when the computation fits in the target's time, `NOT met` when it
// alone exceeds it. Then whether both cores help (#44: only if it measurably does): the reading of
// the runs (matching, guards, sentences, prominence) in this thread against the same runs split
// between two worker threads started beforehand, their inputs copied to them and their mentions
// sent back, with what starting the two threads cost. --no-threads skips it.
// Run: npm run bench:visibility-compute [-- --runs N] [--rounds N] [--no-threads]
import { Worker } from "node:worker_threads";
import { computeVisibilityAnalysis, normalizeEntity } from "@/lib/visibility";
import { observeRange } from "@/lib/visibility/analysis";
import { loadAverage, machine, median, spread } from "./lib/rounds";
import { benchPrompts, buildRuns, entities } from "./lib/visibility-answers";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = arg("--runs", 10_000);
const ROUNDS = arg("--rounds", 3);
const TICK = { prompts: 500, engines: 3, runs: 3 };
const runs = buildRuns(RUNS);
const tickRuns = buildRuns(TICK.prompts * TICK.engines * TICK.runs, benchPrompts(TICK.prompts));
const bytes = runs.reduce((s, r) => s + Buffer.byteLength(r.answer ?? ""), 0);
console.log(`workload: ${RUNS} runs × ${entities.length} entities, answers ${(bytes / RUNS / 1024).toFixed(2)} KB on average (${(bytes / 2 ** 20).toFixed(1)} MiB), ${new Set(runs.map((r) => r.prompt)).size} prompts; a tick of ${tickRuns.length} runs; ${ROUNDS} rounds`);
console.log(`machine: ${machine()}; load ${loadAverage()}`);

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
/** One computation timed: wall and CPU ms. */
const timed = (input: typeof runs) => {
  const t = performance.now();
  const c = process.cpuUsage();
  const result = computeVisibilityAnalysis(input, { entities });
  return { ms: performance.now() - t, cpu: cpuMs(c), result };
};

// A warm-up round of each, then the measured ones.
timed(runs);
timed(tickRuns);
const times: number[] = [];
const cpu: number[] = [];
const tickTimes: number[] = [];
let last: ReturnType<typeof computeVisibilityAnalysis> | null = null;
for (let round = 1; round <= ROUNDS; round++) {
  const whole = timed(runs);
  last = whole.result;
  times.push(whole.ms);
  cpu.push(whole.cpu);
  tickTimes.push(timed(tickRuns).ms);
  console.log(
    `round ${round}: ${whole.ms.toFixed(1)} ms (cpu ${whole.cpu.toFixed(0)} ms); ${last.mentions.length} mentions, ${last.totals.mentions_not_counted.prompt_echo} echoes, ${last.totals.mentions_not_counted.absence} absences; ` +
      `the tick's ${tickTimes.at(-1)!.toFixed(1)} ms`,
  );
}
console.log(`${RUNS} runs: median ${spread(times)} ms (cpu ${spread(cpu, 0)} ms); a tick's ${tickRuns.length} runs: median ${spread(tickTimes)} ms; over ${ROUNDS} rounds; load ${loadAverage()}`);
for (const row of last!.rows) {
  console.log(`  ${row.name.padEnd(12)} visibility ${row.visibility} ${JSON.stringify(row.visibility_interval)}  avg position ${row.average_position} ${JSON.stringify(row.average_position_interval)}  prominence ${row.prominence} ${JSON.stringify(row.prominence_interval)}`);
}
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
if (RUNS === 10_000) {
  console.log(`target: POST /visibility-analyses of 10,000 runs × 5 entities < 500 ms: its computation alone ${median(times).toFixed(0)} ms, within it (the whole: bench:visibility): ${verdict(median(times) < 500)}`);
}
console.log(`target: a monitor tick's analysis of ${TICK.prompts} × ${TICK.engines} × ${TICK.runs} runs < 100 ms: its computation alone ${median(tickTimes).toFixed(0)} ms, within it (the whole: bench:visibility): ${verdict(median(tickTimes) < 100)}`);

if (!args.includes("--no-threads")) {
  // Both cores: the runs read in this thread, or half in each of two worker threads.
  const normalized = entities.map(normalizeEntity);
  let t = performance.now();
  const workers = [0, 1].map(() => new Worker(new URL("./lib/observe-worker.mjs", import.meta.url)));
  const ask = (w: Worker, part: typeof runs) =>
    new Promise<{ mentions: number }>((resolve, reject) => {
      w.once("message", resolve);
      w.once("error", reject);
      w.postMessage({ runs: part, entities: normalized });
    });
  await Promise.all(workers.map((w) => ask(w, runs.slice(0, 100))));
  const startMs = performance.now() - t;
  // A warm-up of each thread on its whole share (its compiler's, as this thread's rounds above were).
  const half = Math.floor(runs.length / 2);
  await Promise.all([ask(workers[0]!, runs.slice(0, half)), ask(workers[1]!, runs.slice(half))]);
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    t = performance.now();
    const alone = observeRange(runs, normalized).store.length;
    one.push(performance.now() - t);
    t = performance.now();
    const parts = await Promise.all([ask(workers[0]!, runs.slice(0, half)), ask(workers[1]!, runs.slice(half))]);
    two.push(performance.now() - t);
    if (parts[0]!.mentions + parts[1]!.mentions !== alone) throw new Error("the two threads found other mentions than one");
  }
  await Promise.all(workers.map((w) => w.terminate()));
  console.log(
    `both cores? reading ${RUNS} runs: in this thread median ${spread(one)} ms; split between two worker threads median ${spread(two)} ms (their inputs copied over included), ` +
      `after ${startMs.toFixed(0)} ms to start them; load ${loadAverage()}`,
  );
}
