// A digest's row as the read answers it (./read.ts) and the presenter reads it (./present.ts): its
// columns and type. Rows in, JSON out: neither of the two imports the other.
import type { z } from "zod";
import { date, int, text, type RowOf } from "../db/statement";
import type { Digest } from "../schemas/digests";

export const digestColumns = {
  id: text("d.id"),
  monitorId: text("d.monitor_id"),
  week: text("d.week"),
  tickId: text("d.tick_id").nullable,
  status: text<z.output<typeof Digest>["status"]>("d.status"),
  reason: text("d.reason").nullable,
  recipient: text("d.recipient").nullable,
  subject: text("d.subject"),
  attempts: int("d.attempts"),
  createdAt: date("d.created_at"),
  sentAt: date("d.sent_at").nullable,
};

export type DigestRow = RowOf<typeof digestColumns>;
