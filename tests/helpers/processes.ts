// Child-process helpers shared by the end-to-end tests and the benchmarks that start real servers.
import { spawn } from "node:child_process";
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
