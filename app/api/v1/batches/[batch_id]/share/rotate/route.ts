// POST /batches/{batch_id}/share/rotate: replace the batch's link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateBatchShare } from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/create";

export const POST = route(rotateBatchShare, ({ principal, params }) => rotateShare(principal, "batch", params.batch_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
