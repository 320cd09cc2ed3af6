// `geoscope`: the command-line client of the research API. Commands map one-to-one onto the
// endpoints declared in lib/schemas; `--json` prints the response body exactly as the server sent
// it (`--pretty` reindents it), and human output goes to stdout as tables and text.
import { hostname } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import semver from "semver";
import * as accounts from "../lib/schemas/accounts";
import * as auth from "../lib/schemas/auth";
import type { ApiKey, Invitation, Member, Project, Workspace } from "./types";
import * as billing from "../lib/schemas/billing";
import type { EndpointDefinition } from "../lib/schemas/endpoint";
import * as projects from "../lib/schemas/projects";
import * as runs from "../lib/schemas/runs";
import type { PromptResult } from "../lib/schemas/results";
import { getVersion } from "../lib/schemas/service";
import * as workspaces from "../lib/schemas/workspaces";
import {
  CliHttpError,
  EXIT,
  STANDALONE,
  call,
  cliVersion,
  configPath,
  exitCodeFor,
  forgetToken,
  readConfig,
  resolveSettings,
  writeConfig,
  type ApiResponse,
  type CallInput,
  type Settings,
} from "./client";

const HELP = `geoscope: run prompts on answer engines and read what they answered, cited and searched.

Usage: geoscope <command> [arguments] [options]

Account
  login                                   device login: approve the shown code in the browser
  logout                                  revoke this CLI's token and forget it
  whoami                                  who the credential belongs to (GET /me)
Prompts and runs
  prompt "TEXT" --project pr_… [--engines chatgpt,claude,gemini] [--wait]
  runs list [--batch rq_…] [--fanout fo_…] [--project pr_…] [--workspace ws_…] [--status S] [--engine E] [--limit N] [--cursor C]
  runs get dr_… [--wait SECONDS]
  batches get rq_… [--wait SECONDS]
API keys
  keys list | keys create NAME [--workspace ws_…] | keys revoke ak_…
Workspaces, members, invitations
  workspaces list | create NAME | get ws_… | rename ws_… NAME
  members list ws_… | role ws_… MEMBER_ID admin|member | remove ws_… MEMBER_ID
  invitations list ws_… | create ws_… EMAIL [--role admin|member] | revoke ws_… iv_…
Projects
  projects list [--workspace ws_…]
  projects create NAME [--workspace ws_…] [--domain example.com] [--brands a,b] [--competitors c,d]
  projects get pr_… | projects update pr_… [--name NAME] [--context-json JSON]
Billing and service
  billing summary [--workspace ws_…] | billing transactions [--workspace ws_…] [--limit N] [--cursor C]
  billing usage [--workspace ws_…] [--days N]
  pricing                                 the rate card
  version                                 this CLI's version and the server's min_cli_version

Options (every command)
  --json            print exactly the API's response body on stdout, nothing else
  --pretty          like --json, indented
  --base-url URL    API address (env GEOSCOPE_BASE_URL; default http://localhost:3000/api/v1)
  --token TOKEN     API key (gsk_…) or CLI token (gsc_…) (env GEOSCOPE_TOKEN; else the saved login)
  --version         this CLI's version (asks no server; \`geoscope version\` does)
  -h, --help        this help

The login is saved in $GEOSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/geoscope, else
~/.config/geoscope (config.json, mode 0600). Errors go to stderr; with --json the error envelope
is printed on stdout too.

Exit codes
  0  success
  1  server error, unreachable server, or anything else
  2  usage error (bad command, option or argument)
  3  authentication or permission (401, 403); login denied or expired
  4  not found (404)
  5  insufficient credit (402)
  6  rate limited (429)
  7  CLI outdated (426): upgrade the CLI
  8  invalid request or conflict (400, 409)
`;

class UsageError extends Error {}

type Values = {
  json?: boolean;
  pretty?: boolean;
  help?: boolean;
  version?: boolean;
  "base-url"?: string;
  token?: string;
  wait?: string | boolean;
  engines?: string;
  project?: string;
  workspace?: string;
  batch?: string;
  fanout?: string;
  status?: string;
  engine?: string;
  limit?: string;
  cursor?: string;
  role?: string;
  domain?: string;
  brands?: string;
  competitors?: string;
  name?: string;
  "context-json"?: string;
  days?: string;
};

