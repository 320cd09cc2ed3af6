// `wait=N` on GET /runs/{id}, GET /batches/{id} and GET /runs?batch: woken by the worker's
// notification when the object finishes, or after N seconds; a disconnect frees the waiter.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import type { Principal } from "@/lib/auth/principal";
import { waiterCount } from "@/lib/changes/wait";
import { createProject } from "@/lib/projects/create";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines();

useTestDatabase();

let carol: Person;
let project: string;

beforeAll(async () => {
  carol = await person("carol@example.com");
  const principal: Principal = { user: { id: carol.id, email: carol.email }, credential: { kind: "cli_token", id: carol.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
  project = (await createProject(principal, { name: "Waiting", workspace_id: carol.workspaceId, context: null })).id;
});

async function start(prompt: string, engines?: string[]) {
  const res = await call(postPrompts, "POST", "/prompts", { token: carol.apiKey, body: { prompt, project, ...(engines ? { engines } : {}) } });
  expect(res.status).toBe(202);
  return res.body as { batch: { id: string }; runs: { id: string }[] };
}

function getRun(runId: string, wait: number) {
  return call(getRunRoute, "GET", `/runs/${runId}`, { token: carol.apiKey, params: { run_id: runId }, query: { wait } });
}

describe("wait", () => {
  it("returns as soon as the run finishes: woken by the run's change, not by its deadline", async () => {
    // The first engine call is rate limited with retry-after 1 s, so the run finishes about a second later.
    const { runs } = await start("slow once [[sim:rate_limit:1*1]]", ["chatgpt"]);
    const asked = Date.now();
    const res = await getRun(runs[0]!.id, 30);
    const answered = Date.now();
    expect(res.body.status).toBe("completed");
    // It waited for the run (which was unfinished when asked) and answered before the 30 s deadline:
    // only the change notification can have woken it.
    expect(answered - asked).toBeGreaterThanOrEqual(900);
    expect(answered).toBeLessThan(asked + 30_000);
  });

  it("returns after N seconds with the run still unfinished", async () => {
    const { runs, batch } = await start("slower [[sim:rate_limit:4*1]]", ["claude"]);
    const asked = Date.now();
    const res = await getRun(runs[0]!.id, 1);
    const took = Date.now() - asked;
    expect(["queued", "running"]).toContain(res.body.status);
    expect(res.body.completed_at).toBeNull();
    // It held for the requested second, and answered with the run unfinished (it finishes ~4 s in).
    expect(took).toBeGreaterThanOrEqual(990);

    const unfinished = await call(getBatchRoute, "GET", `/batches/${batch.id}`, { token: carol.apiKey, params: { batch_id: batch.id }, query: { wait: 1 } });
    expect(unfinished.body.batch.status).toBe("running");

    const finished = await call(getBatchRoute, "GET", `/batches/${batch.id}`, { token: carol.apiKey, params: { batch_id: batch.id }, query: { wait: 30 } });
    expect(finished.body.batch.status).toBe("completed");
  });

  it("holds GET /runs?batch until the whole batch finished", async () => {
    const { batch } = await start("list and wait [[sim:server_error:1*1@gemini]]", ["chatgpt", "claude", "gemini"]);
    const res = await call(listRunsRoute, "GET", "/runs", { token: carol.apiKey, query: { batch: batch.id, wait: 20 } });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(3);
    for (const item of res.body.items) expect(item.status).toBe("completed");
  });

  it("wakes many waiters on one batch at once", async () => {
    const { batch } = await start("many waiters [[sim:server_error:1*1@claude]]");
    const waiters = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(getBatchRoute, "GET", `/batches/${batch.id}`, { token: carol.apiKey, params: { batch_id: batch.id }, query: { wait: 20 } }),
      ),
    );
    for (const w of waiters) expect(w.body.batch.status).toBe("completed");
    expect(waiterCount(batch.id)).toBe(0);
  });

  it("frees the waiter of a client that disconnects", async () => {
    // Queued on a driver with no capacity, the run cannot finish while it is waited on: only the
    // disconnect can end this wait (its deadline is 30 s away), whatever the machine's load.
    const real = localDriver();
    const drivers = globalThis as { __geoscopeLocalDriver?: LocalDriver };
    drivers.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
    let runId: string;
    try {
      runId = (await start("abandoned", ["gemini"])).runs[0]!.id;
    } finally {
      drivers.__geoscopeLocalDriver = real;
    }
    const controller = new AbortController();
    const request = new Request(`http://localhost/api/v1/runs/${runId}?wait=30`, {
      headers: { authorization: `Bearer ${carol.apiKey}` },
      signal: controller.signal,
    });
    const pending = getRunRoute(request, { params: Promise.resolve({ run_id: runId }) });
    await expect.poll(() => waiterCount(runId), { interval: 5, timeout: 30_000 }).toBe(1);
    controller.abort();
    const response = await pending;
    expect(response.status).toBe(200);
    expect((await response.json()).status).toBe("queued");
    expect(waiterCount(runId)).toBe(0);
    // The real driver takes the run up, as after a restart; it finishes before the next test.
    await real.sweep();
    expect((await getRun(runId, 30)).body.status).toBe("completed");
  });

  it("refuses wait out of bounds, and wait on GET /runs without a batch", async () => {
    const { runs } = await start("bounds", ["chatgpt"]);
    const tooLong = await getRun(runs[0]!.id, 31);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain("wait: must be a whole number from 0 to 30");
    const noBatch = await call(listRunsRoute, "GET", "/runs", { token: carol.apiKey, query: { wait: 5 } });
    expect(noBatch.status).toBe(400);
    expect(noBatch.body.error.message).toContain("wait");
  });
});

describe("GET /runs", () => {
  it("pages newest first with cursors", async () => {
    const all = await call(listRunsRoute, "GET", "/runs", { token: carol.apiKey, query: { limit: 200 } });
    const ids: string[] = all.body.items.map((r: { id: string }) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    expect([...ids].sort().reverse()).toEqual(ids);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(listRunsRoute, "GET", "/runs", { token: carol.apiKey, query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((r: { id: string }) => r.id));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    const bad = await call(listRunsRoute, "GET", "/runs", { token: carol.apiKey, query: { cursor: "nonsense" } });
    expect(bad.status).toBe(400);
  });
});
