// Child-process helpers shared by the end-to-end tests and the benchmarks that start real servers.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "..", "..");

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command from the repository root to its end; resolves its stdout, rejects with its stderr. */
export function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(command)} ${args.join(" ")} exited ${code}: ${err}`))));
  });
}

const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);

/** The environment a test's own `next start` runs with: simulated engines, no Inngest, no provider key. */
export function serverTestEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", GEOSCOPE_ENGINES: "simulated" };
  for (const key of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "GEOSCOPE_SIMULATOR_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"]) delete env[key];
  return { ...env, ...overrides };
}

/** Runs one of the project's scripts (`scripts/<name>.ts`) with tsx to its end; resolves its stdout. */
export function runScript(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return runToEnd(bin("tsx"), [path.join(repoRoot, "scripts", `${name}.ts`), ...args], env);
}

export type NextServer = {
  readonly base: string;
  /** Starts the built app and resolves once it answers GET /api/v1/version. */
  start(): Promise<void>;
  /** SIGKILLs the server's whole process group (no shutdown of any kind) and waits for it to exit. */
  kill(): Promise<void>;
  /** What the server wrote to stderr since its last start. */
  stderr(): string;
};

/**
 * The built app (`next start`) on a loopback port, in its own process group so a kill reaches every
 * process it runs. `hostname` is what `-H` names (default 127.0.0.1); `localhost` serves the app as
 * `npm start` does (no -H: Next.js then takes its own URLs to be http://localhost:<port>).
 */
export function nextServer(port: number, env: NodeJS.ProcessEnv, options: { hostname?: string } = {}): NextServer {
  const hostname = options.hostname ?? "127.0.0.1";
  const base = `http://${hostname}:${port}`;
  let child: ChildProcess | null = null;
  let stderr = "";
  return {
    base,
    stderr: () => stderr,
    async start() {
      stderr = "";
      const started = spawn(bin("next"), ["start", "-p", String(port), "-H", hostname], {
        cwd: repoRoot,
        env: { PUBLIC_BASE_URL: base, NEXTAUTH_URL: base, ...env },
        stdio: ["ignore", "ignore", "pipe"],
        detached: true,
      });
      started.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<never>((_, reject) => started.once("exit", (code) => reject(new Error(`server on port ${port} exited ${code}: ${stderr}`))));
      exited.catch(() => undefined);
      child = started;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ready = await Promise.race([fetch(`${base}/api/v1/version`).then((r) => r.ok, () => false), exited]);
        if (ready) return;
        if (Date.now() > deadline) throw new Error(`server on port ${port} did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const gone = new Promise((resolve) => running.once("exit", resolve));
      process.kill(-running.pid!, "SIGKILL");
      await gone;
    },
  };
}
