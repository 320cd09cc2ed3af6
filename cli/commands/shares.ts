// Share links: one public, read-only link to a finished run or analysis, created, rotated, revoked
// or looked at. The link alone goes to stdout (`open $(geoscope share dr_…)`), the notes to stderr.
import {
  getAnalysisShare, getRunShare, rotateAnalysisShare, rotateRunShare, shareAnalysis, shareRun, unshareAnalysis, unshareRun,
} from "../../lib/schemas/shares";
import { EXIT } from "../client";
import { arg, date, noExtraArgs, note, request, show, UsageError, type Ctx, type Section } from "../command";

const ACTIONS = ["status", "rotate", "revoke"] as const;

/** The run's or the analysis's share endpoints, chosen by the id's prefix before anything is asked. */
export function shareTargetOf(id: string) {
  if (id.startsWith("dr_")) {
    return { noun: "run", params: { run_id: id }, get: getRunShare, create: shareRun, rotate: rotateRunShare, revoke: unshareRun } as const;
  }
  if (id.startsWith("fa_") || id.startsWith("ca_") || id.startsWith("va_")) {
    return { noun: "analysis", params: { analysis_id: id }, get: getAnalysisShare, create: shareAnalysis, rotate: rotateAnalysisShare, revoke: unshareAnalysis } as const;
  }
  throw new UsageError(`share takes a run id (dr_…) or an analysis id (fa_…, ca_… or va_…), not ${id}`);
}

/** The one action asked for (--status, --rotate, --revoke), or "create" without any. */
function actionOf(ctx: Ctx): (typeof ACTIONS)[number] | "create" {
  const given = ACTIONS.filter((a) => ctx.values[a] === true);
  if (given.length > 1) throw new UsageError(`${given.map((a) => `--${a}`).join(" and ")} cannot go together: give one of --status, --rotate, --revoke, or none to share`);
  return given[0] ?? "create";
}

export const shares: Section = {
  title: "Share links",
  commands: [
    {
      words: ["share"],
      args: "dr_…|fa_…|ca_…|va_…",
      summary: "a public read-only link to a finished run or analysis: prints the URL (the same one if already shared)",
      options: {
        status: { type: "boolean", help: "whether it is shared, and its link; changes nothing" },
        rotate: { type: "boolean", help: "replace the link with a new one: the old one stops working at once" },
        revoke: { type: "boolean", help: "revoke the link: it stops working at once (sharing again makes a new one)" },
      },
      async run(ctx) {
        const id = arg(ctx, 0, "run or analysis id (dr_…, fa_…, ca_… or va_…)");
        noExtraArgs(ctx, 1);
        const action = actionOf(ctx);
        const target = shareTargetOf(id);
        const { params, noun } = target;
        switch (action) {
          case "create":
            show(ctx, await request(ctx, target.create, { params }), (s) => {
              note(`shared ${noun} ${id} (${s.id}); anyone with this link can read it. Revoke it with: geoscope share ${id} --revoke`);
              return s.url;
            });
            break;
          case "rotate":
            show(ctx, await request(ctx, target.rotate, { params }), (s) => {
              note(`new link to ${noun} ${id} (${s.id}${s.rotated_from ? `, replacing ${s.rotated_from}` : ""}); the old link no longer works`);
              return s.url;
            });
            break;
          case "revoke":
            show(ctx, await request(ctx, target.revoke, { params }), () => `revoked: the link to ${id} no longer works`);
            break;
          case "status":
            show(ctx, await request(ctx, target.get, { params }), ({ shared, share }) => {
              if (shared && share) return `shared: ${share.url} (since ${date(share.created_at)})`;
              return share?.revoked_at ? `not shared (last link revoked ${date(share.revoked_at)})` : "not shared";
            });
            break;
        }
        return EXIT.ok;
      },
    },
  ],
};
