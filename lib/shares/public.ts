// What a public share link shows (decisions.md "Sharing"): the object as the API answers it, with
// who and where left out: project_id and created_by null (spec), and, as decided here, the run
// input's `project` removed and `charge` null (a workspace's spending is not the reader's business).
import type { z } from "zod";
import { analysisById } from "../analyses/service";
import { runById } from "../runs/runs";
import type { Analysis } from "../schemas/analyses";
import type { Run } from "../schemas/runs";
import { workingShare } from "./service";

export type SharedObject =
  | { kind: "run"; shareId: string; body: z.input<typeof Run> }
  | { kind: "analysis"; shareId: string; body: z.input<typeof Analysis> };

/** The shared object a token names while its link works, else null (the same for every reason). */
export async function sharedObject(token: string): Promise<SharedObject | null> {
  const share = await workingShare(token);
  if (!share) return null;
  if (share.targetKind === "run") {
    const run = await runById(share.targetId);
    if (!run) return null;
    const { project: _project, ...input } = run.input;
    return { kind: "run", shareId: share.id, body: { ...run, input, project_id: null, created_by: null, charge: null } };
  }
  const analysis = await analysisById(share.targetId);
  if (!analysis) return null;
  return { kind: "analysis", shareId: share.id, body: { ...analysis, project_id: null, created_by: null, charge: null } };
}
