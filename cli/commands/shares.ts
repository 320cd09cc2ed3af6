// Share links: one public, read-only link to a finished run, analysis, fanout or prompt batch, or
// to a monitor (a live dashboard of its series),
// created, rotated, revoked or looked at. The link alone goes to stdout (`open $(geoscope share
// dr_…)`), the notes to stderr. The kinds and their endpoints are SHARE_TARGETS' (lib/schemas/shares.ts).
import { SHARE_ENDPOINTS, SHARE_KIND_NAMES, SHARE_TARGETS, shareKindOfId, sharePrefixesOf } from "../../lib/schemas/shares";
import { EXIT } from "../client";
import { arg, date, noExtraArgs, note, request, show, UsageError, type Ctx, type Section } from "../command";

const ACTIONS = ["status", "rotate", "revoke"] as const;

/** "a, b or c". */
const orList = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? ""));
const idsOf = (kind: (typeof SHARE_KIND_NAMES)[number]) => sharePrefixesOf(kind).map((p) => `${p}_…`);
/** "a run (dr_…), an analysis (fa_… or ca_…), …". */
const KINDS_WORDS = orList(SHARE_KIND_NAMES.map((kind) => `${SHARE_TARGETS[kind].noun} (${orList(idsOf(kind))})`));
const ALL_IDS = SHARE_KIND_NAMES.flatMap(idsOf);

/** The share endpoints of the id's kind, chosen by the id's prefix before anything is asked. */
export function shareTargetOf(id: string) {
  const kind = shareKindOfId(id);
  if (!kind) throw new UsageError(`share takes the id of a ${KINDS_WORDS}, not ${id}`);
  const { noun, param } = SHARE_TARGETS[kind];
  return { noun, params: { [param]: id }, ...SHARE_ENDPOINTS[kind] };
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
      args: ALL_IDS.join("|"),
      summary: "a public read-only link to a finished run, analysis, fanout or prompt batch, or to a monitor's live dashboard: prints the URL (the same one if already shared)",
      options: {
        status: { type: "boolean", help: "whether it is shared, and its link; changes nothing" },
        rotate: { type: "boolean", help: "replace the link with a new one: the old one stops working at once" },
        revoke: { type: "boolean", help: "revoke the link: it stops working at once (sharing again makes a new one)" },
      },
      async run(ctx) {
        const id = arg(ctx, 0, `id of a run, analysis, fanout, prompt batch or monitor (${orList(ALL_IDS)})`);
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
