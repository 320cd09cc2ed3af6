// The service and the tools around the CLI: versions, shell completion, and the MCP server.
import semver from "semver";
import { listEngines } from "../../lib/schemas/engines";
import { getVersion } from "../../lib/schemas/service";
import { EXIT } from "../client";
import { arg, noExtraArgs, note, request, show, table, UsageError, type Section } from "../command";
import { completionScript, SHELLS, type Shell } from "../completion";
import { PACK_HINT, STANDALONE } from "../config";

export const service: Section = {
  title: "Service and tools",
  commands: [
    {
      words: ["version"],
      summary: "this CLI's version and the server's min_cli_version",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        // The server answers GET /version to every CLI, so an outdated one can say what it needs.
        const response = await request(ctx, getVersion);
        const min = response.body.min_cli_version;
        show(ctx, response, () => [`geoscope-cli ${ctx.settings.version}`, `server ${ctx.settings.baseUrl}: min_cli_version ${min}`].join("\n"));
        const mine = semver.valid(ctx.settings.version);
        if (mine && semver.valid(min) && semver.lt(mine, min)) {
          note(`This geoscope CLI is version ${mine}; this server needs ${min} or newer. Upgrade it (${STANDALONE ? `install a newer geoscope-cli package: ${PACK_HINT}` : "from a checkout: git pull && npm install"}).`);
          return EXIT.outdated;
        }
        return EXIT.ok;
      },
    },
    {
      words: ["engines"],
      summary: "the answer engines: which this server runs, model API or consumer app, vendor, what a market reaches",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const yes = (b: boolean) => (b ? "yes" : "no");
        show(ctx, await request(ctx, listEngines), (b) =>
          table(
            b.items.map((e) => ({
              ...e,
              enabled: yes(e.enabled),
              location: yes(e.locale.location),
              language: yes(e.locale.language),
              queries: yes(e.reports_queries),
            })),
            ["id", "label", "surface", "vendor", "enabled", "model", "location", "language", "queries"],
          ),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["completion"],
      args: SHELLS.join("|"),
      argValues: SHELLS,
      summary: "print a shell completion script: source <(geoscope completion bash)",
      async run(ctx) {
        const shell = arg(ctx, 0, `shell (${SHELLS.join(", ")})`);
        noExtraArgs(ctx, 1);
        if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: the shell must be ${SHELLS.join(", ")}`);
        process.stdout.write(completionScript(shell as Shell, ctx.commands));
        return EXIT.ok;
      },
    },
    {
      words: ["mcp"],
      summary: "serve the API as Model Context Protocol tools over stdio, for agents (docs/guide.md: \"MCP server\")",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        if (ctx.json) throw new UsageError("mcp speaks JSON-RPC on stdout already; drop --json");
        const { serveMcp } = await import("../mcp/server");
        await serveMcp(ctx.client);
        return EXIT.ok;
      },
    },
  ],
};
