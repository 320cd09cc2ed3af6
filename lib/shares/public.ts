// What a public share link shows (decisions.md "Sharing"): the object as the API answers it, read
// by the API's own read through the working share (lib/shares/reader.ts), with what identifies or
// bills the workspace left out (each kind's publicCopy: ./kinds.ts).
import type { ShareKind } from "../schemas/shares";
import { shareKindEntry, type PublicBodies } from "./kinds";
import { workingShare } from "./service";

export type SharedObject = { [K in ShareKind]: { kind: K; shareId: string; body: PublicBodies[K] } }[ShareKind];

/** The shared object a token names while its link works, else null (the same for every reason). */
export async function sharedObject(token: string): Promise<SharedObject | null> {
  const share = await workingShare(token);
  if (!share) return null;
  const kind = shareKindEntry(share.targetKind)!;
  // Null when the link was revoked since, or the object is gone: the read checks the share again.
  const read = await kind.read({ share: share.id }, share.targetId);
  if (!read) return null;
  return { kind: share.targetKind, shareId: share.id, body: kind.publicCopy(JSON.parse(read.text)) } as SharedObject;
}
