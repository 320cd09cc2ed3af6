// Shared by the Playwright config, the e2e server script's environment and the tests: where the
// server is, its mailbox, and what the specs do with it — sign in by the emailed link, call the
// API with a token (`apiWith`), run the real CLI binary (`cliAs`, `runProcess`), approve a
// `geoscope login` on the /device page, choose a form's engines. One module, so a spec never
// writes its own.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3123);
export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The CLI binary, as `npm i -g` installs it. */
export const BIN = path.join(ROOT, "cli", "geoscope.mjs");
/** The e2e server, and its API. */
export const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
export const BASE = `${ORIGIN}/api/v1`;
/** Where the e2e server's SMTP catcher writes each mail it receives, one file a mail. */
export const MAILBOX = process.env.E2E_MAILBOX ?? path.join(tmpdir(), `geoscope-e2e-mailbox-${E2E_PORT}`);

/** A sign-in link in a mail of the e2e server. */
export const SIGN_IN_LINK = /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/callback\/email\?\S+/;

/** The newest mail to `to` that contains a link, with quoted-printable soft breaks undone. */
export function latestLinkTo(to: string, pattern: RegExp): string | null {
  let files: string[];
  try {
    files = readdirSync(MAILBOX).sort();
  } catch {
    return null;
  }
  for (const file of files.reverse()) {
    const raw = readFileSync(path.join(MAILBOX, file), "utf8");
    // A long address folds its header onto the next line (RFC 5322 2.2.3): unfolded to compare.
    const headers = raw.slice(0, raw.search(/\r?\n\r?\n/) >>> 0).replace(/\r?\n[ \t]+/g, " ");
    if (!headers.toLowerCase().includes(`to: ${to.toLowerCase()}`)) continue;
    const text = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}

/**
 * Signs `email` in through the form on the page `then` shows (the sign-in page /account sends to,
 * /device, an invitation) and the link the e2e server's mail catcher received; answers the link.
 * From /account it lands back on /account.
 */
export async function signIn(page: Page, email: string, then = "/account"): Promise<string> {
  await page.goto(then);
  await page.getByPlaceholder("you@example.com").fill(email);
  await page.getByRole("button", { name: "Send sign-in link" }).click();
  // The mail can arrive before the form has moved on to the check-email page; opening the link
  // while that navigation is under way is interrupted by it.
  await page.waitForURL(/\/signin\/check-email/);
  await expect(page.getByRole("heading", { name: /Check your email/ })).toBeVisible();
  let link: string | null = null;
  await expect.poll(() => (link = latestLinkTo(email, SIGN_IN_LINK)), { timeout: 15_000 }).not.toBeNull();
  await page.goto(link!);
  if (then === "/account") await expect(page).toHaveURL(/\/account$/);
  return link!;
}

/** An answer of the API: its status, its text, and the text parsed (undefined when empty or not JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; text: string; body: any };

/**
 * A caller of the e2e server's API (or of `base`) with the bearer token `token()` answers at each
 * call (a spec signs in after defining it); null sends none. A call may name another token (`as`).
 */
export function apiWith(token: () => string | null, base = BASE) {
  return async (method: string, pathname: string, body?: unknown, as: string | null = token()): Promise<Answer> => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: { ...(as ? { Authorization: `Bearer ${as}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, text, body: parsed };
  };
}

/**
 * The same through Playwright's request fixture (in the test's trace), with these headers (a key's),
 * expecting `status` (200 unless said); the body parsed, null for 204.
 */
export function apiAs(headers: () => Record<string, string>) {
  return async <T>(request: APIRequestContext, method: "GET" | "POST" | "DELETE", url: string, data?: unknown, status = 200): Promise<T> => {
    const response = await request.fetch(`/api/v1${url}`, { method, headers: headers(), data });
    expect(response.status(), `${method} ${url}: ${await response.text()}`).toBe(status);
    return (status === 204 ? null : await response.json()) as T;
  };
}

/**
 * The API of a server a spec starts itself (tests/helpers/processes.ts nextServer: `base` is its
 * origin) with an API key: the parsed body of a 2xx answer; otherwise an error naming the call, its
 * status and body, or why the request failed with the server's log.
 */
export function serverApi(token: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return async (server: { base: string; stderr?: () => string }, method: string, pathname: string, body?: unknown): Promise<any> => {
    const answer = await apiWith(() => token, `${server.base}/api/v1`)(method, pathname, body).catch((error: Error) => {
      const log = server.stderr ? `; server log: ${server.stderr()}` : "";
      throw new Error(`${method} ${server.base}${pathname}: ${error.message} (${String((error.cause as Error | undefined)?.message)})${log}`);
    });
    if (answer.status >= 300) throw new Error(`${method} ${pathname}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
}

export type Outcome = { code: number | null; stdout: string; stderr: string };

/** Runs a command to its end and answers its exit code and output. */
export function runProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

type Env = Record<string, string | undefined>;

/**
 * The environment of the CLI against the e2e server: its own config folder (where `geoscope
 * login` saves the token) or a token in GEOSCOPE_TOKEN, no colour, and nothing of the shell's
 * GEOSCOPE_TOKEN or version override; then `extra`.
 */
export function cliEnv(who: { configDir?: string; token?: () => string; base?: string }, extra: Env = {}): NodeJS.ProcessEnv {
  const env: Env = { ...process.env, GEOSCOPE_BASE_URL: who.base ?? BASE, NO_COLOR: "1" };
  delete env.GEOSCOPE_TOKEN;
  delete env.GEOSCOPE_CLI_VERSION_OVERRIDE;
  if (who.configDir) env.GEOSCOPE_CONFIG_DIR = who.configDir;
  if (who.token) env.GEOSCOPE_TOKEN = who.token();
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

/** Runs the real `geoscope` binary to its end as `who` (cliEnv), with `extra` in its environment. */
export function cliAs(who: { configDir?: string; token?: () => string; base?: string }) {
  return (args: string[], extra: Env = {}): Promise<Outcome> => runProcess(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(who, extra) });
}

/**
 * A monitor's tick now, waited for until it has closed with its analysis (completed or partial;
 * its judge, if any, finished with it): `geoscope monitor run --wait --json`, the real binary as
 * `cli` runs it, whose output is GET /monitors/{id}/ticks/{tick_id}'s body once the tick closed.
 * Resolves the tick's id.
 */
export async function tickNow(cli: (args: string[]) => Promise<Outcome>, monitorId: string): Promise<string> {
  const ran = await cli(["monitor", "run", monitorId, "--wait", "--json"]);
  expect(ran.code, ran.stderr).toBe(0);
  const tick = JSON.parse(ran.stdout) as { id: string; monitor_id: string; status: string; analysis_id: string | null; completed_at: string | null };
  expect(tick.monitor_id).toBe(monitorId);
  expect(tick.completed_at, ran.stdout).not.toBeNull();
  expect(tick.analysis_id, ran.stdout).not.toBeNull();
  expect(tick.status).toMatch(/^(completed|partial)$/);
  return tick.id;
}

/**
 * Runs `geoscope login` (`command args…`), waits for the code it prints, approves it on the
 * /device page it names (the page must be signed in), and resolves when the CLI exits.
 */
export async function approveCliLogin(page: Page, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Outcome> {
  const child = spawn(command, [...args, "login"], options);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

  await expect.poll(() => /code: ([A-Z]{4}-[A-Z]{4})/.exec(stderr)?.[1] ?? null, { timeout: 20_000 }).not.toBeNull();
  const userCode = /code: ([A-Z]{4}-[A-Z]{4})/.exec(stderr)![1]!;
  const url = /(http:\/\/\S+\/device\?code=\S+)/.exec(stderr)![1]!;
  await page.goto(url.replace(/^http:\/\/[^/]+/, ""));
  await expect(page.getByTestId("user-code")).toHaveText(userCode);
  await expect(page.getByTestId("client-name")).toHaveText(/^geoscope CLI on /);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Approved\. The CLI is signed in/)).toBeVisible();
  return { code: await exited, stdout, stderr };
}

/**
 * Leaves ticked only `engines` (ids) among a form's engine checkboxes: a simulated server enables
 * all eight, and specs written for the three model APIs keep their counts and prices.
 */
export async function onlyEngines(form: Locator, engines: readonly string[]): Promise<void> {
  const boxes = form.locator('input[type="checkbox"][name="engines"]');
  await expect(boxes.first()).toBeVisible();
  for (const box of await boxes.all()) {
    const value = await box.getAttribute("value");
    if (engines.includes(value ?? "")) await box.check();
    else await box.uncheck();
  }
}
