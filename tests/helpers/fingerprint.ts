// A fingerprint of everything the database holds, to prove a refused request changed nothing:
// every table's row count, and the content of the tables a refused request could plausibly alter
// in place. Columns that authenticating a request legitimately touches are left out. One query.
import { db } from "@/lib/db/client";

/** Written by authentication itself (lib/auth/authenticate.ts), whatever the request. */
const TOUCHED_BY_AUTHENTICATION = ["last_used_at", "expires_at"];
/** Rows here are only ever added by work and its jobs; their counts and newest change suffice (hashing them grows with every run). */
const APPEND_ONLY = new Set([
  "runs", "run_sources", "jobs", "credit_holds", "ledger_transactions", "analyses", "batches", "fanouts",
]);

type Plan = { sql: string };
const plans = new WeakMap<object, Plan>();

async function planFor(): Promise<Plan> {
  const client = db();
  let plan = plans.get(client);
  if (plan) return plan;
  const columns = await client.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`,
  );
  const tables = new Map<string, string[]>();
  for (const c of columns) tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), c.column_name]);
  const parts: string[] = [];
  for (const [table, cols] of [...tables].sort(([a], [b]) => a.localeCompare(b))) {
    const t = `"${table}"`;
    parts.push(`'${table}', (SELECT count(*) FROM ${t})`);
    if (APPEND_ONLY.has(table)) {
      if (cols.includes("updated_at")) parts.push(`'${table}.updated_at', (SELECT max(updated_at)::text FROM ${t})`);
    } else {
      const row = `(to_jsonb(r) ${TOUCHED_BY_AUTHENTICATION.map((c) => `- '${c}'`).join(" ")})::text`;
      parts.push(`'${table}.md5', (SELECT md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) FROM ${t} r)`);
    }
  }
  // json_build_object takes at most 100 arguments: nest it by chunks.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 40) chunks.push(`jsonb_build_object(${parts.slice(i, i + 40).join(", ")})`);
  plan = { sql: `SELECT (${chunks.join(" || ")})::text AS f` };
  plans.set(client, plan);
  return plan;
}

export async function dbFingerprint(): Promise<Record<string, unknown>> {
  const [row] = await db().$queryRawUnsafe<{ f: string }[]>((await planFor()).sql);
  return JSON.parse(row!.f) as Record<string, unknown>;
}

/** What differs between two fingerprints, as `table: before -> after` lines (empty when nothing). */
export function fingerprintChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).map((k) => `${k}: ${String(before[k])} -> ${String(after[k])}`);
}
