// A project's brand's last visibility rate: the first brand row of its newest completed visibility
// analysis, for the estimates' margins (decisions.md "Statistics users can plan with"). The caller
// has checked the project is the principal's.
import { defineStatement, float, int, text } from "../db/statement";
import { standalone } from "../db/sql";

const LAST_BRAND_ROW = defineStatement({
  label: "visibility_last_brand_row",
  params: ["project"],
  columns: {
    analysisId: text("a.id"),
    entity: text("b.row->>'name'"),
    runs: int("b.row->>'runs'"),
    runsMentioning: int("b.row->>'runs_mentioning'"),
    visibility: float("b.row->>'visibility'"),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM analyses a ` +
    `CROSS JOIN LATERAL (SELECT jsonb_path_query_first(a.result->'rows', '$[*] ? (@.role == "brand")') AS row) b ` +
    `WHERE a.project_id = ${p.project} AND a.kind = 'visibility' AND a.status = 'completed' AND b.row IS NOT NULL ` +
    `ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
});

export type LastBrandRate = { analysisId: string; entity: string; runs: number; runsMentioning: number; visibility: number };

/** The brand's visibility in the project's newest completed visibility analysis that tracks one; null when none. */
export async function lastBrandRate(projectId: string): Promise<LastBrandRate | null> {
  const [row] = await LAST_BRAND_ROW.query(standalone(), { project: projectId });
  return row ?? null;
}
