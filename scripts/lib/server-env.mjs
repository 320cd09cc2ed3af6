// The environment the app server (`next start`) runs with, shared by `npm start`, the e2e server
// and the API benchmark so that what is measured is what is served.
//
// V8 helper threads: Node.js starts 4 of them for garbage collection and compilation whatever the
// machine. On a small machine, where the database and other processes share the cores, those
// threads take CPU from the one thread that answers requests just when a collection pauses it,
// which turned a 9 ms pause into 40-100 ms stalls (bench:api, 2 cores: p99 of GET /runs/{id} at
// 200 req/s 6-29 ms with 4 threads, 5-9 ms with 1). So: one helper thread per core beyond the
// first, at most Node's own 4. A --v8-pool-size already in NODE_OPTIONS wins.
import os from "node:os";

export function v8PoolSize(cores = os.availableParallelism()) {
  return Math.min(4, Math.max(1, cores - 1));
}

/** `env` plus the server's NODE_OPTIONS. */
export function serverEnv(env = process.env) {
  const current = env.NODE_OPTIONS ?? "";
  if (/--v8-pool-size\b/.test(current)) return { ...env };
  return { ...env, NODE_OPTIONS: `${current} --v8-pool-size=${v8PoolSize()}`.trim() };
}
