// GET/POST/DELETE /runs/{run_id}/share: whether the run is shared, share it, revoke its link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getRunShare, shareRun, unshareRun } from "@/lib/schemas/shares";
import { createShare, revokeShare } from "@/lib/shares/create";
import { getShareStatus } from "@/lib/shares/read";

export const GET = route(getRunShare, ({ principal, params }) => getShareStatus(principal, "run", params.run_id!));
export const POST = route(shareRun, ({ principal, params }) => createShare(principal, "run", params.run_id!));
export const DELETE = route(unshareRun, ({ principal, params }) => revokeShare(principal, "run", params.run_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
