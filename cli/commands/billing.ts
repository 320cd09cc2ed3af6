// Billing and prices: the balance, the ledger, usage by day, and the rate card.
import { getBilling, getPricing, getUsage, listTransactions } from "../../lib/schemas/billing";
import { EXIT } from "../client";
import { date, intOption, noExtraArgs, note, opt, request, show, str, table, truncate, type Section } from "../command";

const usd = (amount: string | null) => (amount === null ? "-" : `$${amount}`);

export const billing: Section = {
  title: "Billing",
  commands: [
    {
      words: ["billing", "summary"],
      summary: "balance by bucket, held, available and this month's spend",
      options: { workspace: opt.workspace },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, getBilling, { query: { workspace: str(ctx, "workspace") } }), (b) =>
          [
            `workspace: ${b.workspace_id ?? "-"}${b.enabled ? "" : " (billing is off on this server)"}`,
            `balance:    $${b.balance_usd} (purchased $${b.purchased_usd}, promotional $${b.promotional_usd})`,
            `held:       ${usd(b.held_usd)}`,
            `available:  ${usd(b.available_usd)}`,
            `this month: $${b.spend_month_to_date_usd}`,
            `add credit: ${b.add_credit_url}`,
          ].join("\n"),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["billing", "transactions"],
      summary: "every change to the balance, newest first, with who made it",
      options: { workspace: opt.workspace, limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const query = { workspace: str(ctx, "workspace"), limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listTransactions, { query }), (b) => {
          if (b.next_cursor) note(`more: --cursor ${b.next_cursor}`);
          return table(
            b.items.map((t) => ({ ...t, created_at: date(t.created_at), description: truncate(t.description, 50) })),
            ["created_at", "kind", "bucket", "amount_usd", "actor", "description"],
          );
        });
        return EXIT.ok;
      },
    },
    {
      words: ["billing", "usage"],
      summary: "what was charged, by day, product and engine",
      options: { workspace: opt.workspace, days: { type: "string", arg: "N", help: "UTC days to report, today included: 1 to 366 (default 30)" } },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, getUsage, { query: { workspace: str(ctx, "workspace"), days: intOption(ctx, "days") } }), (b) =>
          [`last ${b.days} days: $${b.total_usd}`, table(b.rows, ["day", "product", "engine", "operations", "units", "charged_usd"])].join("\n"),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["pricing"],
      summary: "the rate card: what each product costs per unit",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, getPricing), (card) =>
          [`rate card ${card.version}, effective ${date(card.effective_from)}, ${card.currency}`, table(card.prices, ["product", "engine", "unit", "unit_price_usd"])].join("\n"),
        );
        return EXIT.ok;
      },
    },
  ],
};
