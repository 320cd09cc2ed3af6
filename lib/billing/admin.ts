// The operator's credit commands (scripts/admin.ts): record purchases and promotional grants
// until a payment provider is wired, and correct balances. Each is one ledger transaction.
import { parseArgs } from "node:util";
import { db } from "../db/client";
import { isId } from "../db/ids";
import { sqlIn } from "../db/sql";
import { workspaceExists } from "../workspaces/read";
import { adjustCredit, grantPromo, recordPurchase } from "./ledger";
import { MoneyFormatError, parseUsd } from "./money";
import { presentTransaction } from "./present";
import { workspaceBillingSummaryForOperator } from "./read";

export const BILLING_ADMIN_USAGE = `  npm run admin -- credit:add --workspace ws_... --usd 25.00 [--promo] [--note TEXT]
      records a purchase (with --promo, a promotional grant, spent first) and prints it with the new balance
  npm run admin -- credit:adjust --workspace ws_... --usd -3.00 --note TEXT [--promo]
      corrects the purchased (with --promo, the promotional) credit by a signed amount; the note says why`;

export const BILLING_ADMIN_COMMANDS = ["credit:add", "credit:adjust"] as const;

/** A mistake in how the command was called: print the message and the usage, exit 2. */
export class AdminUsageError extends Error {
  override name = "AdminUsageError";
}

// parseArgs refuses `--usd -3.00` as ambiguous (the value looks like an option); a negative
// amount is exactly what credit:adjust takes, so it is joined into `--usd=-3.00` first.
function joinNegativeAmounts(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (argv[i] === "--usd" && next !== undefined && /^-\d/.test(next)) {
      out.push(`--usd=${next}`);
      i++;
    } else out.push(argv[i]!);
  }
  return out;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: joinNegativeAmounts(argv),
      options: {
        workspace: { type: "string" },
        usd: { type: "string" },
        promo: { type: "boolean", default: false },
        note: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new AdminUsageError((error as Error).message);
  }
}

function amount(usd: string | undefined, allowNegative: boolean): bigint {
  if (usd === undefined) throw new AdminUsageError("--usd is required, e.g. --usd 25.00");
  try {
    return parseUsd(usd, { allowNegative });
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new AdminUsageError(`--usd ${error.message}`);
    throw error;
  }
}

export async function runBillingAdminCommand(command: string, argv: string[]): Promise<object> {
  if (!(BILLING_ADMIN_COMMANDS as readonly string[]).includes(command)) {
    throw new AdminUsageError(`unknown command ${command}`);
  }
  const values = parse(argv);
  const workspaceId = values.workspace;
  if (!workspaceId || !isId(workspaceId, "ws")) throw new AdminUsageError("--workspace is required and must be a workspace id (ws_...)");
  const note = values.note?.trim() || undefined;
  const adjusting = command === "credit:adjust";
  const micros = amount(values.usd, adjusting);
  if (adjusting && !note) throw new AdminUsageError("--note is required: say why the balance is corrected");
  if (!adjusting && micros === 0n) throw new AdminUsageError("--usd must be above 0.00");

  const row = await db().$transaction(async (tx) => {
    if (!(await workspaceExists(sqlIn(tx), workspaceId))) throw new Error(`no workspace ${workspaceId}`);
    if (adjusting) return adjustCredit(tx, { workspaceId, bucket: values.promo ? "promo" : "purchased", amountMicros: micros, description: note! });
    if (values.promo) return grantPromo(tx, { workspaceId, amountMicros: micros, description: note ?? "Promotional credit (operator)" });
    return recordPurchase(tx, { workspaceId, amountMicros: micros, description: note ?? "Credit purchase (operator)" });
  });
  return {
    transaction: presentTransaction({ ...row, actor: null }),
    billing: await workspaceBillingSummaryForOperator(workspaceId),
  };
}
