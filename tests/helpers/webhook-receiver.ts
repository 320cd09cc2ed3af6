// A real webhook receiver on loopback for the alerts tests: every request kept as it came (path,
// headers, body exactly as received), each answered by the plan for its path (a status, a
// redirect, or a hold until released), and the README's own verifier, loaded from README.md.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };

/** What a path answers: a status for the n-th request to it (1-based), or a redirect. */
export type Answer = number | { status: number; location: string } | "hold";

export type Receiver = {
  port: number;
  url: (p: string) => string;
  received: Received[];
  /** The requests to one path. */
  to: (p: string) => Received[];
  /** How `path` answers its n-th request (default 200). */
  plan: (p: string, answer: (n: number) => Answer) => void;
  /** Resolves when `count` requests reached `path`. */
  waitFor: (p: string, count: number) => Promise<void>;
  /** Answers every held request (200). */
  release: () => void;
  close: () => Promise<void>;
};

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const plans = new Map<string, (n: number) => Answer>();
  const held: (() => void)[] = [];
  const waiters: { path: string; count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const p = (req.url ?? "/").split("?")[0]!;
      received.push({ path: p, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const n = received.filter((r) => r.path === p).length;
      for (const w of waiters.filter((w) => w.path === p && n >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = plans.get(p)?.(n) ?? 200;
      if (answer === "hold") {
        held.push(() => res.writeHead(200).end("ok"));
        return;
      }
      if (typeof answer === "number") res.writeHead(answer, { "content-type": "text/plain" }).end(`answer ${answer}`);
      else res.writeHead(answer.status, { location: answer.location }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: (p) => `http://127.0.0.1:${bound}${p}`,
    received,
    to: (p) => received.filter((r) => r.path === p),
    plan: (p, answer) => void plans.set(p, answer),
    waitFor: (p, count) =>
      received.filter((r) => r.path === p).length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ path: p, count, resolve })),
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () =>
      new Promise<void>((resolve) => {
        held.splice(0).forEach((answer) => answer());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Verify = (rawBody: string, header: string | undefined, secret: string, toleranceSeconds?: number) => boolean;

/**
 * The signature check README.md shows ("Verifying a delivery in Node"), exactly as written there:
 * its code block is loaded as a module, so a README that stops working fails the tests.
 */
export async function readmeVerifier(): Promise<Verify> {
  const readme = readFileSync(path.resolve(import.meta.dirname, "..", "..", "README.md"), "utf8");
  const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes("export function verifyGeoscopeSignature"));
  if (!block) throw new Error("README.md has no js block exporting verifyGeoscopeSignature");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-readme-")), "verify.mjs");
  writeFileSync(file, block);
  return ((await import(pathToFileURL(file).href)) as { verifyGeoscopeSignature: Verify }).verifyGeoscopeSignature;
}
