// GET /batches/{id} on the built server on PostgreSQL while the batch's runs keep changing, as in a
// burst of runs finishing (each claimed, its lease renewed, its result and charge written): every
// read answers 200 with one version of each run. A read whose runs changed between its two
// statements (the batch with the runs' versions, then the bodies not remembered) used to try three
// times more and then answer 500; it now reads again in one snapshot (lib/runs/read.ts readBatch).
import { expect, test } from "@playwright/test";
import { startSimulator, type RunningSimulator } from "../../lib/engines/simulator/server";
import { createTestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";
import { apiWith } from "./support";

const ENGINES = ["chatgpt", "claude", "gemini"];
const READS = 60;

test("GET /batches/{id} answers 200 with one version of each run while the runs keep changing", async () => {
  test.setTimeout(180_000);
  const database = await createTestDatabase();
  let simulator: RunningSimulator | undefined;
  let server: NextServer | undefined;
  try {
    simulator = await startSimulator({});
    const setup = serverTestEnv({ DATABASE_URL: database.url });
    await runScript("db-migrate", [], setup);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "race@example.com", "--api-key", "k"], setup)) as { api_key: { key: string } };
    server = nextServer(await freePort(), serverTestEnv({ DATABASE_URL: database.url, GEOSCOPE_SIMULATOR_URL: simulator.url }));
    await server.start();
    const api = apiWith(() => created.api_key.key, `${server.base}/api/v1`);
    const project = (await api("POST", "/projects", { name: "Race" })).body.id as string;
    const posted = await api("POST", "/prompts", { prompt: "best crm for a small agency", engines: ENGINES, project });
    expect(posted.status, posted.text).toBe(202);
    const batch = posted.body.batch.id as string;
    await expect
      .poll(async () => (await api("GET", `/batches/${batch}?wait=30`)).body.batch.status as string, { timeout: 90_000, intervals: [0] })
      .toBe("completed");
    const settled = await api("GET", `/batches/${batch}`);

    // Every run of the batch written again as fast as the database takes it: each UPDATE gives the
    // rows a new version, as a run's claim, lease and finish do, without changing what they say.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        await database.query(`UPDATE runs SET updated_at = updated_at WHERE batch_id = $1`, [batch]);
        writes++;
      }
    })();
    const failed: string[] = [];
    try {
      for (let i = 0; i < READS; i++) {
        const read = await api("GET", `/batches/${batch}`);
        if (read.status !== 200) failed.push(`${read.status} ${read.text.slice(0, 200)}`);
        // One version of each run, and the same batch as before the writes began.
        else expect(read.body).toEqual(settled.body);
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(writes).toBeGreaterThan(READS);
    expect(failed).toEqual([]);
  } finally {
    await server?.kill();
    await simulator?.close();
    await database.drop();
  }
});
