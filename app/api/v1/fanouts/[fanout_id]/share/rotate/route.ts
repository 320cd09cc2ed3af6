// POST /fanouts/{fanout_id}/share/rotate: replace the fanout's link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateFanoutShare } from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/create";

export const POST = route(rotateFanoutShare, ({ principal, params }) => rotateShare(principal, "fanout", params.fanout_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
