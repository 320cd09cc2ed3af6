// A newcomer's first run: `npm start` on a non-default port with no PUBLIC_BASE_URL and no mail
// server. The banner names the address links use, every link the server makes points at the port
// it serves, and signing in through the browser with the link from the server log works.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../helpers/processes";

const root = path.resolve(import.meta.dirname, "..", "..");

test("npm start on another port: links use that port, and browser sign-in works with the link from the log", async ({ page }) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-first-run-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), GEOSCOPE_DATA_DIR: dataDir };
  for (const key of ["PUBLIC_BASE_URL", "NEXTAUTH_URL", "SMTP_URL", "DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"]) delete env[key];
  let output = "";
  const server: ChildProcess = spawn("node", [path.join(root, "scripts", "start.mjs")], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  server.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  try {
    await expect.poll(() => fetch(`${base}/api/v1/version`).then((r) => r.ok, () => false), { timeout: 150_000, intervals: [250] }).toBe(true);
    expect(output).toContain(`links (sign-in, device login, invitations) use ${base}`);

    // The device login link points at the served port.
    const started = await (await fetch(`${base}/api/v1/cli/auth/start`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "first run" }) })).json();
    expect(started.verification_uri_complete).toMatch(new RegExp(`^${base}/device\\?code=`));

    const email = `newcomer-${Date.now()}@example.com`;
    await page.goto(`${base}/account`);
    await page.getByPlaceholder("you@example.com").fill(email);
    await page.getByRole("button", { name: "Send sign-in link" }).click();
    await expect(page.getByRole("heading", { name: /Check your email/ })).toBeVisible();
    // What the README says to look for in the log.
    let link: string | null = null;
    await expect
      .poll(() => {
        const line = output.split("\n").find((l) => l.includes("sign-in link") && l.includes(email));
        link = line ? ((JSON.parse(line) as { url: string }).url ?? null) : null;
        return link;
      }, { timeout: 15_000 })
      .not.toBeNull();
    expect(link!.startsWith(`${base}/api/auth/callback/email?`)).toBe(true);
    await page.goto(link!);
    await expect(page).toHaveURL(`${base}/account`);
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  } finally {
    if (server.exitCode === null) {
      const gone = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid!, "SIGTERM");
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
