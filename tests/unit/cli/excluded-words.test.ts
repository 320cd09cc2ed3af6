// The runs an analysis left out, in the CLI's human output: by reason, a few ids each, so a
// fanout's runs of other engines do not fill the screen (a newcomer's comparison listed 18 ids).
import { describe, expect, it } from "vitest";
import { excludedInWords } from "@/cli/commands/visibility";

describe("excludedInWords", () => {
  it("groups by reason in order of first appearance and says how many more --json lists", () => {
    const other = Array.from({ length: 5 }, (_, i) => ({ run_id: `dr_o${i}`, reason: "other_engine" }));
    expect(excludedInWords([{ run_id: "dr_a", reason: "no_answer" }, ...other, { run_id: "dr_b", reason: "no_answer" }])).toBe(
      "no_answer (2): dr_a, dr_b; other_engine (5): dr_o0, dr_o1, dr_o2 and 2 more (--json lists every one)",
    );
  });

  it("lists every id when none is cut", () => {
    expect(excludedInWords([{ run_id: "dr_a", reason: "duplicate" }])).toBe("duplicate (1): dr_a");
  });
});
