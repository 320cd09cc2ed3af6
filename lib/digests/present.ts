// A digest as the API shows it (GET /monitors/{id}/digests): its row in, JSON out.
import type { z } from "zod";
import type { Digest } from "../schemas/digests";
import type { DigestRow } from "./rows";

export function presentDigest(row: DigestRow): z.input<typeof Digest> {
  return {
    id: row.id,
    monitor_id: row.monitorId,
    week: row.week,
    tick_id: row.tickId,
    status: row.status,
    reason: row.reason,
    recipient: row.recipient,
    subject: row.subject,
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  };
}
