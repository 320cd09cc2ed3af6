// The real CLI (cli/geoscope.mjs) against a local HTTP server that records what it was sent:
// options parse per command, so one command's option kind never changes another's.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = path.resolve("cli", "geoscope.mjs");
let server: Server;
let base = "";
const bodies: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: "invalid_request", message: "recorded", engine: null, retryable: false } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the CLI; its standard input stays open unless `stdin` is given, as under an agent. */
function cli(args: string[], stdin?: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args, "--base-url", base, "--token", "gsk_test"], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    if (stdin !== undefined) child.stdin.end(stdin);
    child.on("exit", (code) => {
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });
}

describe("options", () => {
  it("keeps every value of a repeated option, although another command takes the same name once", async () => {
    bodies.length = 0;
    await cli(["citations", "rq_01M86BZ1B8TDMNZ120417K12ZN", "--domain", "a.com", "--domain", "b.com", "--brand", "Acme", "--brand", "Globex"]);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ domains: ["a.com", "b.com"], brands: ["Acme", "Globex"] });
  });

  it("refuses an option of another command, naming the command", async () => {
    const result = await cli(["runs", "list", "--domain", "x.com"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("geoscope runs list does not take --domain");
  });

  it("checks citations' output options before anything is stored", async () => {
    bodies.length = 0;
    const result = await cli(["citations", "rq_01M86BZ1B8TDMNZ120417K12ZN", "--format", "csv"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--format csv needs --table");
    expect(bodies).toEqual([]);
  });
});

describe("fanout prompts", () => {
  it("are not read from an open standard input unless --file - asks: a usage error, not a hang", async () => {
    bodies.length = 0;
    const result = await cli(["fanout", "estimate", "--project", "pr_01M86BZ1B8TDMNZ120417K12ZN"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no prompts");
    expect(bodies).toEqual([]);
  });

  it("are read one per line from standard input with --file -", async () => {
    bodies.length = 0;
    await cli(["fanout", "estimate", "--project", "pr_01M86BZ1B8TDMNZ120417K12ZN", "--file", "-"], "best crm\n\nhubspot vs salesforce\n");
    expect(JSON.parse(bodies[0]!).prompts).toEqual([{ text: "best crm" }, { text: "hubspot vs salesforce" }]);
  });
});
