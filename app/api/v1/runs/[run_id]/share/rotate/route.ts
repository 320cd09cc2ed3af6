// POST /runs/{run_id}/share/rotate: replace the run's link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateRunShare } from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/create";

export const POST = route(rotateRunShare, ({ principal, params }) => rotateShare(principal, "run", params.run_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
