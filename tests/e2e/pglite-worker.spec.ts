// The built server with embedded PGlite in a worker thread (the default): work
// accepted, run, charged and read back through the API as with PGlite inline, and the folder
// intact for the next server (PGlite inline) after a SIGKILL.
// Starts its own server (own port and data folder) besides the shared e2e one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, nextServer, runScript, serverTestEnv } from "../helpers/processes";
import { apiWith, serverApi } from "./support";

const ENGINES = ["chatgpt", "claude", "gemini"];

test("with PGlite in a worker thread the server runs, charges and serves work, and its folder survives a SIGKILL", async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-pglite-worker-"));
  const env = serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir, GEOSCOPE_PGLITE_THREAD: "worker" });
  const server = nextServer(await freePort(), env);
  try {
    await runScript("db-migrate", [], env);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "worker@example.com", "--api-key", "k"], env)) as { api_key: { key: string } };
    const call = apiWith(() => created.api_key.key, `${server.base}/api/v1`);
    const okCall = serverApi(created.api_key.key);
    const api = (method: string, url: string, body?: unknown) => okCall(server, method, url, body);

    await server.start();
    const before = (await api("GET", "/billing")).balance_usd as string;
    const project = (await api("POST", "/projects", { name: "Worker" })).id as string;
    // A second project of the same name gets the next slug; a missing run is the API's 404.
    const second = await api("POST", "/projects", { name: "Worker" });
    expect(second.slug).not.toBe((await api("GET", `/projects/${project}`)).slug);
    const missing = await call("GET", "/runs/dr_01JNOTAREALRUN000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");

    const batch = (await api("POST", "/prompts", { prompt: "best trail shoes", project, engines: ENGINES })).batch.id as string;
    await expect.poll(async () => (await api("GET", `/batches/${batch}?wait=30`)).batch.status as string, { timeout: 60_000, intervals: [0] }).toBe("completed");

    expect(server.stderr()).toContain("embedded database: PGlite in a worker thread");
    const page = await api("GET", `/runs?batch=${batch}&limit=10`);
    expect(page.items).toHaveLength(ENGINES.length);
    let charged = 0n;
    for (const item of page.items) {
      const run = await api("GET", `/runs/${item.id}`);
      expect(run.status).toBe("completed");
      expect(run.result.answer.length).toBeGreaterThan(0);
      expect(run.charge.status).toBe("captured");
      charged += micros(run.charge.amount_usd);
    }
    expect(charged).toBeGreaterThan(0n);
    const after = (await api("GET", "/billing")).balance_usd as string;
    expect(micros(before) - micros(after)).toBe(charged);

    // SIGKILL: no close, no flush of ours. The next server (PGlite inline) finds every run and charge.
    const runs = page.items.map((r: { id: string }) => r.id).sort();
    await server.kill();
    const inline = nextServer(await freePort(), serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir, GEOSCOPE_PGLITE_THREAD: "inline" }));
    try {
      await inline.start();
      const read = (url: string) => okCall(inline, "GET", url);
      const again = (await read(`/runs?batch=${batch}&limit=10`)) as { items: { id: string; status: string }[] };
      expect(again.items.map((r) => r.id).sort()).toEqual(runs);
      expect(again.items.every((r) => r.status === "completed")).toBe(true);
      let chargedAgain = 0n;
      for (const id of runs) chargedAgain += micros((await read(`/runs/${id}`)).charge.amount_usd);
      expect(chargedAgain).toBe(charged);
      expect((await read("/billing")).balance_usd).toBe(after);
      expect(inline.stderr()).not.toContain("PGlite in a worker thread");
    } finally {
      await inline.kill();
    }
    expect(server.stderr()).not.toMatch(/embedded database's thread (failed|ended)/);
  } finally {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A USD decimal string as integer micro-dollars. */
function micros(usd: string): bigint {
  const negative = usd.startsWith("-");
  const [whole, fraction = ""] = usd.replace("-", "").split(".");
  const value = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  return negative ? -value : value;
}
