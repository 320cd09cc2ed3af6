// API keys: list, create (the secret is shown once), revoke.
import type { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey, type ApiKey } from "../../lib/schemas/auth";
import { EXIT } from "../client";
import { arg, date, noExtraArgs, note, opt, request, show, str, table, type Section } from "../command";

const keyRow = (k: z.output<typeof ApiKey>) => ({ ...k, created_at: date(k.created_at), last_used_at: date(k.last_used_at), revoked_at: date(k.revoked_at) });

export const keys: Section = {
  title: "API keys",
  commands: [
    {
      words: ["keys", "list"],
      summary: "your API keys, revoked ones included",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, listApiKeys), (b) =>
          table(b.items.map(keyRow), ["id", "name", "prefix", "workspace_id", "created_at", "last_used_at", "revoked_at"]),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["keys", "create"],
      args: "NAME",
      summary: "create an API key; the secret is printed once",
      options: { workspace: { ...opt.workspace, help: "the one workspace the key acts in and spends (default: your personal one)" } },
      async run(ctx) {
        const name = arg(ctx, 0, "key name");
        noExtraArgs(ctx, 1);
        const workspace = str(ctx, "workspace");
        show(ctx, await request(ctx, createApiKey, { body: { name, ...(workspace ? { workspace_id: workspace } : {}) } }), (k) => {
          note(`Created API key ${k.id} "${k.name}" for ${k.workspace_id}. The secret below is shown once; store it now.`);
          return k.key;
        });
        return EXIT.ok;
      },
    },
    {
      words: ["keys", "revoke"],
      args: "ak_…",
      summary: "revoke an API key at once",
      async run(ctx) {
        const id = arg(ctx, 0, "key id (ak_…)");
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, revokeApiKey, { params: { key_id: id } }), () => `Revoked ${id}.`);
        return EXIT.ok;
      },
    },
  ],
};
