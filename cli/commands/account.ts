// Account: device login, logout, and who the credential belongs to.
import { hostname } from "node:os";
import { getMe } from "../../lib/schemas/accounts";
import { pollCliAuth, revokeCliToken, startCliAuth } from "../../lib/schemas/auth";
import { CliHttpError, EXIT } from "../client";
import { noExtraArgs, note, out, printJson, request, show, table, type Section } from "../command";
import { configPath, forgetToken, readConfig, writeConfig } from "../config";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const account: Section = {
  title: "Account",
  commands: [
    {
      words: ["login"],
      summary: "device login: approve the shown code in the browser",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const { body: start } = await request(ctx, startCliAuth, { body: { client_name: `geoscope CLI on ${hostname()}`.slice(0, 200) } });
        note(`To sign in, open this page in a browser where you are signed in, check the code and approve:\n\n  ${start.verification_uri_complete}\n\n  code: ${start.user_code}\n\nWaiting for approval (expires in ${Math.round(start.expires_in / 60)} min)…`);
        let interval = start.interval;
        const deadline = Date.now() + start.expires_in * 1000;
        for (;;) {
          await sleep(interval * 1000 + 100);
          const polled = await request(ctx, pollCliAuth, { body: { device_code: start.device_code } });
          const poll = polled.body;
          if (poll.status === "slow_down") interval += 5;
          else if (poll.status === "approved" && poll.token) {
            writeConfig({ ...readConfig(), base_url: ctx.settings.baseUrl, token: poll.token, token_id: poll.token_id ?? undefined, email: poll.email ?? undefined });
            note(`Logged in as ${poll.email} (token ${poll.token_id}, saved in ${configPath()}).`);
            if (ctx.json) printJson(polled.text, ctx.pretty);
            else out(`Logged in as ${poll.email}`);
            return EXIT.ok;
          } else if (poll.status === "denied" || poll.status === "expired" || poll.status === "approved") {
            note(poll.status === "denied" ? "Login denied in the browser; nothing was saved." : "The login code expired before it was approved; run `geoscope login` again.");
            if (ctx.json) printJson(polled.text, ctx.pretty);
            return EXIT.auth;
          }
          if (Date.now() >= deadline) {
            note("The login code expired before it was approved; run `geoscope login` again.");
            if (ctx.json) printJson(polled.text, ctx.pretty);
            return EXIT.auth;
          }
        }
      },
    },
    {
      words: ["logout"],
      summary: "revoke this CLI's token and forget it",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const saved = readConfig();
        try {
          const response = await request(ctx, revokeCliToken);
          if (ctx.json) printJson(response.text, ctx.pretty);
        } catch (error) {
          // A token the server no longer knows is as good as revoked: forget it anyway.
          if (!(error instanceof CliHttpError && error.code === "unauthenticated")) throw error;
        }
        if (saved.token && saved.token === ctx.settings.token) forgetToken();
        if (!ctx.json) out("Logged out.");
        return EXIT.ok;
      },
    },
    {
      words: ["whoami"],
      summary: "who the credential belongs to and where it can act (GET /me)",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, getMe), (me) =>
          [
            `${me.email}`,
            `credential: ${me.credential.kind} ${me.credential.id} "${me.credential.name}"`,
            `server: ${ctx.settings.baseUrl}${me.engines_simulated ? " (engines simulated)" : ""}`,
            "",
            table(me.workspaces, ["id", "name", "kind", "role"]),
          ].join("\n"),
        );
        return EXIT.ok;
      },
    },
  ],
};
