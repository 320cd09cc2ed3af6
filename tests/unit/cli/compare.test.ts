// `geoscope compare` (the real CLI against a stand-in API) and the summary's words where a mean over
// prompts has an interval of no width (every prompt alike: Student's t from no spread), which reads
// "the same on each prompt", not "0–0%".
import { describe, expect, it } from "vitest";
import { ComparisonAnalysis } from "@/lib/schemas/comparison";
import { comparisonSummary } from "@/lib/words/comparison";
import { standInApi } from "./stand-in";

const api = standInApi();
const FO = "fo_01JD4M9RZ6XQ7W8V5T3S2R1P0N";
type Comparison = Parameters<typeof comparisonSummary>[0] & { summary: string[] };
const example = structuredClone((ComparisonAnalysis.meta() as { examples: [unknown] }).examples[0]) as Comparison;

/** The example over two prompts whose cited domains never overlap and whose order of names always agrees. */
function alike(): Comparison {
  const c = structuredClone(example);
  c.sources = { ...c.sources, jaccard: 0, jaccard_interval: [0, 0], prompts: 2 };
  c.order = { ...c.order, rbo: 1, rbo_interval: [1, 1], prompts: 2 };
  c.summary = comparisonSummary(c).map(String);
  return c;
}

describe("geoscope compare", { timeout: 60_000 }, () => {
  it("says a mean over prompts with its 95% interval and n", async () => {
    api.answer(() => ({ status: 201, body: example }));
    const human = await api.cli(["compare", FO, "--a", "chatgpt", "--b", "chatgpt_app"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("cited domains alike (Jaccard, mean over prompts): 21% (95% 13–30%, 12 prompts)");
  });

  it("says every prompt was alike where the interval has no width, in the table and the summary", async () => {
    const body = alike();
    api.answer(() => ({ status: 201, body }));
    const human = await api.cli(["compare", FO, "--a", "chatgpt", "--b", "chatgpt_app"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("cited domains alike (Jaccard, mean over prompts): 0% (2 prompts, the same on each prompt, so no interval)");
    expect(human.stdout).toContain("order alike (rank-biased overlap, p = 0.9, mean over prompts): 100% (2 prompts, the same on each prompt, so no interval)");
    expect(body.summary.join(" ")).toContain("overlap by 0% on average (2 prompts, the same on each prompt, so no interval; Jaccard index)");
    expect(human.stdout).not.toMatch(/0–0%|100–100%/);
  });

  it("counts one run pair in the singular", async () => {
    const body = alike();
    api.answer(() => ({ status: 201, body: { ...body, order: { ...body.order, pairs: 1 } } }));
    const human = await api.cli(["compare", FO, "--a", "chatgpt", "--b", "chatgpt_app"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/order alike \(rank-biased overlap[^\n]* · 1 run pair\n/);
  });
});
