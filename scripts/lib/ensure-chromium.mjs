// Browser tests use Debian's Chromium (never a browser downloaded by Playwright).
import { existsSync } from "node:fs";
import { isRoot, run, say } from "./run.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  say(`Chromium is missing at ${CHROMIUM}: installing Debian's chromium package for the browser tests (apt-get install -y chromium)`);
  const sudo = isRoot ? [] : ["sudo"];
  const apt = (args) => (sudo.length ? run("sudo", ["apt-get", ...args]) : run("apt-get", args));
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if ((await apt(["update", "-qq"], { env })) !== 0 || (await apt(["install", "-y", "-qq", "chromium"], { env })) !== 0) {
    throw new Error("Could not install Chromium. Install it with `apt-get install -y chromium`, or set CHROMIUM_PATH.");
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium was installed but is not at ${CHROMIUM}; set CHROMIUM_PATH.`);
  return CHROMIUM;
}
