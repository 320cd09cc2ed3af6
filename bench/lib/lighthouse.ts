// Lighthouse for the audit benchmark, outside package.json (it is large and only this benchmark
// needs it): lighthouse@13 installed once into <os tmpdir>/geoscope-bench-lighthouse, run with
// Debian's Chromium (CHROME_PATH, else /usr/bin/chromium), SEO category only. Two ways: the CLI,
// a new Chrome per page (as `npx lighthouse <url>` is used), and the node API over one Chrome
// kept open across pages.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const LIGHTHOUSE_DIR = path.join(os.tmpdir(), "geoscope-bench-lighthouse");
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu"];

export type LighthouseRun = { ms: number; seoScore: number | null; failedAudits: string[] };

type Lhr = {
  lighthouseVersion: string;
  runtimeError?: { code: string; message: string };
  categories: { seo?: { score: number | null; auditRefs: { id: string; weight: number }[] } };
  audits: Record<string, { score: number | null; scoreDisplayMode: string }>;
};

function chromePath(): string {
  const chrome = process.env.CHROME_PATH || "/usr/bin/chromium";
  if (!existsSync(chrome)) throw new Error(`no Chromium at ${chrome}: apt-get install -y chromium, or set CHROME_PATH`);
  return chrome;
}

/** The installed Lighthouse's version; installs it first when missing (and says so on stderr). */
export function ensureLighthouse(): { version: string; nodeRange: string } {
  const manifest = path.join(LIGHTHOUSE_DIR, "node_modules", "lighthouse", "package.json");
  const read = () => JSON.parse(readFileSync(manifest, "utf8")) as { version: string; engines: { node: string } };
  if (!existsSync(manifest) || !read().version.startsWith("13.")) {
    process.stderr.write(`downloading lighthouse@13 into ${LIGHTHOUSE_DIR} (npm install, once; not a dependency of geoscope)\n`);
    execFileSync("npm", ["install", "--prefix", LIGHTHOUSE_DIR, "--no-audit", "--no-fund", "--loglevel=error", "--engine-strict=false", "lighthouse@13"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  const pkg = read();
  return { version: pkg.version, nodeRange: pkg.engines.node };
}

function summarise(lhr: Lhr, ms: number): LighthouseRun {
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const seo = lhr.categories.seo;
  const failedAudits = (seo?.auditRefs ?? []).filter((r) => r.weight > 0 && lhr.audits[r.id]?.score === 0).map((r) => r.id);
  return { ms, seoScore: seo?.score ?? null, failedAudits };
}

/** One page through the Lighthouse CLI: a Chrome launched and closed for it, the CLI's own process included. */
export async function lighthouseCli(url: string): Promise<LighthouseRun> {
  const output = path.join(os.tmpdir(), `geoscope-bench-lighthouse-${process.pid}.json`);
  const cli = path.join(LIGHTHOUSE_DIR, "node_modules", "lighthouse", "cli", "index.js");
  const args = [cli, url, "--only-categories=seo", "--output=json", `--output-path=${output}`, "--quiet", `--chrome-flags=${CHROME_FLAGS.join(" ")}`];
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromePath() }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse CLI exited ${code}: ${stderr.slice(-500)}`))));
  });
  const ms = performance.now() - started;
  const lhr = JSON.parse(readFileSync(output, "utf8")) as Lhr;
  rmSync(output, { force: true });
  return summarise(lhr, ms);
}

type LighthouseFn = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;
type ChromeLauncher = { launch(options: { chromePath: string; chromeFlags: string[] }): Promise<{ port: number; kill(): Promise<void> | void }> };

/** Lighthouse's node API over one Chrome, launched here and kept open until close(). */
export async function openLighthouse(): Promise<{ run(url: string): Promise<LighthouseRun>; close(): Promise<void> }> {
  const modules = path.join(LIGHTHOUSE_DIR, "node_modules");
  const lighthouse = (await import(pathToFileURL(path.join(modules, "lighthouse", "core", "index.js")).href)).default as LighthouseFn;
  const launcher = (await import(pathToFileURL(path.join(modules, "chrome-launcher", "dist", "index.js")).href)) as ChromeLauncher;
  const chrome = await launcher.launch({ chromePath: chromePath(), chromeFlags: CHROME_FLAGS });
  return {
    async run(url) {
      const started = performance.now();
      const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["seo"] });
      const ms = performance.now() - started;
      if (!result) throw new Error("lighthouse returned no result");
      return summarise(result.lhr, ms);
    },
    async close() {
      await chrome.kill();
    },
  };
}
