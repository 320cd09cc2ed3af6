// The CLI version gate of spec 9: only a User-Agent naming the geoscope CLI is checked, and a
// released version below MIN_CLI_VERSION is answered 426 before anything else happens.
import semver from "semver";
import { ApiError } from "./errors";

export const CLI_NAME = "geoscope";
const CLI_AGENT = /(?:^|\s)geoscope-cli\/(\S+)/;

/** The CLI version named in a User-Agent, or null for other clients and unparseable versions. */
export function cliVersionOf(userAgent: string | null): string | null {
  const match = userAgent ? CLI_AGENT.exec(userAgent) : null;
  if (!match?.[1]) return null;
  return semver.valid(match[1]);
}

export function checkCliVersion(userAgent: string | null, minVersion: string): void {
  const version = cliVersionOf(userAgent);
  // Other clients, and a CLI whose version cannot be read, are never refused for their version.
  if (version === null || !semver.lt(version, minVersion)) return;
  throw new ApiError(
    "cli_outdated",
    `This geoscope CLI is version ${version}; this server needs ${minVersion} or newer. ` +
      `Upgrade the CLI (from a checkout: git pull && npm install; the geoscope-cli package: install a newer one) and run the command again. Nothing was run or charged.`,
    { retryable: false, headers: { "X-Min-Cli-Version": minVersion } },
  );
}
