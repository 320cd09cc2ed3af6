// End-to-end tests: the built server (next start) on its own throwaway PGlite, driven over
// HTTP, by Debian's Chromium, and by the real CLI binary.
import { defineConfig } from "@playwright/test";
import { E2E_PORT as port, MAILBOX } from "./tests/e2e/support";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${port}/api/v1/version`,
    // The e2e specs that audit pages serve them on the next port; the audit fetcher may reach it.
    // Monitors' ticks close at the scheduler's next look: every 2 s here, not every 30 s. The
    // alerts spec's webhook receiver listens on the next port too.
    env: {
      E2E_PORT: String(port),
      E2E_MAILBOX: MAILBOX,
      AUDIT_ALLOW_HOSTS: `127.0.0.1:${port + 1}`,
      WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${port + 1}`,
      MONITOR_CHECK_SECONDS: "2",
    },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
