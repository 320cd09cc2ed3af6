// A comparison's summary (decisions.md "Plain words beside every figure", "Comparison
// analyses"): how many prompts both engines answered, the tracked name whose visibility differs
// most (a difference said as one only when its interval excludes 0), how alike the cited domains,
// the searches and the order of names are. Computed when the comparison is presented, so GET
// answers what POST did. Declares what it reads (the schema's example is worded by it).
import { count, counted, engineName, FLAT_INTERVAL, isFlat, isWide, percent, percentRange, points } from "./format";
import { rateFigure, summaryOf, type Summary } from "./sentences";

type Side = { runs: number; runs_mentioning: number; visibility_interval: readonly [number, number] };
type Mean = { value: number | null; interval: readonly [number, number] | null; prompts: number };

/** What the summary reads of a comparison analysis (ComparisonAnalysis's fields of these names). */
export type ComparisonFacts = {
  a: string;
  b: string;
  prompts_compared: number;
  excluded_prompts: ReadonlyArray<{ prompt: string }>;
  rows: ReadonlyArray<{ name: string; a: Side; b: Side; diff: number; significant: boolean }>;
  sources: { jaccard: number | null; jaccard_interval: readonly [number, number] | null; prompts: number; only_a: ReadonlyArray<{ domain: string; runs_citing: number }>; only_b: ReadonlyArray<{ domain: string; runs_citing: number }> };
  searches: { overlap: number | null; overlap_interval: readonly [number, number] | null; prompts: number } | null;
  order: { rbo: number | null; rbo_interval: readonly [number, number] | null; prompts: number };
};

const answers = (n: number) => (n === 1 ? "answer" : "answers");

/**
 * A mean of 0..1 over prompts, as a percent with its n and interval: "34% on average (12 prompts,
 * 95% interval 22–46%"; "about" when wide; "the same on each prompt" instead of an interval of no width.
 * `note` ends the brackets.
 */
function meanFigure(m: Mean, note = ""): string {
  const wide = m.interval !== null && isWide(m.interval);
  const interval = m.interval === null ? "" : isFlat(m.interval) ? `, ${FLAT_INTERVAL}` : `, 95% interval ${percentRange(m.interval)}`;
  return `${wide ? "about " : ""}${percent(m.value ?? 0)} on average (${counted(m.prompts, "prompt")}${interval}${note})`;
}

export function comparisonSummary(c: ComparisonFacts): Summary {
  const A = engineName(c.a);
  const B = engineName(c.b);
  const left = c.excluded_prompts.length;
  const leftOut = left ? ` (${counted(left, "prompt")} answered by one of them only ${left === 1 ? "is" : "are"} left out)` : "";
  if (c.prompts_compared === 0) {
    return summaryOf(`No prompt was answered by both ${A} and ${B}, so nothing could be compared${leftOut}.`);
  }
  const first = c.rows[0];
  const runsA = first?.a.runs;
  const runsB = first?.b.runs;
  const opening =
    runsA === undefined
      ? `${A} and ${B} are compared on the ${counted(c.prompts_compared, "prompt")} both answered${leftOut}.`
      : `${A} and ${B} are compared on the ${counted(c.prompts_compared, "prompt")} both answered: ${counted(runsA!, "answer")} from ${A}, ${runsB} from ${B}${leftOut}.`;

  // The name whose visibility differs most: a difference only when its test says so.
  const significant = c.rows.filter((r) => r.significant);
  const widest = [...(significant.length ? significant : c.rows)].sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff))[0];
  let visibility: string | null = null;
  if (widest) {
    const tallyA = { k: widest.a.runs_mentioning, n: widest.a.runs, interval: widest.a.visibility_interval };
    const tallyB = { k: widest.b.runs_mentioning, n: widest.b.runs, interval: widest.b.visibility_interval };
    if (widest.significant) {
      const more = widest.diff > 0 ? B : A;
      const less = widest.diff > 0 ? A : B;
      const [hi, lo] = widest.diff > 0 ? [tallyB, tallyA] : [tallyA, tallyB];
      const others = significant.length - 1;
      visibility =
        `${more} names ${widest.name} more often than ${less}, more than chance explains: in ${count(hi.k, hi.n)} ${answers(hi.n)} (${rateFigure(hi)}) against ${count(lo.k, lo.n)} (${rateFigure(lo, false)}), ` +
        `${points(Math.abs(widest.diff)).replace(/^\+/, "")} apart${others ? `; ${counted(others, "other name")} ${others === 1 ? "differs" : "differ"} beyond chance too` : ""}.`;
    } else {
      visibility =
        `No tracked name is named more often on one engine than chance explains; the widest gap is ${widest.name}'s: ${count(tallyA.k, tallyA.n)} ${answers(tallyA.n)} on ${A} (${rateFigure(tallyA, false)}), ` +
        `${count(tallyB.k, tallyB.n)} on ${B} (${rateFigure(tallyB, false)}).`;
    }
  }

  const s = c.sources;
  let sources: string | null = null;
  if (s.jaccard !== null) {
    const onlyB = s.only_b[0];
    const onlyA = s.only_a[0];
    const alone = [onlyB && `only ${B} cites ${onlyB.domain} (in ${counted(onlyB.runs_citing, "answer")})`, onlyA && `only ${A} cites ${onlyA.domain} (in ${onlyA.runs_citing})`].filter(Boolean);
    sources = `The domains the two cite for a prompt overlap by ${meanFigure({ value: s.jaccard, interval: s.jaccard_interval, prompts: s.prompts }, "; Jaccard index")}${alone.length ? `; ${alone.join(", and ")}` : ""}.`;
  } else {
    sources = `Neither engine cited a page for any prompt compared.`;
  }

  let searches: string | null = null;
  if (c.searches === null) searches = null;
  else if (c.searches.overlap === null) searches = `${A} reported no search for the prompts compared, so the searches are not compared.`;
  else if (c.searches.overlap === 0 && (c.searches.overlap_interval?.[1] ?? 0) === 0) searches = `${B} ran none of ${A}'s searches (${counted(c.searches.prompts, "prompt")} where ${A} searched).`;
  else searches = `Of ${A}'s searches, ${B} also ran ${meanFigure({ value: c.searches.overlap, interval: c.searches.overlap_interval, prompts: c.searches.prompts })}.`;

  const o = c.order;
  const order =
    o.rbo === null
      ? null
      : `Where both name tracked names, the order they name them in agrees by ${meanFigure({ value: o.rbo, interval: o.rbo_interval, prompts: o.prompts }, "; rank-biased overlap: 100% is the same order, 0% none in common")}.`;

  return summaryOf(opening, visibility, sources, searches, order);
}
