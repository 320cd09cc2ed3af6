// Builds envelopes from provider response fixtures, the way an adapter records them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EngineEnvelope, EngineId, RedirectOutcome } from "@/lib/engines/types";

const fixtures = fileURLToPath(new URL("../../fixtures/engines/", import.meta.url));

export function fixture(path: string): unknown {
  return JSON.parse(readFileSync(`${fixtures}${path}`, "utf8"));
}

export function envelopeOf(engine: EngineId, bodies: unknown[], redirects: Record<string, RedirectOutcome> = {}): EngineEnvelope {
  return {
    engine,
    normalizer_version: "1",
    model_requested: "test-model",
    exchanges: bodies.map((body) => ({
      request: { method: "POST", url: "https://provider.test/", body: {} },
      response: { status: 200, headers: { "content-type": "application/json" }, body },
    })),
    redirects,
  };
}

export const resolvedTo = (location: string): RedirectOutcome => ({ location, status: 302, error: null });
export const failedWith = (status: number | null, error: string): RedirectOutcome => ({ location: null, status, error });
