// Fanout creation racing on a PostgreSQL server: many POST /fanouts at once against one
// workspace's credit admit exactly as many as it covers, each all or nothing, never overdrawing.
import { describe, expect, it } from "vitest";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { availableMicros, readBalance, recomputeBalance, recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { localDriver } from "@/lib/work/local-driver";
import { usePostgresDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });
resetConfig();


usePostgresDatabase({ poolSize: 24 });

describe("concurrent fanout creation", () => {
  it("admits exactly the fanouts the credit covers out of 20 at once, each whole, never overdrawing", async () => {
    const admin = await person("racer@example.com");
    const ws = await db().workspace.create({
      data: { id: newId("workspace"), name: "race", kind: "team", memberships: { create: { userId: admin.id, role: "admin" } } },
    });
    // Each fanout: 5 prompts × chatgpt (0.02) × 2 runs = 0.20; the purchase covers 7.
    await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: parseUsd("1.40") }));
    const principal = { user: { id: admin.id, email: admin.email }, credential: { kind: "cli_token" as const, id: admin.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
    const project = (await createProject(principal, { name: "Race", workspace_id: ws.id, context: null })).id;
    const body = { prompts: ["a", "b", "c", "d", "e"].map((text) => ({ text })), engines: ["chatgpt"], runs: 2, project };

    const answers = await Promise.all(Array.from({ length: 20 }, () => call(postFanouts, "POST", "/fanouts", { token: admin.cliToken, body })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(13);

    // Every admitted fanout is whole: its 10 runs and their 10 holds; the refused left nothing.
    expect(await db().fanout.count({ where: { workspaceId: ws.id } })).toBe(7);
    expect(await db().run.count({ where: { workspaceId: ws.id } })).toBe(70);
    const holds = await db().creditHold.findMany({ where: { workspaceId: ws.id } });
    expect(holds).toHaveLength(70);
    expect(holds.reduce((sum, h) => sum + h.amountMicros, 0n)).toBe(parseUsd("1.40"));
    for (const admitted of answers.filter((a) => a.status === 202)) {
      expect(holds.filter((h) => h.operationId === admitted.body.id)).toHaveLength(10);
    }

    // Once the admitted runs have run (each capturing its own hold), the ledger still adds up.
    await localDriver().drained();
    const stored = await readBalance(db(), ws.id);
    expect(await recomputeBalance(db(), ws.id)).toEqual(stored);
    expect(availableMicros(stored)).toBe(0n);
  });
});
