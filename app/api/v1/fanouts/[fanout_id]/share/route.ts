// GET/POST/DELETE /fanouts/{fanout_id}/share: whether the fanout is shared, share it, revoke its link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getFanoutShare, shareFanout, unshareFanout } from "@/lib/schemas/shares";
import { createShare, revokeShare } from "@/lib/shares/create";
import { getShareStatus } from "@/lib/shares/read";

export const GET = route(getFanoutShare, ({ principal, params }) => getShareStatus(principal, "fanout", params.fanout_id!));
export const POST = route(shareFanout, ({ principal, params }) => createShare(principal, "fanout", params.fanout_id!));
export const DELETE = route(unshareFanout, ({ principal, params }) => revokeShare(principal, "fanout", params.fanout_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
