// Small process helpers shared by the start and test scripts.
import { spawn, spawnSync } from "node:child_process";

export function say(message) {
  process.stdout.write(`\x1b[36m[geoscope]\x1b[0m ${message}\n`);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(127));
  });
}

export function runQuiet(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  return { code: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

export function which(command) {
  return runQuiet("sh", ["-c", `command -v ${command}`]).code === 0;
}

export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
