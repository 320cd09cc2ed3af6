// What the CLI specs share: running a command to its end, signing in by the emailed link,
// approving a `geoscope login` device code on the /device page, and choosing a form's engines.
import { spawn } from "node:child_process";
import { expect, type Locator, type Page } from "@playwright/test";
import { latestLinkTo } from "./support";

/** Signs `email` in through the link the e2e server's mail catcher received; lands on /account. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/account");
  await page.getByPlaceholder("you@example.com").fill(email);
  await page.getByRole("button", { name: "Send sign-in link" }).click();
  // The mail can arrive before the form has moved on to the check-email page; opening the link
  // while that navigation is under way is interrupted by it.
  await page.waitForURL(/\/signin\/check-email/);
  let link: string | null = null;
  await expect.poll(() => (link = latestLinkTo(email, /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/callback\/email\?\S+/)), { timeout: 15_000 }).not.toBeNull();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/account$/);
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
