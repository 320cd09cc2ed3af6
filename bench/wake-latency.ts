// Benchmark: how soon a change published by one instance reaches another over LISTEN/NOTIFY (the
// hop that wakes `wait=N` waiters across instances). Two PgNotifiers, as two instances, on a
// throwaway database of the PostgreSQL server; one publishes a fresh id every 20 ms, the other
// times its arrival. Prints p50, p99 and max. The tests (tests/pg/wait-notify.test.ts) assert only
// that waiters are woken by the notification, not how fast, so a loaded machine cannot fail them.
// Needs a PostgreSQL server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else
// postgresql://postgres@127.0.0.1:5432/postgres) where it may CREATE DATABASE.
// Run: npm run bench:wake [-- samples]
import { PgNotifier } from "@/lib/changes/notify";
import { adminQuery } from "../tests/helpers/pg-database";

const SAMPLES = Number(process.argv[2] ?? 500);
const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `geoscope_bench_${Date.now().toString(36)}`;
await adminQuery(server, `CREATE DATABASE "${name}"`);
const url = new URL(server);
url.pathname = `/${name}`;

const sentAt = new Map<string, number>();
const latencies: number[] = [];
let arrived: () => void = () => undefined;
const receiver = new PgNotifier(url.toString(), (id) => {
  const sent = sentAt.get(id);
  if (sent === undefined) return;
  latencies.push(performance.now() - sent);
  arrived();
});
const sender = new PgNotifier(url.toString(), () => undefined);
try {
  await Promise.all([receiver.listening(), sender.listening()]);
  for (let i = 0; i < SAMPLES; i++) {
    const id = `run_${i}`;
    const heard = new Promise<void>((resolve) => (arrived = resolve));
    sentAt.set(id, performance.now());
    sender.publish([id]);
    await heard;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
} finally {
  await Promise.all([receiver.stop(), sender.stop()]);
  await adminQuery(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

const sorted = [...latencies].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
console.log(`NOTIFY from one instance to another, ${sorted.length} samples: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`);
