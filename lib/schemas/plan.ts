// How precise the figures of planned work will be (decisions.md "Statistics users can plan with"):
// the margin a fanout estimate gives. zod only.
import { z } from "zod";
import { Summary } from "./summary";
import { VisibilityAnalysisId } from "./visibility";

export const PlanMargin = z
  .object({
    runs_per_engine: z.int().describe("prompts × runs: the answers each engine will give, over which a visibility rate per engine is counted."),
    at_half: z
      .number()
      .describe("Half the width of the 95% Wilson interval of a visibility rate of 50% over runs_per_engine, 4 places: the widest it can be. 0.1685 reads ±17 points."),
    at_last_rate: z
      .number()
      .nullable()
      .describe("The same at the brand's last visibility rate (last_rate), 4 places; null when the project has no completed visibility analysis tracking a brand."),
    last_rate: z
      .object({
        analysis_id: VisibilityAnalysisId,
        entity: z.string().describe("The brand: the first brand row of that analysis."),
        runs: z.int(),
        runs_mentioning: z.int(),
        visibility: z.number(),
      })
      .nullable()
      .describe("The brand's visibility in the project's newest completed visibility analysis that tracks one; null when there is none."),
    runs_for_5_points: z.int().describe("The runs per engine a rate of 50% needs for ±5 points: ⌈1.96² × 0.25 / 0.05²⌉ = 385 (Wilson's interval at that n is no wider)."),
    summary: Summary.describe('The margin in words: "About ±17 points per engine (30 runs each); to reach ±5, 385 runs per engine."'),
  })
  .meta({
    id: "PlanMargin",
    description: "How precise each engine's visibility rates will be with the runs planned, before anything runs.",
  });

export const DetectableChange = z
  .object({
    entities: z.int().describe("m: the entities the monitor tracks, whose alert test is corrected for m comparisons (Newcombe at 1 − 0.05/m)."),
    min_change: z.int().describe("The alerts' own floor in points (alerts.min_change): no smaller change is ever alerted."),
    at_half: z
      .number()
      .nullable()
      .describe("The smallest change between two ticks, as a rate difference (0.26 = 26 points), that the alert test calls significant 8 times in 10 from a rate of 50%, and at least min_change; null when none within the rate's range is caught so often."),
    at_last_rate: z.number().nullable().describe("The same from the brand's last visibility rate (margin.last_rate); null without one, or when none is caught so often."),
    summary: Summary.describe('In words: "A change between two ticks is alerted 8 times in 10 when it is at least 26 points (from 50%); from Acme\'s last visibility (25%), 23 points."'),
  })
  .meta({
    id: "DetectableChange",
    description:
      "How large a change between two ticks must be for the monitor's alert test to catch it 8 times in 10: the normal approximation under the classic two-proportion sample size (unpooled), at the test's Bonferroni level, to 3 decimals.",
  });
