// A run with no search shown, in the CLI's human output (`geoscope runs get`): why, as the run
// page says it. Google's AI Overview does not say which searches it ran; "(none)" read as "it ran
// none".
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formatRun, noSearchesShown } from "@/cli/commands/runs";
import { exampleRun } from "@/lib/schemas/examples";
import type { Run } from "@/lib/schemas/runs";

type RunBody = z.output<typeof Run>;

/** The schema's example run on `engine`, its searches gone and `searched` as given. */
function runWithoutSearches(engine: RunBody["engine"], searched: boolean | null): RunBody {
  const run = structuredClone(exampleRun) as unknown as RunBody & { result: Record<string, unknown> };
  return { ...run, engine, result: { ...run.result, searches: [], searched } } as unknown as RunBody;
}

describe("a run with no search shown", () => {
  it("says an engine that does not report its searches does not say which it ran", () => {
    const out = formatRun(runWithoutSearches("google_ai_overview", null));
    expect(out).toContain("Searches (0):\n  (Google AI Overview (app) does not say which searches it ran)");
    expect(out).not.toContain("(none)");
  });

  it("says a run that did not search did not, and an engine that reports its searches showed none", () => {
    expect(formatRun(runWithoutSearches("chatgpt", false))).toContain("Searches (0):\n  (it did not search the web)");
    expect(formatRun(runWithoutSearches("chatgpt", true))).toContain("Searches (0):\n  (the engine showed no queries)");
    expect(noSearchesShown("perplexity", null)).toBe("Perplexity (API) does not say which searches it ran");
    expect(noSearchesShown("chatgpt_app", null)).toBe("the engine showed no queries");
  });
});
