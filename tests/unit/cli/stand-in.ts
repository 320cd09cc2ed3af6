// A stand-in API for running the real CLI (cli/geoscope.mjs) in a test file: a local HTTP server
// that records every request and answers what the test sets, started before the file's tests and
// closed after them.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

const BIN = path.resolve("cli", "geoscope.mjs");

/** A status and a body sent as JSON (none when undefined, as for a 204). */
export type Answer = { status: number; body?: unknown };
export type Seen = { method: string; url: string; body: string };
export type Outcome = { code: number | null; stdout: string; stderr: string };

export function standInApi() {
  const seen: Seen[] = [];
  let respond: (method: string, url: URL) => Answer = () => ({ status: 404, body: {} });
  let server: Server;
  let base = "";

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const url = new URL(req.url!, "http://x");
        seen.push({ method: req.method!, url: `${url.pathname}${url.search}`, body });
        const { status, body: out } = respond(req.method!, url);
        res.writeHead(status, out === undefined ? {} : { "Content-Type": "application/json" });
        res.end(out === undefined ? undefined : JSON.stringify(out));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  return {
    /** The requests of the last `cli` run, in order. */
    seen,
    /** How the API answers from now on. */
    answer(fn: (method: string, url: URL) => Answer) {
      respond = fn;
    },
    /** Runs the CLI against the stand-in with an API key, to its end; `stdin`: its standard input (else none). */
    cli(args: string[], stdin?: string): Promise<Outcome> {
      seen.length = 0;
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args, "--base-url", base, "--token", "gsk_test"], { stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
        if (stdin !== undefined) child.stdin!.end(stdin);
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    },
  };
}