const STRING_OPTIONS = [
  "base-url", "token", "engines", "project", "workspace", "batch", "fanout", "status", "engine", "limit", "cursor", "role", "domain",
  "brands", "competitors", "name", "context-json", "days",
] as const;

/** Options each command accepts besides the global ones. */
const COMMAND_OPTIONS: Record<string, string[]> = {
  login: [], logout: [], whoami: [], pricing: [], version: [],
  prompt: ["engines", "project", "wait"],
  "runs list": ["batch", "fanout", "project", "workspace", "status", "engine", "limit", "cursor", "wait"],
  "runs get": ["wait"],
  "batches get": ["wait"],
  "keys list": [], "keys create": ["workspace"], "keys revoke": [],
  "workspaces list": [], "workspaces create": [], "workspaces get": [], "workspaces rename": [],
  "members list": [], "members role": [], "members remove": [],
  "invitations list": [], "invitations create": ["role"], "invitations revoke": [],
  "projects list": ["workspace"],
  "projects create": ["workspace", "domain", "brands", "competitors"],
  "projects get": [],
  "projects update": ["name", "context-json"],
  "billing summary": ["workspace"],
  "billing transactions": ["workspace", "limit", "cursor"],
  "billing usage": ["workspace", "days"],
};
const GROUPS = new Set(["runs", "batches", "keys", "workspaces", "members", "invitations", "projects", "billing"]);

/** The command words, found before parsing because `--wait` is a flag for `prompt` and takes seconds elsewhere. */
function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg.startsWith("-")) {
      const name = arg.replace(/^-+/, "");
      if ((STRING_OPTIONS as readonly string[]).includes(name)) i++;
      else if (name === "wait" && /^\d+$/.test(argv[i + 1] ?? "")) i++;
      continue;
    }
    words.push(arg);
    if (!GROUPS.has(words[0]!)) break;
  }
  return words;
}

function parse(argv: string[]) {
  const words = commandWords(argv);
  const isPrompt = words[0] === "prompt";
  const options: NonNullable<ParseArgsConfig["options"]> = {
    json: { type: "boolean" },
    pretty: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean" },
    wait: { type: isPrompt ? "boolean" : "string" },
  };
  for (const name of STRING_OPTIONS) options[name] = { type: "string" };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return { values: parsed.values as Values, positionals: parsed.positionals };
}

// ---------- output ----------

function out(text: string) {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}
function note(text: string) {
  process.stderr.write(`${text}\n`);
}

/** The body exactly as sent (a newline added only on a terminal), or reindented with --pretty. */
function printJson(text: string, pretty: boolean) {
  if (pretty) {
    try {
      out(JSON.stringify(JSON.parse(text), null, 2));
      return;
    } catch {
      /* not JSON: print as sent */
    }
  }
  process.stdout.write(text);
  if (process.stdout.isTTY && text && !text.endsWith("\n")) process.stdout.write("\n");
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return "(none)";
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join("\n");
}

function truncate(text: string, max: number) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function date(iso: unknown) {
  return typeof iso === "string" ? iso.replace("T", " ").replace(/\.\d+Z$/, "Z") : iso;
}

type RunLike = {
  id: string;
  status: string;
  engine?: string | null;
  model?: string | null;
  result?: PromptResult | null;
  error?: { code: string; message: string } | null;
  charge?: { status: string; amount_usd: string } | null;
  duration_ms?: number | null;
};

function formatRun(run: RunLike): string {
  const lines: string[] = [];
  const head = `${run.engine ?? run.id}${run.model ? ` (${run.model})` : ""}: ${run.status}`;
  lines.push(`== ${head} ==`);
  lines.push(`run ${run.id}${run.charge ? ` · ${run.charge.status} $${run.charge.amount_usd}` : ""}${run.duration_ms != null ? ` · ${(run.duration_ms / 1000).toFixed(1)} s` : ""}`);
  if (run.error) lines.push(`error: ${run.error.code}: ${run.error.message}`);
  const result = run.result;
  if (result) {
    lines.push("", result.answer.trim(), "");
    const cited = result.sources.filter((s) => s.cited);
    const others = result.sources.filter((s) => !s.cited);
    lines.push(`Sources (${cited.length} cited, ${result.sources.length} in all):`);
    if (result.sources.length === 0) lines.push("  (none)");
    [...cited, ...others].forEach((s, i) => {
      const flags = [s.cited ? "cited" : null, s.search_query_observed ? "in search results" : null, s.retrieval_observed ? "read" : null]
        .filter(Boolean)
        .join(", ");
      // An unresolved redirect's URL says nothing: show the domain the engine named instead.
      const where = s.resolution === "unresolved" ? `${s.domain_hint ?? s.title ?? "?"} (unresolved redirect ${truncate(s.url, 60)})` : s.url;
      const title = s.title && s.resolution !== "unresolved" ? ` "${truncate(s.title, 80)}"` : "";
      lines.push(`  ${String(i + 1).padStart(2)}. ${where}${title}${flags ? ` [${flags}]` : ""}`);
    });
    lines.push(`Searches (${result.searches.length}):`);
    if (result.searches.length === 0) lines.push("  (none)");
    for (const q of result.searches) lines.push(`  ${q.position ?? "-"}. ${q.query}${q.search_call ? ` (call ${q.search_call})` : ""}`);
  }
  return lines.join("\n");
}

