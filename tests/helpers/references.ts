// The reads the byte-for-byte tests compare the API with: the same presenters the app uses, given
// rows read through Prisma (every column of each table, so a column added to a statement's list
// is here without a change), with filters and access rules written again here, not taken from
// the code under test.
import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { presentFanout } from "@/lib/fanouts/present";
import { decodeCursor, pageOf } from "@/lib/http/pagination";
import { presentPromptBatch, presentRun, presentRunSummary, presentRunWithEnvelope } from "@/lib/runs/present";
import type { RunsQuery } from "@/lib/schemas/runs";

/** The access rule written again, as a Prisma filter: a workspace the user belongs to, the API key's own when the credential is one. */
function reachableBy(principal: Principal) {
  return {
    ...(principal.workspaceId ? { workspaceId: principal.workspaceId } : {}),
    workspace: { memberships: { some: { userId: principal.user.id } } },
  };
}

/** The workspaces the credential can act in, by the same rule. */
async function reachableWorkspaceIds(principal: Principal): Promise<string[]> {
  const rows = await db().workspace.findMany({ where: { id: principal.workspaceId ?? undefined, memberships: { some: { userId: principal.user.id } } }, select: { id: true } });
  return rows.map((w) => w.id);
}

const creator = { createdBy: { select: { email: true } } } as const;
const runInclude = { ...creator, hold: true } as const;

/** GET /runs/{id} (with include=raw_envelope when `envelope`) as the presenter makes it of the run Prisma reads; null when unreachable. */
export async function referenceRun(principal: Principal, runId: string, options: { envelope?: boolean } = {}): Promise<string | null> {
  const row = await db().run.findFirst({ where: { id: runId, ...reachableBy(principal) }, include: runInclude });
  if (!row) return null;
  return JSON.stringify(options.envelope ? presentRunWithEnvelope(row, row.rawEnvelope) : presentRun(row));
}

/** GET /batches/{id} as the presenter makes it of the batch and runs Prisma reads. */
export async function referenceBatch(principal: Principal, batchId: string): Promise<string | null> {
  const batch = await db().batch.findFirst({
    where: { id: batchId, ...reachableBy(principal) },
    include: { ...creator, runs: { include: runInclude, orderBy: { id: "asc" } } },
  });
  return batch ? JSON.stringify(presentPromptBatch(batch, batch.runs)) : null;
}

/** GET /runs as the presenter makes it of the runs Prisma reads (the query's objects taken as reachable). */
export async function referenceRunList(principal: Principal, query: z.output<typeof RunsQuery>): Promise<string> {
  const where: Prisma.RunWhereInput = {
    workspaceId: query.workspace ?? { in: await reachableWorkspaceIds(principal) },
    projectId: query.project,
    batchId: query.batch,
    fanoutId: query.fanout,
    status: query.status,
    engine: query.engine,
    ...(query.country ? { input: { path: ["location", "country"], equals: query.country } } : {}),
    ...(query.cursor ? { id: { lt: decodeCursor(query.cursor, "dr") } } : {}),
  };
  const rows = await db().run.findMany({ where, orderBy: { id: "desc" }, take: query.limit + 1, include: creator });
  const page = pageOf(rows, query.limit);
  return JSON.stringify({ items: page.items.map(presentRunSummary), next_cursor: page.next_cursor });
}

/** GET /fanouts/{id} as the presenter makes it of the fanout and runs Prisma reads. */
export async function referenceFanout(fanoutId: string): Promise<string> {
  const fanout = await db().fanout.findUniqueOrThrow({ where: { id: fanoutId }, include: creator });
  const runs = await db().run.findMany({ where: { fanoutId }, include: { hold: true }, orderBy: { id: "asc" } });
  return JSON.stringify(presentFanout(fanout, runs));
}
