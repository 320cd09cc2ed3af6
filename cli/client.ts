// The CLI's HTTP client and configuration. It talks only to the public API: every call names an
// endpoint declared in lib/schemas (method and path come from there), and the raw response text
// is kept so `--json` can print exactly what the server sent.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { EndpointDefinition } from "../lib/schemas/endpoint";

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

export type Settings = { baseUrl: string; token: string | null; version: string };

/** Flags first, then the environment, then the saved login (its token only for its own server). */
export function resolveSettings(flags: { baseUrl?: string; token?: string }): Settings {
  const saved = readConfig();
  const baseUrl = normalizeBaseUrl(flags.baseUrl || process.env.GEOSCOPE_BASE_URL || saved.base_url || DEFAULT_BASE_URL);
  let token = flags.token || process.env.GEOSCOPE_TOKEN || null;
  if (!token && saved.token && normalizeBaseUrl(saved.base_url ?? DEFAULT_BASE_URL) === baseUrl) token = saved.token;
  return { baseUrl, token, version: cliVersion() };
}

export type ErrorEnvelope = { error: { code: string; message: string; engine: string | null; retryable: boolean } };

export type ApiResponse = { status: number; text: string; headers: Headers };

/** An answer that is not 2xx, or no answer at all (status 0). `text` is the body as sent, or a made-up envelope. */
export class CliHttpError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
    readonly text: string,
    readonly headers: Headers | null,
  ) {
    super(envelope.error.message);
  }
  get code() {
    return this.envelope.error.code;
  }
}

export type CallInput = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  token?: string | null;
};

export function buildUrl(baseUrl: string, endpoint: EndpointDefinition, input: CallInput): string {
  const filled = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(key, String(value));
  const qs = query.toString();
  return `${baseUrl}${filled}${qs ? `?${qs}` : ""}`;
}

export async function call(settings: Settings, endpoint: EndpointDefinition, input: CallInput = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {
    "User-Agent": `geoscope-cli/${settings.version}`,
    Accept: "application/json",
  };
  const token = input.token === undefined ? settings.token : input.token;
  if (endpoint.auth === "bearer" && token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (input.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(input.body);
  }
  const url = buildUrl(settings.baseUrl, endpoint, input);
  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    const envelope: ErrorEnvelope = {
      error: {
        code: "unreachable",
        message: `could not reach ${settings.baseUrl} (${why}); is the server running? Set --base-url or GEOSCOPE_BASE_URL.`,
        engine: null,
        retryable: true,
      },
    };
    throw new CliHttpError(0, envelope, JSON.stringify(envelope), null);
  }
  const text = await response.text();
  if (response.ok) return { status: response.status, text, headers: response.headers };
  let envelope: ErrorEnvelope;
  try {
    const parsed = JSON.parse(text) as ErrorEnvelope;
    if (!parsed?.error || typeof parsed.error.message !== "string") throw new Error("not an envelope");
    envelope = parsed;
  } catch {
    envelope = {
      error: {
        code: `http_${response.status}`,
        message: `the server answered ${response.status} ${response.statusText} without an error envelope`,
        engine: null,
        retryable: response.status >= 500,
      },
    };
    throw new CliHttpError(response.status, envelope, JSON.stringify(envelope), response.headers);
  }
  throw new CliHttpError(response.status, envelope, text, response.headers);
}

/** Exit codes, one per error class (also in `geoscope --help`). */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  credit: 5,
  rateLimited: 6,
  outdated: 7,
  invalid: 8,
} as const;

const EXIT_BY_CODE: Record<string, number> = {
  invalid_request: EXIT.invalid,
  conflict: EXIT.invalid,
  unauthenticated: EXIT.auth,
  permission_denied: EXIT.auth,
  insufficient_credit: EXIT.credit,
  not_found: EXIT.notFound,
  method_not_allowed: EXIT.notFound,
  cli_outdated: EXIT.outdated,
  rate_limited: EXIT.rateLimited,
};

const EXIT_BY_STATUS: Record<number, number> = {
  400: EXIT.invalid,
  401: EXIT.auth,
  402: EXIT.credit,
  403: EXIT.auth,
  404: EXIT.notFound,
  405: EXIT.notFound,
  409: EXIT.invalid,
  426: EXIT.outdated,
  429: EXIT.rateLimited,
};

/** A known code decides; an unknown one is treated as its HTTP status (spec 7). */
export function exitCodeFor(error: CliHttpError): number {
  return EXIT_BY_CODE[error.code] ?? EXIT_BY_STATUS[error.status] ?? EXIT.other;
}
