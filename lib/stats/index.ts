// The statistics every figure of the API uses (decisions.md "Statistics"), in one module: rates
// with Wilson intervals, changes with Newcombe's interval, means with Student's t interval from
// their sums, and agreement with Cohen's kappa; rank-biased overlap of two orderings.
export { wilsonInterval } from "./wilson";
export { normalQuantile, zFor } from "./normal";
export { round4, rateOf } from "./rate";
export { newcombeInterval } from "./newcombe";
export { changeTest, type ChangeTest, type Count } from "./change";
export { studentTCdf, studentTQuantile, tFor } from "./student";
export { sampleVariance, tMeanInterval } from "./mean";
export { SeededRandom } from "./random";
export { cohensKappa, type Agreement2x2 } from "./kappa";
export { detectableChange, runsForMargin, wilsonHalfWidth } from "./plan";
export { rankBiasedOverlap } from "./rbo";
