// The route handlers of a kind's share endpoints (GET/POST/DELETE …/share and POST …/share/rotate),
// made from its entry in SHARE_TARGETS: each route file under app/api/v1 is one line.
import { otherMethods } from "../http/methods";
import { route } from "../http/route";
import { SHARE_ENDPOINTS, SHARE_TARGETS, type ShareKind } from "../schemas/shares";
import { createShare, getShareStatus, revokeShare, rotateShare } from "./service";

/** …/{id}/share: GET (status), POST (share), DELETE (revoke), and 405 for the rest. */
export function shareRoutes(kind: ShareKind) {
  const endpoints = SHARE_ENDPOINTS[kind];
  const idOf = (params: Record<string, string>) => params[SHARE_TARGETS[kind].param]!;
  const GET = route(endpoints.get, ({ principal, params }) => getShareStatus(principal, kind, idOf(params)));
  const POST = route(endpoints.create, ({ principal, params }) => createShare(principal, kind, idOf(params)));
  const DELETE = route(endpoints.revoke, ({ principal, params }) => revokeShare(principal, kind, idOf(params)));
  return { GET, POST, DELETE, ...otherMethods({ GET, POST, DELETE }) };
}

/** …/{id}/share/rotate: POST, and 405 for the rest. */
export function shareRotateRoutes(kind: ShareKind) {
  const POST = route(SHARE_ENDPOINTS[kind].rotate, ({ principal, params }) => rotateShare(principal, kind, params[SHARE_TARGETS[kind].param]!));
  return { POST, ...otherMethods({ POST }) };
}
