// The two guards of visibility-v1: a mention is not counted when it lies inside a quotation of the
// prompt or of a search query the run issued (prompt_echo), or when its sentence says the engine
// found or knows nothing about it (absence). Every absence pattern has its example and a near miss.
import { describe, expect, it } from "vitest";
import { ABSENCE_PATTERNS, MENTION_MARK, absencePatternOf, isAbsence } from "@/lib/visibility/absence";
import { isPromptEcho, quotable } from "@/lib/visibility/echo";

/** Whether the mention of `name` (its first occurrence) in `text` is an echo of the prompt or queries. */
function echo(text: string, name: string, prompt: string, queries: string[] = []): boolean {
  const start = text.indexOf(name);
  if (start < 0) throw new Error(`${name} not in ${text}`);
  const quotables = [quotable(prompt, true), ...queries.map((q) => quotable(q, false))].filter((q) => q !== null);
  return isPromptEcho(text, start, start + name.length, quotables);
}

describe("prompt_echo", () => {
  it("catches the whole prompt repeated, quoted or not, in any case", () => {
    expect(echo('Searches for "pipedrive vs hubspot" mostly turn up reviews.', "hubspot", "Pipedrive vs HubSpot?")).toBe(true);
    expect(echo("When comparing Pipedrive vs  HubSpot, teams look at price.", "Pipedrive", "pipedrive vs hubspot")).toBe(true);
    expect(echo("HubSpot is a CRM. Pipedrive vs HubSpot is a common question.", "HubSpot", "pipedrive vs hubspot")).toBe(false);
  });

  it("ignores the simulator's directives in the prompt", () => {
    expect(echo('You asked "best crm like hubspot".', "hubspot", "best crm like hubspot [[sim:answer:QUJD]]")).toBe(true);
    expect(quotable("[[sim:answer:QUJD]]", true)).toBeNull();
  });

  it("catches a search query the run issued, and a quoted run of its words", () => {
    expect(echo("I searched for hubspot crm pricing 2026 and found three pages.", "hubspot crm", "which crm?", ["hubspot crm pricing 2026"])).toBe(true);
    // The simulator quotes at most the first 12 words of a long prompt: a quoted run of 2+ words counts.
    expect(echo('Searches for "is hubspot better than pipedrive for a team of" turn up...', "hubspot", "Is HubSpot better than Pipedrive for a team of twelve people in Berlin who sell software?")).toBe(true);
  });

  it("does not take a one-word prompt or a quoted single word for an echo unless it is the whole text quoted", () => {
    expect(echo("HubSpot offers a free CRM.", "HubSpot", "hubspot")).toBe(false);
    expect(echo('You asked about "HubSpot".', "HubSpot", "hubspot")).toBe(true);
    expect(echo('Its plan is called "HubSpot Starter".', "HubSpot", "is hubspot worth it")).toBe(false);
  });

  it("needs the mention inside the quotation, not beside it", () => {
    expect(echo('"pipedrive vs hubspot" is a common search; HubSpot wins on price.', "HubSpot", "pipedrive vs hubspot")).toBe(false);
    expect(echo("Acme's \"pipedrive vs hubspot\" guide ranks HubSpot first.", "HubSpot", "pipedrive vs hubspot")).toBe(false);
  });
});

describe("absence", () => {
  const X = MENTION_MARK;
  const judge = (sentence: string, name = "Acme") => {
    const start = sentence.indexOf(name);
    return isAbsence(sentence, start, start + name.length);
  };

  it.each(ABSENCE_PATTERNS.map((p) => [p.id, p.example, p.notAbsence]))("%s: %s", (id, example, notAbsence) => {
    const a = example.indexOf("X");
    expect(absencePatternOf(example.replace("X", "Acme"), a, a + 4)).toBe(id);
    const b = notAbsence.indexOf("X");
    expect(b).toBeGreaterThanOrEqual(0);
    expect(isAbsence(notAbsence.replace("X", "Acme"), b, b + 4)).toBe(false);
    expect(example.includes(X)).toBe(false);
  });

  it("catches the sentences decisions.md names, curly apostrophes included", () => {
    expect(judge("I couldn’t find any information about Acme.")).toBe(true);
    expect(judge("Acme does not appear to be a known CRM vendor.")).toBe(true);
    expect(judge("There is no reliable information on Acme.")).toBe(true);
    expect(judge("I was unable to find reliable details on Globex or Acme.")).toBe(true);
  });

  it("counts ordinary negative sentences about the brand", () => {
    expect(judge("Acme does not offer a free plan.")).toBe(false);
    expect(judge("Acme doesn't integrate with Slack, and its support is slow.")).toBe(false);
    expect(judge("I couldn't find a cheaper option than Acme.")).toBe(false);
    expect(judge("I couldn't find any information about Acme's pricing.")).toBe(false);
    expect(judge("Acme is not known for great support.")).toBe(false);
    expect(judge("No other tool matches Acme on price.")).toBe(false);
  });

  it("finds every name of a list absent", () => {
    const sentence = "I couldn't find any information about Acme, Globex or Initech.";
    expect(judge(sentence, "Acme")).toBe(true);
    expect(judge(sentence, "Globex")).toBe(true);
    expect(judge(sentence, "Initech")).toBe(true);
  });

  it("judges each mention of a sentence on its own", () => {
    const sentence = "Unlike Globex, I couldn't find any information about Acme.";
    expect(judge(sentence, "Globex")).toBe(false);
    expect(judge(sentence, "Acme")).toBe(true);
  });
});
