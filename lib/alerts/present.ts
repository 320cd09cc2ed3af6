// An alert as the API shows it (GET /monitors/{id}/alerts, POST …/alerts/test): its row in, JSON out.
import type { z } from "zod";
import type { Alert } from "../schemas/alerts";
import type { AlertRow } from "./rows";
import { changeFields } from "./words";

export function presentAlert(row: AlertRow): z.input<typeof Alert> {
  const fields = changeFields(row.change);
  return {
    id: row.id,
    kind: row.kind,
    tick_id: row.tickId,
    reason: row.reason,
    ...fields,
    engine: fields.engine as z.input<typeof Alert>["engine"],
    summary: row.summary,
    created_at: row.createdAt.toISOString(),
    deliveries: row.deliveries,
  };
}
