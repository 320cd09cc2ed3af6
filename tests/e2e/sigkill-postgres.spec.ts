// The built server on PostgreSQL, SIGKILLed while a fanout and an audit are under way, then started
// again on the same database. The accepted work finishes; what had finished before the kill is
// not done again (its engine calls and page fetches are counted at the engine simulator and the
// page host, which outlive the server); and the ledger adds up: every run captured once, the
// captured charges equal to the usage transactions, nothing left held.
// (tests/e2e/durability.spec.ts does the same for prompt batches and steps on the embedded PGlite.)
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { startSimulator, type RunningSimulator } from "../../lib/engines/simulator/server";
import { createTestDatabase, type TestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";
import { serverApi } from "./support";

const FANOUT_PROMPTS = 10;
const FANOUT_ENGINES = ["chatgpt", "claude"];
const FANOUT_RUNS = FANOUT_PROMPTS * FANOUT_ENGINES.length;
/** Engine calls answered before the kill; every later one is held open until the server is dead. */
const ANSWERED_BEFORE_KILL = 6;
const FAST_PAGES = 3;

const ARTICLE = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="A page audited while the server dies."></head>` +
  `<body><main><h1>${title}</h1><p>${"Durable work is work that survives the process doing it. ".repeat(40)}</p></main></body></html>`;

test("the server SIGKILLed during a fanout and an audit on PostgreSQL: after a restart the work finishes, nothing finished is run again, and the ledger adds up", async () => {
  // The killed server's leases (60 s) must expire before the restarted one takes its work over.
  test.setTimeout(300_000);
  const database: TestDatabase = await createTestDatabase();
  const engineCalls = new Map<string, number>();
  let answered = 0;
  let killed!: () => void;
  const serverDead = new Promise<void>((resolve) => (killed = resolve));
  const pageGets = new Map<string, number>();
  let heldPageArrived!: () => void;
  const heldPageRequested = new Promise<void>((resolve) => (heldPageArrived = resolve));
  let simulator: RunningSimulator | undefined;
  let site: Server | undefined;
  let server: NextServer | undefined;
  try {
    simulator = await startSimulator({
      onCall: async ({ engine, prompt }) => {
        engineCalls.set(`${engine} ${prompt}`, (engineCalls.get(`${engine} ${prompt}`) ?? 0) + 1);
        if (++answered > ANSWERED_BEFORE_KILL) await serverDead;
      },
    });
    // The page host: fast pages answer at once; /held's first request is kept open until the kill.
    site = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://site").pathname;
      if (req.method === "GET") pageGets.set(path, (pageGets.get(path) ?? 0) + 1);
      if (path === "/held" && pageGets.get(path) === 1) {
        heldPageArrived();
        return;
      }
      if (path === "/held" || path.startsWith("/fast-")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return void res.end(ARTICLE(`Page ${path}`));
      }
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    });
    await new Promise<void>((resolve) => site!.listen(0, "127.0.0.1", resolve));
    const siteBase = `http://127.0.0.1:${(site.address() as { port: number }).port}`;

    const setup = serverTestEnv({ DATABASE_URL: database.url });
    await runScript("db-migrate", [], setup);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "killed@example.com", "--api-key", "k"], setup)) as { api_key: { key: string } };
    server = nextServer(
      await freePort(),
      serverTestEnv({ DATABASE_URL: database.url, GEOSCOPE_SIMULATOR_URL: simulator.url, ENGINE_CONCURRENCY: "2", AUDIT_ALLOW_HOSTS: new URL(siteBase).host }),
    );
    const s = server;
    const call = serverApi(created.api_key.key);
    const api = (method: string, url: string, body?: unknown) => call(s, method, url, body);
    const finished = async (runId: string) => {
      await expect.poll(async () => (await api("GET", `/runs/${runId}?wait=30`)).status as string, { timeout: 180_000, intervals: [0] }).toBe("completed");
    };

    await server.start();
    const project = (await api("POST", "/projects", { name: "Killed" })).id as string;
    // Audits that finish before the kill: after the restart nobody may fetch their pages again.
    const fastAudits: string[] = [];
    for (let i = 0; i < FAST_PAGES; i++) fastAudits.push((await api("POST", "/audits", { url: `${siteBase}/fast-${i}`, project })).id as string);
    for (const id of fastAudits) await finished(id);

    const prompts = Array.from({ length: FANOUT_PROMPTS }, (_, i) => ({ text: `killed fanout ${i}` }));
    const fanout = (await api("POST", "/fanouts", { prompts, engines: FANOUT_ENGINES, runs: 1, project })).id as string;
    const heldAudit = (await api("POST", "/audits", { url: `${siteBase}/held`, project })).id as string;
    await heldPageRequested;
    // Kill once some fanout runs completed, others are at the engine and the rest wait their turn.
    const counts = async () => (await api("GET", `/fanouts/${fanout}`)).counts as { queued: number; running: number; completed: number };
    await expect
      .poll(async () => {
        const c = await counts();
        return c.completed >= ANSWERED_BEFORE_KILL && c.running > 0 && c.queued > 0;
      }, { intervals: [50], timeout: 60_000 })
      .toBe(true);
    const atKill = (await api("GET", `/runs?fanout=${fanout}&limit=100`)).items as { id: string; status: string; subject: string; engine: string }[];
    expect((await api("GET", `/runs/${heldAudit}`)).status).toBe("running");
    await server.kill();
    killed();
    const completedBeforeKill = atKill.filter((r) => r.status === "completed");
    expect(completedBeforeKill.length).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);
    expect(completedBeforeKill.length).toBeLessThan(FANOUT_RUNS);

    await server.start();
    await finished(heldAudit);
    await expect
      .poll(async () => (await api("GET", `/fanouts/${fanout}?wait=30`)).status as string, { timeout: 180_000, intervals: [0] })
      .toBe("completed");

    // The audits: the held one fetched its page again after the restart and completed once; the
    // finished ones were not fetched again.
    for (let i = 0; i < FAST_PAGES; i++) expect(pageGets.get(`/fast-${i}`)).toBe(1);
    expect(pageGets.get("/held")).toBe(2);
    const audit = await api("GET", `/runs/${heldAudit}`);
    expect([audit.status, audit.result.fetch.status, audit.result.fetch.http_status]).toEqual(["completed", "success", 200]);

    // The fanout: every run completed; a run completed before the kill was never sent to its
    // engine again, and no run went to its engine more than once after the restart.
    const detail = await api("GET", `/fanouts/${fanout}`);
    expect(detail.counts).toEqual({ queued: 0, running: 0, completed: FANOUT_RUNS, failed: 0 });
    for (const run of completedBeforeKill) expect(engineCalls.get(`${run.engine} ${run.subject}`)).toBe(1);
    expect(engineCalls.size).toBe(FANOUT_RUNS);
    for (const n of engineCalls.values()) expect(n === 1 || n === 2).toBe(true);

    // The ledger: one captured hold per run (20 fanout runs, 4 audits), their charges are the usage
    // transactions, nothing is held, and the fanout charged what its runs did.
    const holds = await database.query<{ run_id: string; status: string; captured_micros: string }>(`SELECT run_id, status, captured_micros FROM credit_holds`);
    expect(holds).toHaveLength(FANOUT_RUNS + FAST_PAGES + 1);
    expect(holds.every((h) => h.status === "captured")).toBe(true);
    const usage = await database.query<{ run_id: string; micros: string }>(
      `SELECT run_id, (-sum(amount_micros))::text AS micros FROM ledger_transactions WHERE kind = 'usage' GROUP BY run_id`,
    );
    expect(Object.fromEntries(usage.map((u) => [u.run_id, u.micros]))).toEqual(Object.fromEntries(holds.map((h) => [h.run_id, h.captured_micros])));
    const [balance] = await database.query<{ held_micros: string }>(`SELECT held_micros FROM credit_balances`);
    expect(balance!.held_micros).toBe("0");
    // 10 runs at chatgpt's 0.02 and 10 at claude's 0.03 (rate card 2026-11-29).
    expect([detail.charged_usd, detail.held_usd]).toEqual(["0.50", "0.00"]);
    expect((await api("GET", "/billing")).held_usd).toBe("0.00");
  } finally {
    await server?.kill();
    await simulator?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
    await database.drop();
  }
});
