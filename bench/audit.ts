// Benchmark (issue #18): the same five local article pages (10 KiB to 1 MiB) audited by geoscope
// (auditPage: robots.txt, the page, analysis, the llms.txt and .md probes, findings) and by
// Lighthouse's SEO category (lighthouse@13, Debian's Chromium), round after round, then geoscope's
// throughput over 200 distinct pages with 8 audits at once. The site is served by a process of
// its own (bench/lib/page-server.ts) on 127.0.0.1.
// A round takes geoscope over the five pages (a page's figure: the mean of 5 audits in a row,
// after a warm-up), then Lighthouse's node API over a Chrome kept open across pages (the target's
// comparison), then its CLI launching a Chrome per page (as `npx lighthouse <url>` is used).
// Target: geoscope at least 50x faster per page (median of the rounds, against the kept-open Chrome).
// Run: npm run bench:audit [-- --rounds N] [--no-lighthouse] [--no-lighthouse-cli] [--pages N] [--concurrency N]
// (Lighthouse is installed once into <os tmpdir>/geoscope-bench-lighthouse; CHROME_PATH, else
// /usr/bin/chromium. BENCH_CPU_PROFILE=file.cpuprofile writes a CPU profile of the rounds, for Chrome DevTools;
// with --no-lighthouse it is geoscope's alone.)
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { ensureLighthouse, lighthouseCli, openLighthouse, type LighthouseRun } from "./lib/lighthouse";
import { PAGE_SIZES } from "./lib/pages";
import { simulatedEnvironment, summary } from "./lib/setup";
import { repoRoot } from "../tests/helpers/processes";

simulatedEnvironment();
const { auditPage } = await import("@/lib/audits/run");

/** The audit document of a page served here (each answers; one that did not would be a broken bench). */
async function audited(url: string) {
  const outcome = await auditPage(url, { allowHosts });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}
const { analysePage } = await import("@/lib/audits/analyse");

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const ROUNDS = option("--rounds", 3);
const PAGES = option("--pages", 200);
const CONCURRENCY = option("--concurrency", 8);
const REPEATS = 5;
const withLighthouse = !args.includes("--no-lighthouse");
const withLighthouseCli = withLighthouse && !args.includes("--no-lighthouse-cli");
const TARGET = 50;
const SETTLE_MS = 3000;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

const site = await startSite();
const origin = `http://127.0.0.1:${site.port}`;
const allowHosts = [`127.0.0.1:${site.port}`];
const pages = await Promise.all(
  PAGE_SIZES.map(async (s) => {
    const url = `${origin}/blog/article-${s.name}`;
    const html = await (await fetch(url)).text();
    return { name: s.name, url, html, bytes: Buffer.byteLength(html) };
  }),
);

console.log(`workload: ${pages.length} article pages (${pages.map((p) => kib(p.bytes)).join(", ")}) on ${origin} (its own process), ${ROUNDS} rounds; then ${PAGES} distinct pages (the 5 sizes in turn), ${CONCURRENCY} at once`);
console.log(`machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, load average ${load()} (1, 5, 15 min)`);

// Lighthouse first, so that its one-time install is not inside a round.
let lighthouse: Awaited<ReturnType<typeof openLighthouse>> | null = null;
if (withLighthouse) {
  const installed = ensureLighthouse();
  console.log(
    `lighthouse ${installed.version} (declares node ${installed.nodeRange}; run here on ${process.version}), --only-categories=seo, Chromium ${process.env.CHROME_PATH || "/usr/bin/chromium"} --headless=new`,
  );
  lighthouse = await openLighthouse();
}

// Warm-up, not measured: the JIT for geoscope, Chrome's first navigation for Lighthouse.
for (let i = 0; i < 3; i++) for (const page of pages) await audited(page.url);
if (lighthouse) await lighthouse.run(pages[0]!.url);

const profile = process.env.BENCH_CPU_PROFILE ? await startProfile() : null;
type Sample = { geoscope: number[]; analyse: number[]; kept: number[]; cli: number[] };
const samples = new Map<string, Sample>(pages.map((p) => [p.name, { geoscope: [], analyse: [], kept: [], cli: [] }]));
const facts = new Map<string, { words: number; findings: number; status: string; seo: LighthouseRun | null }>();
for (let round = 1; round <= ROUNDS; round++) {
  // Each tool over the five pages in turn, geoscope first, after a pause: a Chrome just closed
  // (the CLI's) or just done navigating still takes CPU for a moment, which is not geoscope's work.
  if (round > 1 && lighthouse) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  for (const page of pages) {
    const sample = samples.get(page.name)!;
    let started = performance.now();
    let result;
    for (let i = 0; i < REPEATS; i++) result = await audited(page.url);
    sample.geoscope.push((performance.now() - started) / REPEATS);
    // The analysis alone (parse and analysers on the HTML in hand), to tell it from the fetching.
    started = performance.now();
    for (let i = 0; i < REPEATS; i++) analysePage(page.html, page.url, {});
    sample.analyse.push((performance.now() - started) / REPEATS);
    facts.set(page.name, { words: result!.content.word_count, findings: result!.findings.length, status: result!.fetch.status, seo: null });
  }
  if (lighthouse) {
    for (const page of pages) {
      const seo = await lighthouse.run(page.url);
      samples.get(page.name)!.kept.push(seo.ms);
      facts.get(page.name)!.seo = seo;
    }
  }
  if (withLighthouseCli) for (const page of pages) samples.get(page.name)!.cli.push((await lighthouseCli(page.url)).ms);
  const line = pages.map((page) => {
    const sample = samples.get(page.name)!;
    const parts = [`geoscope ${sample.geoscope.at(-1)!.toFixed(1)} ms`];
    if (lighthouse) parts.push(`lighthouse ${(sample.kept.at(-1)! / 1000).toFixed(2)} s`);
    if (withLighthouseCli) parts.push(`cli ${(sample.cli.at(-1)! / 1000).toFixed(2)} s`);
    return `${page.name}: ${parts.join(" / ")}`;
  });
  console.log(`round ${round}: ${line.join("; ")}   (load ${load()})`);
}
if (profile) await profile.stop(process.env.BENCH_CPU_PROFILE!);
await lighthouse?.close();

