import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { checkCliVersion, cliVersionOf } from "@/lib/http/version-gate";

const MIN = "1.4.0";

function gate(userAgent: string | null): ApiError | null {
  try {
    checkCliVersion(userAgent, MIN);
    return null;
  } catch (error) {
    return error as ApiError;
  }
}

describe("CLI version gate", () => {
  it("refuses a CLI older than the minimum with 426 cli_outdated naming both versions", () => {
    for (const old of ["1.3.9", "0.9.0", "1.4.0-beta.1"]) {
      const error = gate(`geoscope-cli/${old}`);
      expect(error?.code, old).toBe("cli_outdated");
      expect(error?.status).toBe(426);
      expect(error?.retryable).toBe(false);
      expect(error?.message).toContain(old);
      expect(error?.message).toContain(MIN);
    }
  });

  it("answers a CLI at or above the minimum", () => {
    for (const ok of ["1.4.0", "1.4.1", "2.0.0", "1.5.0-rc.1"]) expect(gate(`geoscope-cli/${ok}`), ok).toBeNull();
  });

  it("finds the CLI token anywhere in the User-Agent", () => {
    expect(gate("geoscope-cli/1.0.0 (linux; node 20)")?.code).toBe("cli_outdated");
    expect(gate("Mozilla/5.0 geoscope-cli/1.0.0")?.code).toBe("cli_outdated");
  });

  it("never refuses other clients, whatever their version", () => {
    for (const ua of [null, "", "curl/8.5.0", "python-requests/2.0", "Mozilla/5.0", "other-cli/0.0.1", "xgeoscope-cli/0.0.1"]) {
      expect(gate(ua), String(ua)).toBeNull();
    }
  });

  it("does not refuse a CLI whose version cannot be read (only released versions are compared)", () => {
    for (const ua of ["geoscope-cli/", "geoscope-cli/abc", "geoscope-cli/1.2", "geoscope-cli/v", "geoscope-cli/1.2.3.4"]) {
      expect(cliVersionOf(ua), ua).toBeNull();
      expect(gate(ua), ua).toBeNull();
    }
  });
});
