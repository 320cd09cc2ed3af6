// Judged visibility analyses on a PostgreSQL server (decisions.md "Judged visibility"): many
// POST /visibility-analyses with `judge` at once against one workspace's credit admit exactly as
// many as it covers (each with its hold, the rest 402 with nothing stored), every admitted one is
// judged by its job, and its finishing step run by several workers at once captures its hold once.
import { describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { availableMicros, readBalance, recomputeBalance, recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { newId } from "@/lib/db/ids";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { createProject } from "@/lib/projects/create";
import { finishJudgedAnalysis } from "@/lib/visibility/judging";
import { localDriver } from "@/lib/work/local-driver";
import { db } from "@/lib/db/client";
import { usePostgresDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });
resetConfig();

usePostgresDatabase({ poolSize: 24 });

const ANSWER = "Acme CRM is the best choice for small agencies.\nHubSpot is expensive for small teams.\nSalesforce is another option.";

describe("judged visibility analyses on PostgreSQL", () => {
  it("admits exactly the judged analyses the credit covers out of 12 at once, judges each, and settles each hold once", async () => {
    const admin = await person("judge-racer@example.com");
    const ws = await db().workspace.create({
      data: { id: newId("workspace"), name: "judge race", kind: "team", memberships: { create: { userId: admin.id, role: "admin" } } },
    });
    const principal = { user: { id: admin.id, email: admin.email }, credential: { kind: "cli_token" as const, id: admin.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
    const project = (await createProject(principal, { name: "Judge race", workspace_id: ws.id, context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } })).id;
    // Two runs (chatgpt 0.02, gemini 0.015), then credit for exactly 5 analyses of them judged on claude (2 × 0.006).
    await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: parseUsd("0.035") }));
    const batch = await call(postPrompts, "POST", "/prompts", { token: admin.cliToken, body: { prompt: `crm ${answerDirective(ANSWER)}`, engines: ["chatgpt", "gemini"], project } });
    expect(batch.status, batch.text).toBe(202);
    const done = await call(getBatchRoute, "GET", `/batches/${batch.body.batch.id}`, { token: admin.cliToken, params: { batch_id: batch.body.batch.id }, query: { wait: 30 } });
    expect(done.body.batch.status).toBe("completed");
    await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: parseUsd("0.06") }));
    expect(availableMicros(await readBalance(db(), ws.id))).toBe(parseUsd("0.06"));

    const body = { ids: [batch.body.batch.id], judge: { engine: "claude", sentiment: true, discover: true } };
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(postVisibility, "POST", "/visibility-analyses", { token: admin.cliToken, body })));
    const admitted = answers.filter((a) => a.status === 202);
    expect(admitted).toHaveLength(5);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(7);
    expect(await db().analysis.count({ where: { workspaceId: ws.id, kind: "visibility" } })).toBe(5);

    for (const a of admitted) {
      const got = await call(getAnalysisRoute, "GET", `/analyses/${a.body.id}`, { token: admin.cliToken, params: { analysis_id: a.body.id }, query: { wait: 30 } });
      expect(got.body.status).toBe("completed");
      expect(got.body.judge).toMatchObject({ runs: 2, runs_judged: 2, quotes_rejected: 0 });
      expect(got.body.rows[0].sentiment).toMatchObject({ positive: 2, score: 1 });
      expect(got.body.discovered.map((d: { name: string }) => d.name)).toEqual(["Salesforce"]);
      expect(got.body.charge).toMatchObject({ status: "captured", units: 2, amount_usd: "0.012" });
      // Its finishing step run again by 6 workers at once: nothing more happens.
      expect(await Promise.all(Array.from({ length: 6 }, () => finishJudgedAnalysis(a.body.id)))).toEqual(Array(6).fill("skipped"));
    }
    const balance = await readBalance(db(), ws.id);
    expect(availableMicros(balance)).toBe(0n);
    expect(balance.heldMicros).toBe(0n);
    expect(await recomputeBalance(db(), ws.id)).toEqual(balance);
    const usage = await db().ledgerTransaction.findMany({ where: { workspaceId: ws.id, kind: "usage", product: "judge" } });
    expect(usage.map((u) => u.units)).toEqual([2, 2, 2, 2, 2]);
  });
});
