// Readings kept (lib/visibility/run-observations.ts) on a PostgreSQL server: many analyses at once
// of the same runs for entities nothing was read for each read the answers, keep their readings
// once they have answered (each run once per entities: a second writer's rows are the first's)
// and their answers' structures (each run once, whoever writes last),
// and answer the same figures and mentions; the next one adds up what they kept, to the same
// figures again.
import { describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { GET as mentionsRoute } from "@/app/api/v1/analyses/[analysis_id]/mentions/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { createProject } from "@/lib/projects/create";
import { READING_RULES, readingKey, readingsKept } from "@/lib/visibility/run-observations";
import { usePostgresDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";
import { localDriver } from "@/lib/work/local-driver";

useSimulatedEngines();
resetConfig();

usePostgresDatabase({ poolSize: 24 });

const ANSWERS = [
  "1. Acme CRM leads for agencies.\n2. HubSpot follows.\nSalesforce is another option.",
  "HubSpot is expensive for small teams, and Acme CRM is not.",
  "I couldn't find anything about Acme CRM.\nSalesforce suits large companies.",
];

describe("readings kept on PostgreSQL", () => {
  it("keeps each run's reading once when 8 analyses read the same runs at once, and all answer the same figures and mentions", async () => {
    const alice = await person("kept-racer@example.com");
    const principal = { user: { id: alice.id, email: alice.email }, credential: { kind: "cli_token" as const, id: alice.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
    const project = (await createProject(principal, { name: "Kept race", workspace_id: alice.workspaceId, context: null })).id;
    const batches: string[] = [];
    for (const answer of ANSWERS) {
      const batch = await call(postPrompts, "POST", "/prompts", { token: alice.cliToken, body: { prompt: `best crm ${answerDirective(answer)}`, engines: ["chatgpt", "claude", "gemini"], project } });
      expect(batch.status, batch.text).toBe(202);
      const done = await call(getBatchRoute, "GET", `/batches/${batch.body.batch.id}`, { token: alice.cliToken, params: { batch_id: batch.body.batch.id }, query: { wait: 30 } });
      expect(done.body.batch.status).toBe("completed");
      batches.push(batch.body.batch.id);
    }
    const entities = [
      { name: "Acme CRM", role: "brand" },
      { name: "HubSpot", role: "competitor" },
      { name: "Salesforce", role: "competitor" },
    ];
    const body = { ids: batches, entities };
    // The project tracks no one, so no answer's structure was kept as its run finished (the
    // prompt-run job's step after its run completed: waited for): each of the 8 reads and keeps them, at once.
    const runs = `SELECT id FROM runs WHERE batch_id = ANY($1::text[])`;
    await localDriver().drained();
    expect((await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM run_text_structures WHERE run_id IN (${runs})`, batches))[0]!.n).toBe(0);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(postVisibility, "POST", "/visibility-analyses", { token: alice.cliToken, body })));
    for (const a of answers) expect(a.status, a.text).toBe(201);
    const key = readingKey(answers[0]!.body.entities);
    await readingsKept();
    const kept = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM run_observations WHERE matcher = $1`, key);
    expect(kept[0]!.n).toBe(9);
    const structures = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM run_text_structures WHERE run_id IN (${runs}) AND rules = $2`, batches, READING_RULES);
    expect(structures[0]!.n).toBe(9);

    const figures = (a: any) => JSON.stringify([a.totals, a.rows, a.excluded_runs]);
    const page = async (id: string) => JSON.stringify((await call(mentionsRoute, "GET", `/analyses/${id}/mentions`, { token: alice.cliToken, params: { analysis_id: id }, query: { limit: 200 } })).body.items);
    const first = answers[0]!.body;
    expect(first.totals).toMatchObject({ runs: 9, mentions: 21, mentions_not_counted: { prompt_echo: 0, absence: 3, link: 0 } });
    for (const a of answers) {
      expect(figures(a.body)).toBe(figures(first));
      expect(await page(a.body.id)).toBe(await page(first.id));
    }
    const next = await call(postVisibility, "POST", "/visibility-analyses", { token: alice.cliToken, body });
    expect(figures(next.body)).toBe(figures(first));
    expect(await page(next.body.id)).toBe(await page(first.id));
  });
});
