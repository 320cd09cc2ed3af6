// What makes a benchmark's figures worth reading on a shared machine: several rounds after a
// warm-up with the median and spread of each, the load average around them, and CPU time per
// request (of the server process tree, from /proc), which other processes' load disturbs far
// less than wall-clock rates and latencies do.
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on every Linux Node runs on). */
const CLK_TCK = 100;

/** The median of a sample. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** "median (min–max)" of a sample. */
export function spread(values: number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(digits);
  return sorted.length > 1 ? `${f(median(sorted))} (${f(sorted[0]!)}–${f(sorted[sorted.length - 1]!)})` : f(sorted[0] ?? NaN);
}

export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(" ");
}

export function machine(): string {
  return `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}`;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** User plus system CPU time, in ms, that these processes (and their children, with `tree`) have used so far. */
export function cpuMs(pids: number[], tree = true): number {
  let ticks = 0;
  const seen = new Set<number>();
  const visit = (pid: number) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return;
    }
    if (tree) for (const child of childrenOf(pid)) visit(child);
  };
  for (const pid of pids) visit(pid);
  return (ticks * 1000) / CLK_TCK;
}

/** A free port in [from, to] (the range this machine's benchmarks are given). */
export async function portIn(from = 4700, to = 4799): Promise<number> {
  const start = from + Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from; i++) {
    const port = from + ((start - from + i) % (to - from + 1));
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}
