// GET/POST/DELETE /batches/{batch_id}/share: whether the batch is shared, share it, revoke its link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getBatchShare, shareBatch, unshareBatch } from "@/lib/schemas/shares";
import { createShare, revokeShare } from "@/lib/shares/create";
import { getShareStatus } from "@/lib/shares/read";

export const GET = route(getBatchShare, ({ principal, params }) => getShareStatus(principal, "batch", params.batch_id!));
export const POST = route(shareBatch, ({ principal, params }) => createShare(principal, "batch", params.batch_id!));
export const DELETE = route(unshareBatch, ({ principal, params }) => revokeShare(principal, "batch", params.batch_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