console.log("\nper page, median of the rounds (min–max):");
for (const page of pages) {
  const s = samples.get(page.name)!;
  const f = facts.get(page.name)!;
  console.log(`  ${page.name.padEnd(4)} ${kib(page.bytes).padStart(8)}: ${f.words} words, geoscope ${f.status}, ${f.findings} findings${f.seo ? `; lighthouse SEO score ${f.seo.seoScore}${f.seo.failedAudits.length ? ` (failed: ${f.seo.failedAudits.join(", ")})` : ""}` : ""}`);
  console.log(`       geoscope auditPage ms: ${summary(s.geoscope, 1)}; of which analysePage alone ${summary(s.analyse, 1)}`);
  if (s.kept.length) console.log(`       lighthouse, Chrome kept open, ms: ${summary(s.kept, 0)}   ratio ${(median(s.kept) / median(s.geoscope)).toFixed(0)}x`);
  if (s.cli.length) console.log(`       lighthouse CLI, Chrome per page, ms: ${summary(s.cli, 0)}   ratio ${(median(s.cli) / median(s.geoscope)).toFixed(0)}x`);
}

// Overall: the mean time per page over the five pages, round by round.
const perRound = (key: keyof Sample) => Array.from({ length: ROUNDS }, (_, r) => pages.reduce((sum, p) => sum + samples.get(p.name)![key][r]!, 0) / pages.length);
const geoscopeMean = perRound("geoscope");
console.log(`\noverall, mean time per page over the 5 pages, median of the rounds (min–max):`);
console.log(`  geoscope auditPage: ms ${summary(geoscopeMean, 1)}`);
if (lighthouse) {
  const kept = perRound("kept");
  const ratios = kept.map((k, r) => k / geoscopeMean[r]!);
  const perPage = pages.map((p) => median(samples.get(p.name)!.kept) / median(samples.get(p.name)!.geoscope));
  const met = Math.min(...perPage) >= TARGET;
  console.log(`  lighthouse, Chrome kept open (the target's comparison): ms ${summary(kept, 0)}`);
  console.log(`  ratio lighthouse/geoscope: ${summary(ratios, 0)}x; per page (medians) ${perPage.map((r) => r.toFixed(0)).join(", ")}x, smallest ${Math.min(...perPage).toFixed(0)}x   target ≥ ${TARGET}x on every page: ${met ? "met" : "NOT met"}`);
}
if (withLighthouseCli) {
  const cli = perRound("cli");
  console.log(`  lighthouse CLI, a Chrome per page: ms ${summary(cli, 0)}; ratio ${summary(cli.map((c, r) => c / geoscopeMean[r]!), 0)}x`);
}

// Throughput: PAGES distinct URLs, CONCURRENCY audits at once (a promise pool), 3 rounds.
const urls = Array.from({ length: PAGES }, (_, n) => `${origin}/articles/${n}`);
const totalBytes = (await Promise.all(PAGE_SIZES.map(async (s, i) => Buffer.byteLength(await (await fetch(`${origin}/articles/${i}`)).text()) * Math.ceil((PAGES - i) / PAGE_SIZES.length)))).reduce((a, b) => a + b, 0);
console.log(`\nthroughput: ${PAGES} distinct pages (${(totalBytes / 2 ** 20).toFixed(0)} MiB in all), ${CONCURRENCY} at once, load ${load()}`);
const rates: number[] = [];
for (let round = 1; round <= 3; round++) {
  const started = performance.now();
  const statuses = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < urls.length) {
        const result = await audited(urls[next++]!);
        statuses.set(result.fetch.status, (statuses.get(result.fetch.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  rates.push(PAGES / seconds);
  console.log(`round ${round}: ${seconds.toFixed(2)} s, ${(PAGES / seconds).toFixed(1)} pages/s (${[...statuses].map(([k, v]) => `${k} ${v}`).join(", ")})   (load ${load()})`);
}
console.log(`geoscope throughput, pages/s: ${summary(rates, 1)}, ${os.availableParallelism()} cores, ${CONCURRENCY} at once`);
console.log(`load average at the end: ${load()}`);
site.stop();

async function startSite(): Promise<{ port: number; stop(): void }> {
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["bench/lib/page-server.ts"], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the page server exited with ${code}`)));
    child.stdout!.on("data", (d: Buffer) => {
      const match = /listening (\d+)/.exec(d.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  // Also when the benchmark fails half-way: no server is left running.
  process.on("exit", () => child.kill());
  return {
    port,
    stop() {
      child.removeAllListeners("exit");
      child.kill();
    },
  };
}

async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(file: string) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`CPU profile of the measured rounds: ${file}`);
    },
  };
}
