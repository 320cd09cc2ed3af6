// Stopping `npm start` (scripts/start.mjs) as an operator does: one signal to that one process
// (`kill -TERM <pid>`, a service manager's stop, Ctrl+C's SIGINT), not to its process group. The
// app server it started (`next start`, seen as next-server) must stop with it: port closed, every
// process gone, the PGlite folder no longer held. Starts its own `npm start` on a free port with
// its own data folder, besides the shared e2e server.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, repoRoot, serverTestEnv } from "../helpers/processes";

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ...", comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) counts as gone.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} to the npm start process alone stops the app server it started and closes the port`, async () => {
    test.setTimeout(180_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-stop-"));
    const env = serverTestEnv({ PORT: String(port), GEOSCOPE_DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://localhost:${port}`, NEXTAUTH_URL: `http://localhost:${port}` });
    // Its own process group, so the cleanup below can end everything should the test fail; the
    // signal under test goes to the one pid.
    const start = spawn(process.execPath, [path.join(repoRoot, "scripts", "start.mjs")], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    start.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    start.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => start.once("exit", (code, sig) => resolve({ code, signal: sig })));
    try {
      await until(`port ${port} answers GET /api/v1/version`, () => fetch(`http://127.0.0.1:${port}/api/v1/version`).then((r) => r.ok, () => false), 150);
      const children = childrenOf(start.pid!);
      expect(children.length, output).toBeGreaterThan(0);

      process.kill(start.pid!, signal);

      const { code } = await exited;
      // start.mjs ended on its own once its child had, rather than being killed by the signal.
      expect(code, output).not.toBeNull();
      expect(await portOpen(port), `port ${port} still listening after ${signal}:\n${output}`).toBe(false);
      for (const child of children) expect(alive(child), `child ${child} of npm start still running`).toBe(false);
    } finally {
      try {
        process.kill(-start.pid!, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
