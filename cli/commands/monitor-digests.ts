// A monitor's weekly digests: each week's, with how its sending went (sent, logged, not sent and why).
import { listMonitorDigests } from "../../lib/schemas/digests";
import { getMonitor } from "../../lib/schemas/monitors";
import { EXIT } from "../client";
import { date, intOption, note, opt, request, show, str, table, type Section } from "../command";
import { idArg } from "./monitors";

export const monitorDigests: Section = {
  title: "Monitor digests",
  commands: [
    {
      words: ["monitor", "digests"],
      args: "mo_…",
      summary: "a monitor's weekly e-mail digests, newest first, with how each was sent (turn them on with: monitor update mo_… --digest weekly)",
      options: { limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        const id = idArg(ctx);
        const query = { limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        const listed = await request(ctx, listMonitorDigests, { params: { monitor_id: id }, query });
        // None listed: whether one is coming (the monitor's setting; human output only, --json is the list).
        const off = listed.body.items.length === 0 && !ctx.json && (await request(ctx, getMonitor, { params: { monitor_id: id } })).body.alerts.digest === "off";
        show(ctx, listed, (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          if (body.items.length === 0) return off ? `(none: its weekly digest is off; turn it on with: geoscope monitor update ${id} --digest weekly)` : "(no digest yet)";
          const rows = body.items.map((d) => ({
            id: d.id,
            week: d.week,
            status: d.status,
            to: d.recipient,
            sent: d.sent_at ? date(d.sent_at) : null,
            attempts: d.attempts,
          }));
          const reasons = body.items.filter((d) => d.reason).map((d) => `${d.week}: ${d.reason}`);
          return [table(rows, ["id", "week", "status", "to", "sent", "attempts"]), ...(reasons.length ? ["", ...reasons] : [])].join("\n");
        });
        return EXIT.ok;
      },
    },
  ],
};
