// Loopback ports from a fixed range (BENCH_PORTS, default 4500-4599), for benchmarks that run on a
// machine shared with others who keep to ranges of their own.
import { createServer } from "node:net";

const handedOut = new Set<number>();

function range(): [number, number] {
  const match = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? "4500-4599");
  if (!match) throw new Error(`BENCH_PORTS must look like 4500-4599 (got ${process.env.BENCH_PORTS})`);
  return [Number(match[1]), Number(match[2])];
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port of the range nothing listens on now and this process has not handed out before. */
export async function portInRange(): Promise<number> {
  const [from, to] = range();
  const size = to - from + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = from + ((start + i) % size);
    if (handedOut.has(port)) continue;
    if (await free(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${from}-${to}`);
}
