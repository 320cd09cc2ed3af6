// A weekly digest in words (lib/words/digests.ts): the subject; each part said in order, with what
// is said when there is nothing to say (no completed tick, nothing to compare, no change beyond
// chance, no opportunity); at most 10 changes listed and the rest counted; the HTML copy escapes
// the monitor's name and links its page.
import { describe, expect, it } from "vitest";
import { digestMail, DIGEST_CHANGES_LISTED, type DigestFacts } from "@/lib/words/digests";

const base: DigestFacts = {
  monitorName: "CRM <visibility> & co",
  monitorId: "mo_01M7VRMMR088ASXAB0JMYCMVPP",
  monitorUrl: "https://geoscope.example/monitors/mo_01M7VRMMR088ASXAB0JMYCMVPP",
  week: "2026-W48",
  weekStart: new Date("2026-11-23T00:00:00.000Z"),
  dueTick: { scheduledFor: new Date("2026-11-23T06:00:00.000Z"), status: "skipped", skipReason: "insufficient_credit" },
  latest: null,
  changes: { ticksCompared: 0, found: [] },
  opportunities: { kind: "none", why: "No completed tick has a visibility analysis yet, so there are no opportunities to list." },
};

describe("a weekly digest in words", () => {
  it("says each part in order, and what it says when there is nothing to report", () => {
    const mail = digestMail(base);
    expect(mail.subject).toBe("Weekly digest: CRM <visibility> & co (week 2026-W48)");
    const lines = mail.text.split("\n");
    expect(lines[0]).toBe('The weekly digest of the monitor "CRM <visibility> & co", week 2026-W48 (2026-11-23 to 2026-11-29).');
    expect(lines[1]).toBe("Its tick of 2026-11-23 06:00 UTC was skipped: the workspace's credit did not cover it.");
    expect(mail.text).toContain("No tick of this monitor has completed yet, so there are no figures to report.");
    expect(mail.text).toContain("No tick this week had an earlier completed tick of its version to compare with, so no change can be told.");
    expect(mail.text.indexOf("Significant changes this week:")).toBeLessThan(mail.text.indexOf("Top opportunities:"));
    expect(mail.text).toContain(`The monitor: ${base.monitorUrl}`);
    expect(digestMail({ ...base, changes: { ticksCompared: 7, found: [] } }).text).toContain(
      "No change this week was beyond what chance explains (7 ticks compared with the one before, by the series' test, as alerts use it).",
    );
  });

  it("lists the summary, the changes (10 at most, the rest counted) and the opportunities numbered", () => {
    const found = Array.from({ length: DIGEST_CHANGES_LISTED + 2 }, (_, i) => ({ at: new Date(Date.UTC(2026, 10, 17 + (i % 7), 6)), sentence: `Change ${i}.` }));
    const mail = digestMail({
      ...base,
      dueTick: { scheduledFor: new Date("2026-11-23T06:00:00.000Z"), status: "completed", skipReason: null },
      latest: { scheduledFor: new Date("2026-11-23T06:00:00.000Z"), summary: ["Acme is named in 20 of 30 answers.", "Nothing else."] },
      changes: { ticksCompared: 7, found },
      opportunities: { kind: "listed", at: new Date("2026-11-23T06:00:00.000Z"), brand: "Acme", lead: "Lead.", lost: ["Lost one.", "Lost two."], targets: ["Target one."] },
    });
    expect(mail.text).toContain("What its latest completed tick (2026-11-23 06:00 UTC) says:\n- Acme is named in 20 of 30 answers.\n- Nothing else.");
    expect(mail.text).toContain("- 2026-11-17: Change 0.");
    expect(mail.text).toContain(`- 2026-11-19: Change ${DIGEST_CHANGES_LISTED - 1}.`);
    expect(mail.text).not.toContain(`Change ${DIGEST_CHANGES_LISTED}.`);
    expect(mail.text).toContain("- and 2 more changes beyond chance (the monitor's page lists every one).");
    expect(mail.text).toContain("Prompts where a competitor is named more often than Acme:\n1. Lost one.\n2. Lost two.");
    expect(mail.text).toContain("Pages cited where a competitor is named and Acme is not:\n1. Target one.");
  });

  it("the HTML copy escapes what it quotes and links the monitor's page", () => {
    const { html } = digestMail(base);
    expect(html).toContain("CRM &lt;visibility&gt; &amp; co");
    expect(html).not.toContain("<visibility>");
    expect(html).toContain(`<a href="${base.monitorUrl}">${base.monitorUrl}</a>`);
  });
});
