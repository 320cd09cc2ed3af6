// The operator's commands (`npm run admin -- COMMAND …`), run in whichever process holds the
// database: the admin script's own (the server stopped, or a PostgreSQL server shared by both), or
// the running server's, reached through its operator endpoint (./endpoint.ts). Each answers what
// it did in one line for a person, beside the JSON it has always printed.
import { parseArgs } from "node:util";
import { ensureUser } from "../accounts/users";
import { issueApiKey } from "../auth/api-keys";
import { AdminUsageError, BILLING_ADMIN_COMMANDS, BILLING_ADMIN_USAGE, runBillingAdminCommand } from "../billing/admin";
import { sendJob } from "../work/admin";

export { AdminUsageError };

export const OPERATOR_USAGE = `usage:
  npm run admin -- user:create --email EMAIL [--name NAME] [--api-key KEY_NAME]
      creates the user and their personal workspace (or finds them), and with --api-key
      makes an API key for that workspace; prints the user (and the key, shown once) as JSON
${BILLING_ADMIN_USAGE}
  npm run admin -- job:send --event NAME --id ID --data JSON
      records the job that event NAME starts (lib/work/events.ts), its data checked against the
      event's schema; the server's worker runs it (at its start, or when its next sweep comes)
Each command prints its JSON on stdout and what it did on stderr. With the embedded database
(no DATABASE_URL) and the server running, it is carried out by the server, through its
loopback operator endpoint.`;

export const OPERATOR_COMMANDS = ["user:create", ...BILLING_ADMIN_COMMANDS, "job:send"] as const;
export type OperatorCommand = (typeof OPERATOR_COMMANDS)[number];

export function isOperatorCommand(command: string | undefined): command is OperatorCommand {
  return (OPERATOR_COMMANDS as readonly string[]).includes(command ?? "");
}

/** What a command did: its JSON (stdout) and one line saying so (stderr). */
export type OperatorOutcome = { result: Record<string, unknown>; summary: string };

/** String options only, as every command here takes; a mistake is an AdminUsageError (usage, exit 2). */
function parse(args: string[], names: string[]): Record<string, string | undefined> {
  try {
    const options = Object.fromEntries(names.map((n) => [n, { type: "string" as const }]));
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (error) {
    throw new AdminUsageError((error as Error).message);
  }
}

async function userCreate(args: string[]): Promise<OperatorOutcome> {
  const values = parse(args, ["email", "name", "api-key"]);
  const email = values.email;
  const keyName = values["api-key"]?.trim();
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new AdminUsageError("--email is required and must be an email address");
  if (values["api-key"] !== undefined && (!keyName || keyName.length > 100)) throw new AdminUsageError("--api-key must be a name of 1 to 100 characters");
  const user = await ensureUser(email, values.name ?? null);
  const result: Record<string, unknown> = {
    user: { id: user.id, email: user.email, name: user.name, created: user.created },
    workspace_id: user.personalWorkspaceId,
  };
  let summary = `${user.created ? "created" : "found"} ${user.email} (${user.id}) with the personal workspace ${user.personalWorkspaceId}`;
  if (keyName) {
    const key = await issueApiKey(user.id, user.personalWorkspaceId, keyName);
    result.api_key = key;
    summary += `, and made the API key "${keyName}" (${key.id}); its secret is in api_key.key, shown this once`;
  }
  return { result, summary };
}

async function jobSend(args: string[]): Promise<OperatorOutcome> {
  const { event, id, data } = parse(args, ["event", "id", "data"]);
  if (!event || !id || !data) throw new AdminUsageError("--event, --id and --data are required");
  const out = await sendJob(event, id, data);
  return { result: out, summary: `recorded the job ${out.job} of ${out.event} (${out.id}) for the ${out.driver} driver` };
}

async function credit(command: (typeof BILLING_ADMIN_COMMANDS)[number], args: string[]): Promise<OperatorOutcome> {
  const out = (await runBillingAdminCommand(command, args)) as {
    transaction: { amount_usd: string; bucket: string; description: string };
    billing: { workspace_id: string | null; balance_usd: string; available_usd: string };
  };
  const { transaction: t, billing: b } = out;
  const what =
    command === "credit:adjust"
      ? `corrected the ${t.bucket} credit by ${t.amount_usd} USD ("${t.description}")`
      : `added ${t.amount_usd} USD of ${t.bucket === "promo" ? "promotional" : "purchased"} credit ("${t.description}")`;
  return { result: out, summary: `${what} to ${b.workspace_id}: balance ${b.balance_usd} USD, available ${b.available_usd} USD` };
}

/** Runs one command with its arguments; a mistake in how it was called is an AdminUsageError. */
export async function runOperatorCommand(command: string, args: string[]): Promise<OperatorOutcome> {
  if (!isOperatorCommand(command)) throw new AdminUsageError(`unknown command ${command}`);
  if (command === "user:create") return userCreate(args);
  if (command === "job:send") return jobSend(args);
  return credit(command, args);
}
