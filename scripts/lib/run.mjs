// Small process helpers shared by the start and test scripts.
import { spawn, spawnSync } from "node:child_process";

export function say(message) {
  process.stdout.write(`\x1b[36m[geoscope]\x1b[0m ${message}\n`);
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs a command with inherited output; resolves to its exit code. While it runs, SIGINT, SIGTERM
 * and SIGHUP sent to this process are passed on to it (and no longer end this process by
 * themselves): `kill -TERM <npm start's pid>` stops the app server too, and this process ends once
 * its child has (decisions.md "Stopping the server").
 */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    const forward = (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    const done = (code) => {
      for (const signal of FORWARDED) process.off(signal, forward);
      resolve(code);
    };
    child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on("error", () => done(127));
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
