// An open-loop load generator: request i is sent at start + i / rate, whatever happened to the
// requests before it, over a pool of keep-alive connections, and its latency is counted from
// the moment it was due, so a stalled server shows up in the figures instead of slowing the
// load down (no coordinated omission). autocannon's own rate mode sends each connection's
// quota back to back at the start of every second, which measures its bursts, not the server.
import http from "node:http";

export type PacedOptions = {
  url: string;
  rate: number;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
};

export type PacedResult = { sent: number; ok: number; bad: number; p50: number; p99: number; max: number; rps: number };

export async function paced(options: PacedOptions): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let ok = 0;
  let bad = 0;
  const start = performance.now() + 50;
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const req = http.get(options.url, { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on("end", () => {
          latencies.push(performance.now() - due);
          if (res.statusCode === 200) ok++;
          else bad++;
          resolve();
        });
      });
      req.on("error", () => {
        bad++;
        resolve();
      });
    });
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    // Slept, not spun: on a small machine a spinning generator takes CPU from the server. A
    // timer fires up to about a millisecond late, which counts against the server.
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inflight.push(one(due));
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1));
  return { sent: total, ok, bad, p50: at(0.5), p99: at(0.99), max: at(1), rps: Math.round(total / elapsed) };
}
