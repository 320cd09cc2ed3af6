// The operator endpoint: how `npm run admin` reaches a running server that holds the embedded
// database (PGlite allows one process, so the command cannot open it itself). A plain HTTP server
// of the server process, on 127.0.0.1 and a port of the system's choosing, apart from the app's
// port and its routes, that runs the operator's commands (./commands.ts) in the process that has
// the database. Its address and a fresh token are written to <GEOSCOPE_DATA_DIR>/operator.json
// (mode 0600: whoever may read the data folder may run commands); the server keeps only the
// token's SHA-256 and compares in constant time; the token is never logged.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { log } from "../log";
import { AdminUsageError, runOperatorCommand } from "./commands";

export const OPERATOR_FILE = "operator.json";
const MAX_BODY_BYTES = 64 * 1024;

/** What operator.json holds. */
export type OperatorFile = { url: string; token: string; pid: number; started_at: string };

export function operatorFilePath(dataDir: string): string {
  return path.resolve(dataDir, OPERATOR_FILE);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** The answer of POST /commands: the command's JSON and one line saying what it did, or an error. */
export type OperatorAnswer =
  | { result: Record<string, unknown>; summary: string }
  | { error: { kind: "usage" | "failed" | "unauthenticated" | "not_found" | "invalid"; message: string } };

function answer(res: ServerResponse, status: number, body: OperatorAnswer): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function authorized(header: string | undefined, tokenHash: Buffer): boolean {
  const given = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
  return given !== undefined && timingSafeEqual(sha256(given), tokenHash);
}

async function handle(req: IncomingMessage, res: ServerResponse, tokenHash: Buffer): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress)) return answer(res, 403, { error: { kind: "unauthenticated", message: "loopback only" } });
  if (req.method !== "POST" || req.url !== "/commands") return answer(res, 404, { error: { kind: "not_found", message: "POST /commands only" } });
  if (!authorized(req.headers.authorization, tokenHash)) {
    return answer(res, 401, { error: { kind: "unauthenticated", message: `send the token of ${OPERATOR_FILE} as Authorization: Bearer <token>` } });
  }
  const text = await readBody(req);
  let parsed: { command?: unknown; args?: unknown } | undefined;
  try {
    parsed = text === null ? undefined : (JSON.parse(text) as typeof parsed);
  } catch {
    parsed = undefined;
  }
  const { command, args } = parsed ?? {};
  if (typeof command !== "string" || !Array.isArray(args) || !args.every((a) => typeof a === "string")) {
    return answer(res, 400, { error: { kind: "invalid", message: 'the body is {"command": "credit:add", "args": ["--workspace", …]}, at most 64 KiB' } });
  }
  try {
    const outcome = await runOperatorCommand(command, args as string[]);
    // The command only, never its arguments (an email, a note) or the token.
    log.info("operator command done", { command });
    answer(res, 200, outcome);
  } catch (error) {
    const usage = error instanceof AdminUsageError;
    log.info("operator command refused", { command, reason: usage ? "usage" : "failed" });
    answer(res, usage ? 400 : 500, { error: { kind: usage ? "usage" : "failed", message: (error as Error).message } });
  }
}

type EndpointGlobal = { __geoscopeOperatorEndpoint?: Promise<{ url: string; file: string }> };
const holder = globalThis as unknown as EndpointGlobal;

/**
 * Starts the operator endpoint once per process and writes operator.json into `dataDir`
 * (replacing a dead server's). The file is removed when the process exits, if it is still ours.
 */
export function startOperatorEndpoint(dataDir: string): Promise<{ url: string; file: string }> {
  holder.__geoscopeOperatorEndpoint ??= (async () => {
    const token = randomBytes(32).toString("base64url");
    const tokenHash = sha256(token);
    const server = http.createServer((req, res) => {
      handle(req, res, tokenHash).catch((error) => {
        log.error("operator endpoint failed", { error });
        if (!res.headersSent) answer(res, 500, { error: { kind: "failed", message: "the operator endpoint failed; see the server log" } });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    // Never keeps the process alive on its own.
    server.unref();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = operatorFilePath(dataDir);
    const content: OperatorFile = { url, token, pid: process.pid, started_at: new Date().toISOString() };
    mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(content)}\n`, { mode: 0o600 });
    renameSync(partial, file);
    process.once("exit", () => {
      try {
        if ((JSON.parse(readFileSync(file, "utf8")) as OperatorFile).token === token) rmSync(file, { force: true });
      } catch {
        // Gone already, or replaced by another server: nothing of ours to remove.
      }
    });
    log.info("operator endpoint listening on loopback; npm run admin uses it while this server runs", { url, file });
    return { url, file };
  })();
  return holder.__geoscopeOperatorEndpoint;
}
