// Reading fanouts: the detail (prompt → engine → run with observed queries), the list of
// summaries, and the observed queries aggregated per prompt × engine. Status, counts and
// money are derived from the runs and their holds, never stored twice.
//
// The detail is read by two prepared statements (lib/db/sql.ts) rather than through Prisma: the
// fanout with the access check and a signature of its runs' and holds' row versions, then the
// runs with only what the detail shows of their results (the searches, not the answers and
// sources: a 1,000-run fanout's results are some 10 MB). The body of GET /fanouts/{id} is
// remembered under that signature, so a finished fanout, which never changes, is sent as
// remembered after one small statement; any change to a run, a hold, the fanout or its
// creator's email gives another signature.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { billingSettings } from "../billing/settings";
import { holdVersionSql } from "../billing/store";
import { readWaiting } from "../changes/wait";
import { allOf, bool, date, defineStatement, group, int, optional, text } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import { decodeCursor, pageOf } from "../http/pagination";
import { getProjectOrThrow } from "../projects/read";
import { fanoutRunCountsSql, fanoutRunsDigestSql, fanoutRunsFinished, runsOfFanoutWithHolds } from "../runs/fanout-runs";
import { isFinished, statusOfCounts, type RunCounts } from "../runs/status";
import type { Fanout, FanoutList, FanoutQueryReport, FanoutsQuery } from "../schemas/fanouts";
import { readableSql, readerOf, type Reader } from "../shares/access";
import { reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { presentFanout, queryReportOf, summaryOf } from "./present";
import { fanoutColumns, observedRunColumns } from "./rows";

/** A fanout's runs in id order: what the detail shows of each, with its row's version and its hold's. */
const FANOUT_RUNS = runsOfFanoutWithHolds("fanout_runs", { runVersion: text("r.xmin"), holdVersion: text(holdVersionSql("h")), run: group(observedRunColumns) });

const fanoutRuns = (session: SqlSession, fanoutId: string) => FANOUT_RUNS.query(session, { fanout: fanoutId });

/** A fanout by id with its creator's email, no access check. */
const NEW_FANOUT = defineStatement({
  label: "fanout_new",
  params: ["fanout"],
  columns: fanoutColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM fanouts f LEFT JOIN users u ON u.id = f.created_by_user_id WHERE f.id = ${p.fanout}`,
});

/** A fanout the service itself is creating, read in its transaction (no access check: the caller made it). */
export async function readNewFanout(sql: SqlSession, fanoutId: string) {
  const row = await NEW_FANOUT.first(sql, { fanout: fanoutId });
  if (!row) throw new Error(`readNewFanout: no fanout ${fanoutId}`);
  return presentFanout(row, (await fanoutRuns(sql, fanoutId)).map((r) => r.run));
}

/**
 * The version of a fanout's detail: the fanout row's, a digest of its runs' and their holds' row
 * versions (every UPDATE gives a row a new xmin) in id order, and its creator's email.
 * fanoutSignature computes the same from the rows FANOUT_RUNS reads.
 */
const SIGNATURE = `f.xmin::text || ':' || COALESCE(${fanoutRunsDigestSql("f.id")}, '') || ':' || COALESCE(u.email, '')`;

/** A fanout the reader can read (lib/shares/access.ts), with its signature and its row version; its columns only unless `known` is the signature. */
const FANOUT_HEAD = defineStatement({
  label: "fanout_head",
  params: ["fanout", "user", "own", "share", "known"],
  columns: (p) => ({ signature: text("s.signature"), version: text("f.xmin"), fanout: optional(fanoutColumns, `s.signature IS DISTINCT FROM ${p.known}`) }),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM fanouts f LEFT JOIN users u ON u.id = f.created_by_user_id CROSS JOIN LATERAL (SELECT ${SIGNATURE} AS signature) s ` +
    `WHERE f.id = ${p.fanout} AND ${readableSql("f", p, given)}`,
});

/** SIGNATURE of the head's fanout row and these FANOUT_RUNS rows. */
function fanoutSignature(fanoutVersion: string, runRows: readonly { runVersion: string; holdVersion: string }[], email: string | null): string {
  const digest = runRows.length ? createHash("md5").update(runRows.map((r) => `${r.runVersion}.${r.holdVersion}`).join(",")).digest("hex") : "";
  return `${fanoutVersion}:${digest}:${email ?? ""}`;
}

/**
 * Detail bodies of fanouts by signature, with whether billing was on when made (their charges
 * and money show it): 8 Mi characters at most, each up to 4 Mi (a finished 1,000-run fanout is
 * some 800 Ki).
 */
const fanoutBodies = new VersionCache<{ version: string; billing: boolean; text: string; finished: boolean; size: number }>("__geoscopeFanoutBodies", 8 * 2 ** 20, 4 * 2 ** 20);

type FanoutText = { finished: boolean; text: string };

/** GET /fanouts/{id} as JSON text (the presented fanout), or null when the reader cannot read the fanout. */
export async function readFanoutText(reader: Reader, fanoutId: string): Promise<FanoutText | null> {
  const billing = billingSettings().enabled;
  const held = fanoutBodies.get(fanoutId);
  const usable = held?.billing === billing ? held : undefined;
  const head = await FANOUT_HEAD.first(standalone(), { fanout: fanoutId, ...readerOf(reader), known: usable?.version ?? null });
  if (!head) return null;
  // No columns: the signature is the one remembered.
  if (!head.fanout) return usable!;
  const runRows = await fanoutRuns(standalone(), fanoutId);
  const runs = runRows.map((r) => r.run);
  const text = JSON.stringify(presentFanout(head.fanout, runs, billing));
  const finished = runs.every((r) => isFinished(r.status));
  // Under the signature of what was read (the runs may have changed since the head was read).
  const version = fanoutSignature(head.version, runRows, head.fanout.createdBy?.email ?? null);
  fanoutBodies.set(fanoutId, { version, billing, text, finished, size: text.length });
  return { finished, text };
}

/**
 * GET /fanouts/{id} as the API sends it: JSON text, read by prepared statements and remembered
 * per version (above); with `wait`, once the fanout finished or the wait ran out.
 */
export async function getFanoutBody(principal: Principal, fanoutId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const read = await readWaiting(fanoutId, () => readFanoutText(principal, fanoutId), {
    ...options, isFinished: () => fanoutRunsFinished(fanoutId), missing: () => notFound("fanout", fanoutId),
  });
  return new JsonText<z.input<typeof Fanout>>(read.text);
}

/** A fanout as an object (pages, the queries report): the API's body, parsed. */
export async function getFanout(principal: Principal, fanoutId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<z.input<typeof Fanout>> {
  return JSON.parse((await getFanoutBody(principal, fanoutId, options)).text) as z.input<typeof Fanout>;
}

/** GET /fanouts, newest first, each fanout with its runs counted by status in a lateral aggregate: one statement per combination of filters. */
const FANOUT_LIST = defineStatement({
  label: "fanouts",
  params: ["user", "own", "workspace", "project", "before", "limit"],
  columns: {
    id: fanoutColumns.id,
    name: fanoutColumns.name,
    engines: fanoutColumns.engines,
    runsPerPrompt: fanoutColumns.runsPerPrompt,
    promptCount: int("jsonb_array_length(f.prompts)"),
    createdAt: fanoutColumns.createdAt,
    projectId: fanoutColumns.projectId,
    createdBy: fanoutColumns.createdBy,
    queued: int("t.queued"),
    running: int("t.running"),
    completed: int("t.completed"),
    failed: int("t.failed"),
    queryCount: int("t.query_count"),
    anyStarted: bool("t.any_started"),
    lastDone: date("t.last_done").nullable,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM fanouts f LEFT JOIN users u ON u.id = f.created_by_user_id CROSS JOIN LATERAL ${fanoutRunCountsSql("f.id")} t WHERE ` +
    allOf(
      given.workspace ? `f.workspace_id = ${p.workspace}` : reachableSql("f", p),
      given.project && `f.project_id = ${p.project}`,
      given.before && `f.id < ${p.before}`,
    ) +
    ` ORDER BY f.id DESC LIMIT ${p.limit}::int`,
});

/**
 * GET /fanouts: one prepared statement, the page of fanouts newest first each with its runs
 * counted by status in the database (a row per fanout, not per run).
 */
export async function listFanouts(principal: Principal, query: z.output<typeof FanoutsQuery>): Promise<z.input<typeof FanoutList>> {
  // A filter naming something the credential cannot reach answers 404, like reading it would.
  const workspace = query.workspace ? (await requireWorkspace(principal, query.workspace)).workspace.id : undefined;
  const project = query.project ? (await getProjectOrThrow(principal, query.project)).id : undefined;
  const rows = await FANOUT_LIST.query(standalone(), {
    ...reachOf(principal), workspace, project, before: query.cursor ? decodeCursor(query.cursor, "fo") : undefined, limit: query.limit + 1,
  });
  const page = pageOf(rows, query.limit);
  return {
    items: page.items.map((row) => {
      const counts: RunCounts = { queued: row.queued, running: row.running, completed: row.completed, failed: row.failed };
      const total = counts.queued + counts.running + counts.completed + counts.failed;
      return summaryOf(row, row.promptCount, {
        status: statusOfCounts(counts, row.anyStarted),
        counts,
        queryCount: row.queryCount,
        completedAt: total > 0 && counts.queued + counts.running === 0 ? row.lastDone : null,
      });
    }),
    next_cursor: page.next_cursor,
  };
}

/** GET /fanouts/{id}/queries: the observed queries of a fanout the credential can reach, per prompt × engine. */
export async function getFanoutQueries(principal: Principal, fanoutId: string): Promise<z.input<typeof FanoutQueryReport>> {
  return queryReportOf(await getFanout(principal, fanoutId));
}