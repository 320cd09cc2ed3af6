// The server's configuration: every environment variable it reads, validated once with zod.
// A bad value stops the server with a message naming the variable (see README's table).
import { z } from "zod";
import { engineEnvSchema } from "../engines/config";
import { bool, positiveInt, wholeNumber } from "./fields";

const semver = z.string().regex(/^\d+\.\d+\.\d+$/, { error: "must be a version like 1.2.3" });

/**
 * One `host` or `host:port` entry, or the reason it is not one. The host must be written the
 * way a URL spells it (lower-case, IPv4 as a dotted quad, IPv6 in brackets), so that the
 * entry matches what the fetcher compares it with.
 */
export function allowHostProblem(entry: string): string | null {
  const match = /^(\[[^\]]*\]|[^:/?#@\s[\]]+)(?::(\d{1,5}))?$/.exec(entry);
  const example = "(e.g. intranet.example, 10.0.0.5:8080, [fd00::5])";
  if (!match) return `"${entry}" is not a host or host:port ${example}`;
  const [, host, port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return `"${entry}": the port must be 1 to 65535`;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    return `"${entry}" is not a host or host:port ${example}`;
  }
  if (hostname !== host) return `"${entry}": write the host as ${hostname}`;
  return null;
}

// Hosts the audit fetcher may reach although their addresses are not public (tests, intranets):
// a comma list of host or host:port; a bare host allows every port. Default: none.
const allowHostList = z
  .string()
  .default("")
  .transform((list) => list.split(",").flatMap((entry) => entry.trim().toLowerCase() || []))
  .superRefine((entries, ctx) => {
    for (const problem of entries.map(allowHostProblem)) if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // The port `npm start` serves on.
  PORT: wholeNumber(3000, 1, 65535),
  // Where people and the CLI reach this server; used to build links (device login, shares).
  // Unset: http://localhost:<PORT>, the address `npm start` serves.
  PUBLIC_BASE_URL: z.url({ error: "must be an absolute URL such as http://localhost:3000" }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: "must be a postgresql:// URL" })
    .optional(),
  GEOSCOPE_DATA_DIR: z.string().min(1).default(".data"),
  // Where the server runs embedded PGlite: a worker thread (default), or its request thread
  // (docs/decisions.md). Scripts and tests run it inline (lib/db/client.ts).
  GEOSCOPE_PGLITE_THREAD: z.enum(["worker", "inline"], { error: 'must be "worker" or "inline"' }).default("worker"),
  MIN_CLI_VERSION: semver.default("0.1.0"),
  BILLING_ENABLED: bool(true),
  RATE_CARD_FILE: z.string().min(1).default("config/rate-card.json"),
  // Promotional credit every new personal workspace receives (spent before purchased credit).
  SIGNUP_PROMO_USD: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, { error: 'must be a non-negative amount in USD such as "5.00"' })
    .default("5.00"),
  // Checks every response against its endpoint's schema (on in tests; costs time in production).
  GEOSCOPE_VALIDATE_RESPONSES: bool(false),
  MAX_BODY_BYTES: positiveInt(1024 * 1024),
  // Mail (invitations, sign-in links). Unset: nothing is mailed; sign-in links go to the server log.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.string().min(3).default("geoscope <geoscope@localhost>"),
  INVITATION_TTL_DAYS: positiveInt(7, 365),
  // Browser sign-in. AUTH_SECRET unset: one is generated into the data folder on first start.
  AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  GITHUB_ID: z.string().min(1).optional(),
  GITHUB_SECRET: z.string().min(1).optional(),
  GOOGLE_ID: z.string().min(1).optional(),
  GOOGLE_SECRET: z.string().min(1).optional(),
  DEVICE_CODE_TTL_SECONDS: positiveInt(600, 3600),
  DEVICE_POLL_INTERVAL_SECONDS: positiveInt(5, 60),
  // Queued plus running runs a workspace may have before work-starting requests answer 429.
  RUNS_IN_FLIGHT_LIMIT: positiveInt(2000),
  // Engine calls this server makes at once, per engine (the local driver's queue).
  ENGINE_CONCURRENCY: positiveInt(8, 1000),
  // The most executions (prompts × engines × runs) one fanout may have.
  FANOUT_MAX_EXECUTIONS: positiveInt(1000),
  AUDIT_ALLOW_HOSTS: allowHostList,
  // Page audits of one host at once (per host, so a site sweep does not hammer the site).
  AUDIT_CONCURRENCY: positiveInt(8, 100),
  // Hosts a monitor's webhook may reach although their addresses are not public (tests,
  // intranets): the same list format as AUDIT_ALLOW_HOSTS. Default: none.
  WEBHOOK_ALLOW_HOSTS: allowHostList,
  // How often the local driver looks for due monitor slots and finished ticks, in seconds.
  MONITOR_CHECK_SECONDS: positiveInt(30, 3600),
})
  .extend(engineEnvSchema.shape)
  // A fanout at the limit must be able to start in an idle workspace.
  .refine((c) => c.RUNS_IN_FLIGHT_LIMIT >= c.FANOUT_MAX_EXECUTIONS, {
    path: ["RUNS_IN_FLIGHT_LIMIT"],
    error: "must be at least FANOUT_MAX_EXECUTIONS, so that the largest fanout can start",
  })
  .transform((c) => ({ ...c, PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? defaultBaseUrl(c.PORT)).replace(/\/+$/, "") }));

export type Config = z.output<typeof envSchema>;

/** The base URL links use when PUBLIC_BASE_URL is unset: the port this server is told to serve on. */
export function defaultBaseUrl(port: number): string {
  return `http://localhost:${port}`;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "not set": `FOO= npm start` should not be a validation error.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

const globalForConfig = globalThis as unknown as { __geoscopeConfig?: Config };

/** The process's configuration, parsed on first use. */
export function config(): Config {
  globalForConfig.__geoscopeConfig ??= parseConfig(process.env);
  return globalForConfig.__geoscopeConfig;
}

/** Tests change the environment between cases; this makes the next `config()` read it again. */
export function resetConfig(): void {
  globalForConfig.__geoscopeConfig = undefined;
}
