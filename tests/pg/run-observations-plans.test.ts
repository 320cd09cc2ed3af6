// A monitor's readings pile up under one key with every tick (lib/visibility/run-observations.ts):
// reading a tick's kept readings (by its runs, or with them by its fanout) and copying its
// mentions into the analysis look each run up by its primary key, however many readings the key
// holds, never a scan of them all. Checked on the
// statements' own texts, planned by PostgreSQL with a call's values (the plan a connection makes
// on its first executions of a prepared statement), over 60,000 readings under the key.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { arrayParam, definedStatements } from "@/lib/db/statement";
import "@/lib/visibility/run-observations";
import { usePostgresDatabase } from "../helpers/app";

usePostgresDatabase({ poolSize: 1 });

const KEY = "k".repeat(32);
const TICK = Array.from({ length: 4500 }, (_, i) => `dr_tick_${String(i).padStart(5, "0")}`);

beforeAll(async () => {
  // 60,000 readings under the key (a 4,500-run monitor's thirteen ticks and more), the tick's among them, and others under other keys.
  await db().$executeRawUnsafe(
    `INSERT INTO run_observations (run_id, matcher, cells, mentions, entities, counted, not_counted)
     SELECT 'dr_' || lpad(g::text, 6, '0'), m, '\\x00'::bytea, '{0,0,5,0,0,0,1,0}'::int[], 1, 1, 0
     FROM generate_series(1, 60000) g CROSS JOIN (VALUES ($1), ($2)) AS keys(m)`,
    KEY,
    "o".repeat(32),
  );
  await db().$executeRawUnsafe(
    `INSERT INTO run_observations (run_id, matcher, cells, mentions, entities, counted, not_counted)
     SELECT r, $1, '\\x00'::bytea, '{0,0,5,0,0,0,1,0}'::int[], 1, 1, 0 FROM unnest($2::text[]) r`,
    KEY,
    TICK,
  );
  await db().$executeRawUnsafe("ANALYZE run_observations");
});

/** The plan PostgreSQL makes for the statement `label` with these values, as text. */
async function planOf(label: string, values: Record<string, string>): Promise<string> {
  const statement = definedStatements().find((s) => s.label === label);
  if (!statement) throw new Error(`no statement ${label}`);
  const rendered = statement.render(Object.fromEntries(statement.params.map((p) => [p, true])) as never);
  const rows = (await db().$queryRawUnsafe(`EXPLAIN ${rendered.text}`, ...rendered.params.map((p) => values[p]))) as { "QUERY PLAN": string }[];
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

describe("a tick's kept readings, with many more kept under its monitor's key", () => {
  it("are read by looking each run up, not by scanning the key's readings", async () => {
    const plan = await planOf("run_observations_read", { key: KEY, runs: arrayParam(TICK) });
    expect(plan).toMatch(/Index Scan using run_observations_pkey on run_observations/);
    expect(plan).not.toMatch(/Seq Scan on run_observations|Hash Join/);
  });

  it("are read the same way when asked for with the tick's runs, by its fanout", async () => {
    const plan = await planOf("run_observations_read_named", { key: KEY, runs: arrayParam([]), batches: arrayParam([]), fanouts: arrayParam(["fo_plan"]) });
    expect(plan).toMatch(/Index Scan using run_observations_pkey on run_observations/);
    expect(plan).not.toMatch(/Seq Scan on run_observations|Hash Join/);
  });

  it("have their mentions copied into the analysis the same way", async () => {
    const plan = await planOf("run_observations_to_analysis", {
      analysis: "va_plan",
      key: KEY,
      positions: arrayParam(TICK.map((_, i) => i)),
      runs: arrayParam(TICK),
    });
    expect(plan).toMatch(/Index Scan using run_observations_pkey on run_observations/);
    expect(plan).not.toMatch(/Seq Scan on run_observations|Hash Join/);
  });
});