type BatchBody = { batch: { id: string; status: string; project_id?: string | null; input: Record<string, unknown> }; runs: RunLike[] };

function formatBatch(body: BatchBody): string {
  const prompt = typeof body.batch.input.prompt === "string" ? body.batch.input.prompt : "";
  const head = [`batch ${body.batch.id}: ${body.batch.status}`, prompt ? `prompt: ${prompt}` : null, body.batch.project_id ? `project: ${body.batch.project_id}` : null]
    .filter(Boolean)
    .join("\n");
  return [head, ...body.runs.map(formatRun)].join("\n\n");
}

const FINISHED = new Set(["completed", "partial", "failed"]);

// ---------- commands ----------

type Ctx = { settings: Settings; values: Values; args: string[]; json: boolean; pretty: boolean };

async function request(ctx: Ctx, endpoint: EndpointDefinition, input: CallInput = {}): Promise<ApiResponse> {
  if (endpoint.auth === "bearer") requireToken(ctx);
  return call(ctx.settings, endpoint, input);
}

/** Prints the body for --json, else hands it to the human formatter. */
async function show<T>(ctx: Ctx, response: ApiResponse, human: (body: T) => string | null) {
  if (ctx.json) return printJson(response.text, ctx.pretty);
  const body = (response.text ? JSON.parse(response.text) : null) as T;
  const text = human(body);
  if (text !== null) out(text);
}

function arg(ctx: Ctx, index: number, what: string): string {
  const value = ctx.args[index];
  if (value === undefined || value === "") throw new UsageError(`missing ${what}`);
  return value;
}

