// A monitor's sentiment in plain words (lib/words/sentiment.ts): the latest judged tick's score
// with its n and interval, the neutral ones, and a change only when the series' test says so.
import { describe, expect, it } from "vitest";
import { rateOf } from "@/lib/stats";
import { sentimentSentence } from "@/lib/words/sentiment";

const point = (k: number, n: number, change: { diff: number; significant: boolean } | null = null) => {
  const { rate, interval } = rateOf(k, n);
  return { value: n === 0 ? null : rate, interval: n === 0 ? null : interval, n, change };
};
const counts = (positive: number, neutral: number, negative: number) => ({ runs_judged: positive + neutral + negative + 2, positive, neutral, negative });

describe("sentimentSentence", () => {
  it("says the score with its n and 95% interval, 'about' when the interval is wider than 20 points, and the neutral ones", () => {
    expect(sentimentSentence("Acme CRM", point(8, 10), counts(8, 3, 2))).toBe(
      "Answers speak well of Acme CRM in 8 of 10 judged mentions that take a side (about 80%, 95% interval 49–95%). 3 more were neutral.",
    );
    expect(sentimentSentence("HubSpot", point(90, 100), counts(90, 1, 10))).toBe(
      "Answers speak well of HubSpot in 90 of 100 judged mentions that take a side (90%, 95% interval 82–95%). 1 more was neutral.",
    );
  });

  it("calls a change a change only when the test says it is significant", () => {
    const before = point(2, 10);
    expect(sentimentSentence("Acme CRM", point(9, 10, { diff: 0.7, significant: true }), counts(9, 0, 1), before)).toContain(
      "A change of +70 points since the judged tick before, more than chance explains.",
    );
    expect(sentimentSentence("Acme CRM", point(6, 10, { diff: 0.4, significant: false }), counts(6, 0, 4), before)).toContain(
      "No change from the judged tick before beyond chance.",
    );
  });

  it("says when no judged answer took a side, and when there is no judged tick", () => {
    expect(sentimentSentence("Pipedrive", point(0, 0), { runs_judged: 12, positive: 0, neutral: 2, negative: 0 })).toBe(
      "No judged answer of the latest tick spoke of Pipedrive positively or negatively (12 judged, 2 of them neutral about it).",
    );
    expect(sentimentSentence("Pipedrive", undefined, undefined)).toBe("Pipedrive: no judged tick yet.");
  });
});
