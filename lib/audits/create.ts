// POST /audits: one queued audit run and its hold (the audit price, per URL), in one transaction,
// then handed to the work driver (jobs/audit-page.ts). The run has no batch and no engine.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { actorOf, holdCredit } from "../billing/holds";
import { currentDb } from "../db/client";
import { textTransaction } from "../db/sql";
import { newId } from "../db/ids";
import { getProjectOrThrow } from "../projects/read";
import { presentRun } from "../runs/present";
import { runRowsByIds } from "../runs/read";
import { checkRunsInFlight } from "../runs/create";
import { insertAuditRun } from "../runs/other-kinds";
import type { AuditRequest } from "../schemas/audits";
import { dispatch, queueJobs } from "../work/dispatch";
import { auditQueued, jobEvent } from "../work/events";

export async function createAudit(principal: Principal, input: z.output<typeof AuditRequest>) {
  const project = await getProjectOrThrow(principal, input.project);
  const workspaceId = project.workspaceId;
  const runId = newId("run");
  const url = new URL(input.url);
  const job = jobEvent(auditQueued, runId, { run_id: runId, host: url.host.toLowerCase() });
  const row = await textTransaction(currentDb(), async (sql) => {
    // Under the workspace's one lock, taken by holdCredit: see lib/runs/create.ts.
    await holdCredit(sql, { workspaceId, operationId: runId, actor: actorOf(principal), lines: [{ product: "audit", units: 1, runId }] }, async () => {
      await checkRunsInFlight(sql, workspaceId, 1);
      await insertAuditRun(sql, { id: runId, workspaceId, projectId: project.id, url: input.url, createdByUserId: principal.user.id, apiKeyId: principal.apiKeyId });
    });
    await queueJobs(sql, [job]);
    const [run] = await runRowsByIds([runId], sql);
    return run!;
  });
  // Committed: the run and its job are durable now. Dispatch failures are recovered by the driver's sweep.
  await dispatch([job]);
  return presentRun(row);
}