function noExtraArgs(ctx: Ctx, count: number) {
  if (ctx.args.length > count) throw new UsageError(`unexpected argument: ${ctx.args[count]}`);
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function requireToken(ctx: Ctx) {
  if (!ctx.settings.token) {
    throw new CliHttpError(
      401,
      {
        error: {
          code: "unauthenticated",
          message: "not logged in: run `geoscope login`, or pass --token / set GEOSCOPE_TOKEN",
          engine: null,
          retryable: false,
        },
      },
      "",
      null,
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function login(ctx: Ctx) {
  noExtraArgs(ctx, 0);
  const started = await request(ctx, auth.startCliAuth, { body: { client_name: `geoscope CLI on ${hostname()}`.slice(0, 200) } });
  const start = JSON.parse(started.text) as { device_code: string; user_code: string; verification_uri_complete: string; expires_in: number; interval: number };
  note(`To sign in, open this page in a browser where you are signed in, check the code and approve:\n\n  ${start.verification_uri_complete}\n\n  code: ${start.user_code}\n\nWaiting for approval (expires in ${Math.round(start.expires_in / 60)} min)…`);
  let interval = start.interval;
  const deadline = Date.now() + start.expires_in * 1000;
  for (;;) {
    await sleep(interval * 1000 + 100);
    const polled = await request(ctx, auth.pollCliAuth, { body: { device_code: start.device_code } });
    const poll = JSON.parse(polled.text) as { status: string; token: string | null; token_id: string | null; email: string | null };
    if (poll.status === "slow_down") interval += 5;
    else if (poll.status === "approved" && poll.token) {
      writeConfig({ ...readConfig(), base_url: ctx.settings.baseUrl, token: poll.token, token_id: poll.token_id ?? undefined, email: poll.email ?? undefined });
      note(`Logged in as ${poll.email} (token ${poll.token_id}, saved in ${configPath()}).`);
      if (ctx.json) printJson(polled.text, ctx.pretty);
      else out(`Logged in as ${poll.email}`);
      return EXIT.ok;
    } else if (poll.status === "denied" || poll.status === "expired" || (poll.status === "approved" && !poll.token)) {
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
}

async function logout(ctx: Ctx) {
  noExtraArgs(ctx, 0);
  const saved = readConfig();
  try {
    const response = await request(ctx, auth.revokeCliToken);
    if (ctx.json) printJson(response.text, ctx.pretty);
  } catch (error) {
    // A token the server no longer knows is as good as revoked: forget it anyway.
    if (!(error instanceof CliHttpError && error.code === "unauthenticated")) throw error;
  }
  if (saved.token && saved.token === ctx.settings.token) forgetToken();
  if (!ctx.json) out("Logged out.");
  return EXIT.ok;
}

async function whoami(ctx: Ctx) {
  noExtraArgs(ctx, 0);
  const response = await request(ctx, accounts.getMe);
  await show<{ email: string; credential: { kind: string; id: string; name: string }; workspaces: Workspace[]; engines_simulated: boolean }>(ctx, response, (me) =>
    [
      `${me.email}`,
      `credential: ${me.credential.kind} ${me.credential.id} "${me.credential.name}"`,
      `server: ${ctx.settings.baseUrl}${me.engines_simulated ? " (engines simulated)" : ""}`,
      "",
      table(me.workspaces, ["id", "name", "kind", "role"]),
    ].join("\n"),
  );
  return EXIT.ok;
}

async function prompt(ctx: Ctx) {
  const text = arg(ctx, 0, 'prompt text: geoscope prompt "TEXT" --project pr_…');
  noExtraArgs(ctx, 1);
  if (!ctx.values.project) throw new UsageError("--project pr_… is required (see `geoscope projects list`)");
  const body = { prompt: text, project: ctx.values.project, ...(ctx.values.engines !== undefined ? { engines: list(ctx.values.engines) } : {}) };
  const created = await request(ctx, runs.createPrompt, { body });
  let current = created;
  let batch = JSON.parse(created.text) as BatchBody;
  if (ctx.values.wait === true) {
    note(`batch ${batch.batch.id} queued on ${batch.runs.map((r) => r.engine).join(", ")}; waiting…`);
    let last = "";
    while (!FINISHED.has(batch.batch.status)) {
      current = await request(ctx, runs.getBatch, { params: { batch_id: batch.batch.id }, query: { wait: 30 } });
      batch = JSON.parse(current.text) as BatchBody;
      const done = batch.runs.filter((r) => r.status === "completed" || r.status === "failed").length;
      const progress = `batch ${batch.batch.id}: ${batch.batch.status}, ${done}/${batch.runs.length} runs finished (${batch.runs.map((r) => `${r.engine} ${r.status}`).join(", ")})`;
      if (progress !== last) note(progress);
      last = progress;
    }
  }
  if (ctx.json) printJson(current.text, ctx.pretty);
  else if (ctx.values.wait === true) out(formatBatch(batch));
  else {
    out(formatBatch(batch));
    note(`Queued. Wait for it with: geoscope batches get ${batch.batch.id} --wait 30`);
  }
  return EXIT.ok;
}

function waitOption(ctx: Ctx): number | undefined {
  const wait = ctx.values.wait;
  if (wait === undefined) return undefined;
  if (typeof wait !== "string" || !/^\d+$/.test(wait)) throw new UsageError("--wait takes a number of seconds (0 to 30)");
  return Number(wait);
}

async function runsCommand(ctx: Ctx, sub: string) {
  if (sub === "list") {
    noExtraArgs(ctx, 0);
    const v = ctx.values;
    const query = { batch: v.batch, fanout: v.fanout, project: v.project, workspace: v.workspace, status: v.status, engine: v.engine, limit: intOption(v.limit, "limit"), cursor: v.cursor, wait: waitOption(ctx) };
    const response = await request(ctx, runs.listRuns, { query });
    await show<{ items: Record<string, unknown>[]; next_cursor: string | null }>(ctx, response, (body) => {
      const rows = body.items.map((r) => ({ ...r, created_at: date(r.created_at), subject: truncate(String(r.subject ?? ""), 50), cited: r.cited_count != null ? `${r.cited_count}/${r.source_count}` : null }));
      if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
      return table(rows, ["id", "status", "engine", "cited", "created_at", "subject"]);
    });
  } else {
    const id = arg(ctx, 0, "run id (dr_…)");
    noExtraArgs(ctx, 1);
    const response = await request(ctx, runs.getRun, { params: { run_id: id }, query: { wait: waitOption(ctx) } });
    await show<RunLike & { input: Record<string, unknown> }>(ctx, response, (run) =>
      [typeof run.input.prompt === "string" ? `prompt: ${run.input.prompt}` : null, formatRun(run)].filter(Boolean).join("\n"),
    );
  }
  return EXIT.ok;
}

async function batchesGet(ctx: Ctx) {
  const id = arg(ctx, 0, "batch id (rq_…)");
  noExtraArgs(ctx, 1);
  const response = await request(ctx, runs.getBatch, { params: { batch_id: id }, query: { wait: waitOption(ctx) } });
  await show<BatchBody>(ctx, response, formatBatch);
  return EXIT.ok;
}

const keyColumns = (k: ApiKey) => ({ ...k, created_at: date(k.created_at), last_used_at: date(k.last_used_at), revoked_at: date(k.revoked_at) });

async function keysCommand(ctx: Ctx, sub: string) {
  if (sub === "list") {
    noExtraArgs(ctx, 0);
    const response = await request(ctx, auth.listApiKeys);
    await show<{ items: ApiKey[] }>(ctx, response, (b) => table(b.items.map(keyColumns), ["id", "name", "prefix", "workspace_id", "created_at", "last_used_at", "revoked_at"]));
  } else if (sub === "create") {
    const name = arg(ctx, 0, "key name");
    noExtraArgs(ctx, 1);
    const response = await request(ctx, auth.createApiKey, { body: { name, ...(ctx.values.workspace ? { workspace_id: ctx.values.workspace } : {}) } });
    await show<ApiKey & { key: string }>(ctx, response, (k) => {
      note(`Created API key ${k.id} "${k.name}" for ${k.workspace_id}. The secret below is shown once; store it now.`);
      return k.key;
    });
  } else {
    const id = arg(ctx, 0, "key id (ak_…)");
    noExtraArgs(ctx, 1);
    const response = await request(ctx, auth.revokeApiKey, { params: { key_id: id } });
    await show(ctx, response, () => `Revoked ${id}.`);
  }
  return EXIT.ok;
}

const wsRow = (w: Workspace) => ({ ...w, created_at: date(w.created_at) });
const wsColumns = ["id", "name", "kind", "role", "created_at"];

async function workspacesCommand(ctx: Ctx, sub: string) {
  let response: ApiResponse;
  if (sub === "list") {
    noExtraArgs(ctx, 0);
    response = await request(ctx, workspaces.listWorkspaces);
    await show<{ items: Workspace[] }>(ctx, response, (b) => table(b.items.map(wsRow), wsColumns));
    return EXIT.ok;
  }
  if (sub === "create") {
    const name = arg(ctx, 0, "workspace name");
    noExtraArgs(ctx, 1);
    response = await request(ctx, workspaces.createWorkspace, { body: { name } });
  } else if (sub === "get") {
    const id = arg(ctx, 0, "workspace id (ws_…)");
    noExtraArgs(ctx, 1);
    response = await request(ctx, workspaces.getWorkspace, { params: { workspace_id: id } });
  } else {
    const id = arg(ctx, 0, "workspace id (ws_…)");
    const name = arg(ctx, 1, "new name");
    noExtraArgs(ctx, 2);
    response = await request(ctx, workspaces.updateWorkspace, { params: { workspace_id: id }, body: { name } });
  }
  await show<Workspace>(ctx, response, (w) => table([wsRow(w)], wsColumns));
  return EXIT.ok;
}

const memberColumns = ["id", "email", "role", "joined_at"];
const memberRow = (m: Member) => ({ ...m, joined_at: date(m.joined_at) });

function memberId(ctx: Ctx, index: number): string {
  const id = arg(ctx, index, "member id (a number, see `geoscope members list`)");
  if (!/^\d+$/.test(id)) throw new UsageError("member id must be a number (see `geoscope members list`)");
  return id;
}

async function membersCommand(ctx: Ctx, sub: string) {
  const ws = arg(ctx, 0, "workspace id (ws_…)");
  if (sub === "list") {
    noExtraArgs(ctx, 1);
    const response = await request(ctx, workspaces.listMembers, { params: { workspace_id: ws } });
    await show<{ items: Member[] }>(ctx, response, (b) => table(b.items.map(memberRow), memberColumns));
  } else if (sub === "role") {
    const id = memberId(ctx, 1);
    const role = arg(ctx, 2, "role (admin or member)");
    noExtraArgs(ctx, 3);
    if (role !== "admin" && role !== "member") throw new UsageError("role must be admin or member");
    const response = await request(ctx, workspaces.updateMember, { params: { workspace_id: ws, member_id: id }, body: { role } });
    await show<Member>(ctx, response, (m) => table([memberRow(m)], memberColumns));
  } else {
    const id = memberId(ctx, 1);
    noExtraArgs(ctx, 2);
    const response = await request(ctx, workspaces.removeMember, { params: { workspace_id: ws, member_id: id } });
    await show(ctx, response, () => `Removed member ${id} from ${ws}.`);
  }
  return EXIT.ok;
}

const invitationColumns = ["id", "email", "role", "status", "invited_by", "accepted_by", "expires_at"];
const invitationRow = (i: Invitation) => ({ ...i, expires_at: date(i.expires_at) });

async function invitationsCommand(ctx: Ctx, sub: string) {
  const ws = arg(ctx, 0, "workspace id (ws_…)");
  if (sub === "list") {
    noExtraArgs(ctx, 1);
    const response = await request(ctx, workspaces.listInvitations, { params: { workspace_id: ws } });
    await show<{ items: Invitation[] }>(ctx, response, (b) => table(b.items.map(invitationRow), invitationColumns));
  } else if (sub === "create") {
    const email = arg(ctx, 1, "email address");
    noExtraArgs(ctx, 2);
    const role = ctx.values.role;
    if (role !== undefined && role !== "admin" && role !== "member") throw new UsageError("--role must be admin or member");
    const response = await request(ctx, workspaces.createInvitation, { params: { workspace_id: ws }, body: { email, ...(role ? { role } : {}) } });
    await show<Invitation & { url: string; emailed: boolean }>(ctx, response, (i) => {
      note(`Invited ${i.email} as ${i.role} (${i.id}); ${i.emailed ? "the link was mailed" : "send them the link"}. It is shown once:`);
      return i.url;
    });
  } else {
    const id = arg(ctx, 1, "invitation id (iv_…)");
    noExtraArgs(ctx, 2);
    const response = await request(ctx, workspaces.revokeInvitation, { params: { workspace_id: ws, invitation_id: id } });
    await show(ctx, response, () => `Revoked invitation ${id}.`);
  }
  return EXIT.ok;
}

function formatProject(p: Project): string {
  const c = p.context ?? {};
  return [
    `${p.id}  ${p.name}  (${p.slug})`,
    `workspace: ${p.workspace_id} ${p.workspace_name}`,
    `created: ${date(p.created_at)} by ${p.created_by}`,
    `domains: ${[c.primary_domain, ...(c.domains ?? [])].filter(Boolean).join(", ") || "-"}`,
    `brands: ${(c.brands ?? []).join(", ") || "-"}`,
    `competitors: ${(c.competitors ?? []).join(", ") || "-"}`,
  ].join("\n");
}

async function projectsCommand(ctx: Ctx, sub: string) {
  const v = ctx.values;
  if (sub === "list") {
    noExtraArgs(ctx, 0);
    const response = await request(ctx, projects.listProjects, { query: { workspace: v.workspace } });
    await show<{ items: Project[] }>(ctx, response, (b) =>
      table(b.items.map((p) => ({ ...p, domain: p.context?.primary_domain ?? null, created_at: date(p.created_at) })), ["id", "name", "workspace_name", "domain", "created_at"]),
    );
    return EXIT.ok;
  }
  let response: ApiResponse;
  if (sub === "create") {
    const name = arg(ctx, 0, "project name");
    noExtraArgs(ctx, 1);
    const context = {
      ...(v.domain !== undefined ? { primary_domain: v.domain } : {}),
      ...(v.brands !== undefined ? { brands: list(v.brands) } : {}),
      ...(v.competitors !== undefined ? { competitors: list(v.competitors) } : {}),
    };
    const body = { name, ...(v.workspace ? { workspace_id: v.workspace } : {}), ...(Object.keys(context).length ? { context } : {}) };
    response = await request(ctx, projects.createProject, { body });
  } else if (sub === "get") {
    const id = arg(ctx, 0, "project id (pr_…)");
    noExtraArgs(ctx, 1);
    response = await request(ctx, projects.getProject, { params: { project_id: id } });
  } else {
    const id = arg(ctx, 0, "project id (pr_…)");
    noExtraArgs(ctx, 1);
    const body: Record<string, unknown> = {};
    if (v.name !== undefined) body.name = v.name;
    if (v["context-json"] !== undefined) {
      try {
        body.context = JSON.parse(v["context-json"]);
      } catch {
        throw new UsageError("--context-json must be JSON, e.g. '{\"primary_domain\":\"acme.com\",\"brands\":[\"Acme\"]}'");
      }
    }
    if (Object.keys(body).length === 0) throw new UsageError("nothing to update: give --name and/or --context-json");
    response = await request(ctx, projects.updateProject, { params: { project_id: id }, body });
  }
  await show<Project>(ctx, response, formatProject);
  return EXIT.ok;
}

async function billingCommand(ctx: Ctx, sub: string) {
  noExtraArgs(ctx, 0);
  const v = ctx.values;
  if (sub === "summary") {
    const response = await request(ctx, billing.getBilling, { query: { workspace: v.workspace } });
    await show<Record<string, unknown>>(ctx, response, (b) =>
      [
        `workspace: ${b.workspace_id ?? "-"}${b.enabled ? "" : " (billing is off on this server)"}`,
        `balance:    $${b.balance_usd} (purchased $${b.purchased_usd}, promotional $${b.promotional_usd})`,
        `held:       ${b.held_usd === null ? "-" : `$${b.held_usd}`}`,
        `available:  ${b.available_usd === null ? "-" : `$${b.available_usd}`}`,
        `this month: $${b.spend_month_to_date_usd}`,
        `add credit: ${b.add_credit_url}`,
      ].join("\n"),
    );
  } else if (sub === "transactions") {
    const response = await request(ctx, billing.listTransactions, { query: { workspace: v.workspace, limit: intOption(v.limit, "limit"), cursor: v.cursor } });
    await show<{ items: Record<string, unknown>[]; next_cursor: string | null }>(ctx, response, (b) => {
      if (b.next_cursor) note(`more: --cursor ${b.next_cursor}`);
      return table(b.items.map((t) => ({ ...t, created_at: date(t.created_at), description: truncate(String(t.description), 50) })), ["created_at", "kind", "bucket", "amount_usd", "actor", "description"]);
    });
  } else {
    const response = await request(ctx, billing.getUsage, { query: { workspace: v.workspace, days: intOption(v.days, "days") } });
    await show<{ days: number; total_usd: string; rows: Record<string, unknown>[] }>(ctx, response, (b) =>
      [`last ${b.days} days: $${b.total_usd}`, table(b.rows, ["day", "product", "engine", "operations", "units", "charged_usd"])].join("\n"),
    );
  }
  return EXIT.ok;
}

async function pricing(ctx: Ctx) {
  noExtraArgs(ctx, 0);
  const response = await request(ctx, billing.getPricing);
  await show<{ version: string; effective_from: string; currency: string; prices: Record<string, unknown>[] }>(ctx, response, (card) =>
    [`rate card ${card.version}, effective ${date(card.effective_from)}, ${card.currency}`, table(card.prices, ["product", "engine", "unit", "unit_price_usd"])].join("\n"),
  );
  return EXIT.ok;
}

async function version(ctx: Ctx) {
  noExtraArgs(ctx, 0);
  // The server answers GET /version to every CLI, so an outdated one can say what it needs.
  const response = await request(ctx, getVersion);
  let min: string | undefined;
  await show<{ min_cli_version: string }>(ctx, response, (b) => {
    min = b.min_cli_version;
    return [`geoscope-cli ${ctx.settings.version}`, `server ${ctx.settings.baseUrl}: min_cli_version ${b.min_cli_version}`].join("\n");
  });
  min ??= (JSON.parse(response.text) as { min_cli_version?: string }).min_cli_version;
  const mine = semver.valid(ctx.settings.version);
  if (mine && min && semver.valid(min) && semver.lt(mine, min)) {
    note(`This geoscope CLI is version ${mine}; this server needs ${min} or newer. Upgrade it (${STANDALONE ? `install a newer geoscope-cli package: ${PACK_HINT}` : "from a checkout: git pull && npm install"}).`);
    return EXIT.outdated;
  }
  return EXIT.ok;
}

// ---------- dispatch ----------

async function dispatch(words: string[], ctx: Ctx): Promise<number> {
  const [group, sub] = words;
  switch (group) {
    case "login": return login(ctx);
    case "logout": return logout(ctx);
    case "whoami": return whoami(ctx);
    case "prompt": return prompt(ctx);
    case "pricing": return pricing(ctx);
    case "version": return version(ctx);
    case "runs": return runsCommand(ctx, sub!);
    case "batches": return batchesGet(ctx);
    case "keys": return keysCommand(ctx, sub!);
    case "workspaces": return workspacesCommand(ctx, sub!);
    case "members": return membersCommand(ctx, sub!);
    case "invitations": return invitationsCommand(ctx, sub!);
    case "projects": return projectsCommand(ctx, sub!);
    case "billing": return billingCommand(ctx, sub!);
  }
  throw new UsageError(`unknown command: ${words.join(" ")}`);
}

/** How the standalone package is upgraded: built again from an up-to-date checkout (README, "The CLI"). */
const PACK_HINT = "npm run pack:cli in an up-to-date checkout, then npm install -g ./dist/geoscope-cli-<version>.tgz";

function describeError(error: CliHttpError, settings: Settings): string {
  if (error.code === "cli_outdated") {
    const needed = error.headers?.get("x-min-cli-version");
    return [
      `error: ${error.envelope.error.message}`,
      `This CLI is ${settings.version}${needed ? `; the server at ${settings.baseUrl} needs ${needed} or newer` : ""}.`,
      STANDALONE
        ? `Upgrade: install a newer geoscope-cli package (${PACK_HINT}) and run the command again.`
        : "Upgrade: from a checkout, git pull && npm install (then run the command again).",
    ].join("\n");
  }
  const hint = error.code === "unauthenticated" && !error.message.includes("geoscope login") ? "\n(run `geoscope login`, or pass --token / set GEOSCOPE_TOKEN)" : "";
  return `error: ${error.envelope.error.message}${error.envelope.error.engine ? ` (engine ${error.envelope.error.engine})` : ""}${hint}`;
}

export async function main(argv: string[]): Promise<number> {
  let json = argv.includes("--json") || argv.includes("--pretty");
  let settings: Settings | null = null;
  try {
    const { values, positionals } = parse(argv);
    json = Boolean(values.json || values.pretty);
    const words = commandWords(argv);
    if (values.version) {
      out(`geoscope-cli ${cliVersion()}`);
      return EXIT.ok;
    }
    if (values.help || words[0] === "help") {
      out(HELP);
      return EXIT.ok;
    }
    if (words.length === 0) {
      process.stderr.write(HELP);
      return EXIT.usage;
    }
    let key = words.join(" ");
    if (GROUPS.has(words[0]!)) {
      if (words.length < 2) throw new UsageError(`${words[0]} needs a subcommand (see geoscope --help)`);
    } else key = words[0]!;
    const allowed = COMMAND_OPTIONS[key];
    if (!allowed) throw new UsageError(`unknown command: ${key}`);
    const global = new Set(["json", "pretty", "help", "base-url", "token"]);
    for (const name of Object.keys(values)) {
      if (!global.has(name) && !allowed.includes(name)) throw new UsageError(`${key} does not take --${name}`);
    }
    // Positionals after the command words are the command's arguments.
    const args = positionals.slice(GROUPS.has(words[0]!) ? 2 : 1);
    settings = resolveSettings({ baseUrl: values["base-url"], token: values.token });
    return await dispatch(words, { settings, values, args, json, pretty: Boolean(values.pretty) });
  } catch (error) {
    if (error instanceof UsageError) {
      note(`usage error: ${error.message}\nRun geoscope --help for the commands and options.`);
      return EXIT.usage;
    }
    if (error instanceof CliHttpError) {
      if (json) printJson(error.text || JSON.stringify(error.envelope), false);
      note(settings ? describeError(error, settings) : `error: ${error.message}`);
      return exitCodeFor(error);
    }
    note(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return EXIT.other;
  }
}

process.exitCode = await main(process.argv.slice(2));
