// Where the CLI (and `geoscope mcp`) gets its server, its credential and its own version: flags,
// then the environment, then the login saved by `geoscope login`.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export const DEFAULT_BASE_URL = "http://localhost:3000/api/v1";

// Set by scripts/build-cli.mjs (esbuild `define`) in the standalone bundle; undeclared when the
// CLI runs from a checkout through tsx, where `typeof` reads it as "undefined".
declare const __GEOSCOPE_CLI_VERSION__: string | undefined;

/** True in the standalone package (`npm run pack:cli`), false when run from a checkout. */
export const STANDALONE = typeof __GEOSCOPE_CLI_VERSION__ === "string";

/** The CLI's version: built in, else package.json's; GEOSCOPE_CLI_VERSION_OVERRIDE wins (for tests of the version gate). */
export function cliVersion(): string {
  const override = process.env.GEOSCOPE_CLI_VERSION_OVERRIDE;
  if (override) return override;
  if (typeof __GEOSCOPE_CLI_VERSION__ === "string") return __GEOSCOPE_CLI_VERSION__;
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** The CLI's own file, not an API shape. */
export type SavedConfig = { base_url?: string; token?: string; token_id?: string; email?: string };

export function configDir(): string {
  if (process.env.GEOSCOPE_CONFIG_DIR) return process.env.GEOSCOPE_CONFIG_DIR;
  const base = process.env.XDG_CONFIG_HOME || path.join(homedir(), ".config");
  return path.join(base, "geoscope");
}

export function configPath(): string {
  return path.join(configDir(), "config.json");
}

export function readConfig(): SavedConfig {
  try {
    const parsed = JSON.parse(readFileSync(configPath(), "utf8")) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as SavedConfig) : {};
  } catch {
    return {};
  }
}

export function writeConfig(config: SavedConfig): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const file = configPath();
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function forgetToken(): void {
  const config = readConfig();
  delete config.token;
  delete config.token_id;
  delete config.email;
  if (Object.keys(config).length === 0) rmSync(configPath(), { force: true });
  else writeConfig(config);
}

export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** How the standalone package is upgraded: built again from an up-to-date checkout (docs/guide.md, "The CLI"). */
export const PACK_HINT = "npm run pack:cli in an up-to-date checkout, then npm install -g ./dist/geoscope-cli-<version>.tgz";

export type Settings = { baseUrl: string; token: string | null; version: string };

/** Flags first, then the environment, then the saved login (its token only for its own server). */
export function resolveSettings(flags: { baseUrl?: string; token?: string }): Settings {
  const saved = readConfig();
  const baseUrl = normalizeBaseUrl(flags.baseUrl || process.env.GEOSCOPE_BASE_URL || saved.base_url || DEFAULT_BASE_URL);
  let token = flags.token || process.env.GEOSCOPE_TOKEN || null;
  if (!token && saved.token && normalizeBaseUrl(saved.base_url ?? DEFAULT_BASE_URL) === baseUrl) token = saved.token;
  return { baseUrl, token, version: cliVersion() };
}
