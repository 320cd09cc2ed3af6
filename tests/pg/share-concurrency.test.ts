// Share links racing on a PostgreSQL server: concurrent "share" requests for one run get one
// link (the partial unique index shares_live_target_key decides), and concurrent rotations leave
// exactly one working link whose chain of rotated_from names only revoked shares.
import { describe, expect, it } from "vitest";
import { POST as postRunShare } from "@/app/api/v1/runs/[run_id]/share/route";
import { POST as rotateRunShare } from "@/app/api/v1/runs/[run_id]/share/rotate/route";
import { resetConfig } from "@/lib/config/env";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { sharedObject } from "@/lib/shares/read";
import { db } from "@/lib/db/client";
import { usePostgresDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf } from "../helpers/people";

useSimulatedEngines();
resetConfig();

usePostgresDatabase({ poolSize: 24 });

describe("concurrent sharing", () => {
  it("gives 20 simultaneous share requests one link, then leaves one working link after 20 simultaneous rotations", async () => {
    const owner = await person("sharer@example.com");
    const project = (await createProject(principalOf(owner), { name: "Race", workspace_id: owner.workspaceId, context: null })).id;
    const run = await db().run.create({
      data: {
        id: newId("run"), kind: "prompt", status: "completed", workspaceId: owner.workspaceId, projectId: project, engine: "chatgpt",
        subject: "race", input: { prompt: "race", engine: "chatgpt", project }, completedAt: new Date(),
      },
    });
    const params = { run_id: run.id };
    const shared = await Promise.all(
      Array.from({ length: 20 }, () => call(postRunShare, "POST", `/runs/${run.id}/share`, { token: owner.cliToken, params })),
    );
    expect(shared.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(shared.map((a) => a.body.id)).size).toBe(1);
    expect(await db().share.count({ where: { targetId: run.id } })).toBe(1);

    const rotated = await Promise.all(
      Array.from({ length: 20 }, () => call(rotateRunShare, "POST", `/runs/${run.id}/share/rotate`, { token: owner.cliToken, params })),
    );
    expect(rotated.map((a) => a.status)).toEqual(Array(20).fill(200));
    const live = await db().share.findMany({ where: { targetId: run.id, revokedAt: null } });
    expect(live).toHaveLength(1);
    // Every answer names a share of the chain, and the chain runs back to the first link through revoked shares.
    const all = await db().share.findMany({ where: { targetId: run.id } });
    const byId = new Map(all.map((s) => [s.id, s]));
    for (const answer of rotated) expect(byId.has(answer.body.id)).toBe(true);
    let link = live[0]!;
    const seen = new Set<string>();
    while (link.rotatedFromId) {
      seen.add(link.id);
      const previous = byId.get(link.rotatedFromId)!;
      expect(previous.revokedAt).not.toBeNull();
      link = previous;
    }
    expect(link.id).toBe(shared[0]!.body.id);
    expect(seen.size + 1).toBe(all.length);
    // Only the working link opens the page.
    const working = rotated.find((a) => a.body.id === live[0]!.id)!;
    const shown = await sharedObject(working.body.url.split("/s/")[1]!);
    expect(shown?.kind === "run" && shown.body.id).toBe(run.id);
    for (const answer of rotated.filter((a) => a.body.id !== live[0]!.id)) {
      expect(await sharedObject(answer.body.url.split("/s/")[1]!)).toBeNull();
    }
  });
});
