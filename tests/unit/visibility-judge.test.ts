// The judge's checks and figures (lib/visibility/judge.ts), on hand-made replies: what is kept,
// what is rejected and counted, and the figures made of the verdicts.
import { describe, expect, it } from "vitest";
import { JUDGE_PROMPT_SHA, JUDGE_PROMPT_TEMPLATE, UnusableJudgement, agreementFigures, discoveredFigures, judgePrompt, occursAsWord, sentimentFigures, verifyJudgement, type JudgedRun } from "@/lib/visibility/judge";
import type { Entity } from "@/lib/visibility";

const entity = (name: string, aliases: string[] = []): Entity => ({ name, role: "competitor", aliases, domains: [], case_sensitive: false });
const ENTITIES = [entity("Acme CRM", ["Acme"]), entity("Café Pro")];
const ANSWER = "Acme is great.\nCafé Pro is slow. Zoho One and monday.com exist.";
const check = (value: unknown, options: { sentiment?: boolean; discover?: boolean } = {}) =>
  verifyJudgement(value, { answer: ANSWER, prompt: "best crm", entities: ENTITIES, sentiment: options.sentiment ?? true, discover: options.discover ?? true });
const reply = (entities: unknown[], discovered: unknown[] = []) => ({ entities, discovered });

describe("verifyJudgement", () => {
  it("keeps a quote found verbatim, also when the reply is in another Unicode form (NFC)", () => {
    const v = check(reply([{ name: "café pro", mentioned: true, sentiment: "negative", quote: "Café Pro is slow.".normalize("NFD") }]));
    expect(v.entities[1]).toEqual({ mentioned: true, sentiment: "negative", quote: "Café Pro is slow." });
    expect(v.entities[0]).toEqual({ mentioned: false, sentiment: null, quote: null });
    expect(v.quotes_rejected).toBe(0);
  });

  it("rejects and counts a quote not in the answer, a blank one, and one in other case or spacing", () => {
    const v = check(
      reply([
        { name: "Acme CRM", mentioned: true, sentiment: "positive", quote: "acme is great." },
        { name: "Café Pro", mentioned: true, sentiment: "negative", quote: "  " },
      ]),
    );
    expect(v.entities).toEqual([
      { mentioned: true, sentiment: null, quote: null },
      { mentioned: true, sentiment: null, quote: null },
    ]);
    expect(v.quotes_rejected).toBe(2);
  });

  it("keeps discovered names that occur as whole words, drops invented ones and the tracked entities' names", () => {
    const v = check(reply([{ name: "Acme CRM", mentioned: true, sentiment: "positive", quote: "Acme is great." }], ["Zoho One", "MONDAY.COM", "zoho one", "Acme", "Zoh", "Pipedrive", " "]));
    expect(v.discovered).toEqual(["Zoho One", "MONDAY.COM"]);
    // "Zoh" is inside a word; Pipedrive is not there at all. Repeats and tracked names are not counted as dropped.
    expect(v.names_dropped).toBe(2);
    expect(check(reply([{ name: "Acme CRM", mentioned: false, sentiment: "neutral", quote: "" }], ["Zoho One"]), { discover: false }).discovered).toEqual([]);
  });

  it("without sentiment, keeps only whether each entity is mentioned", () => {
    const v = check(reply([{ name: "Acme CRM", mentioned: true, sentiment: "positive", quote: "not in it" }]), { sentiment: false });
    expect(v.entities[0]).toEqual({ mentioned: true, sentiment: null, quote: null });
    expect(v.quotes_rejected).toBe(0);
  });

  it("calls unusable what it cannot read", () => {
    expect(() => check({ entities: "no" })).toThrow(UnusableJudgement);
    expect(() => check(reply([{ name: "Acme CRM", mentioned: true, sentiment: "glowing", quote: "Acme is great." }]))).toThrow(/glowing/);
    expect(() => check(reply([{ name: "Someone else", mentioned: true, sentiment: "positive", quote: "x" }]))).toThrow(/none of the tracked/);
    expect(() => check(reply([], [3]))).toThrow(UnusableJudgement);
  });

  it("matches whole words only, where a reader sees the name: not in a URL or a link label citing a page", () => {
    expect(occursAsWord("We use Zoho_One daily", "Zoho")).toBe(false);
    expect(occursAsWord("We use (Zoho) daily", "zoho")).toBe(true);
    expect(occursAsWord("Compare plans ([zoho.com](https://www.zoho.com/crm/)) or mail sales@zoho.com", "zoho")).toBe(false);
    expect(occursAsWord("See [Zoho's pricing for small teams](https://www.zoho.com/crm/)", "Zoho")).toBe(true);
  });
});

describe("verifyJudgement: the quote checks of visibility-v2", () => {
  const PIPEDRIVE = [entity("Pipedrive"), entity("HubSpot")];
  const answer =
    'You asked about "pipedrive vs hubspot". Pipedrive is simpler to learn for new reps ([pipedrive.com](https://www.pipedrive.com/?utm_source=openai)).\n' +
    "HubSpot costs more. Read [HubSpot pricing explained for startups](https://blog.hubspot.com/pricing) before you buy.";
  const judge = (quotes: [string, string]) =>
    verifyJudgement(
      reply([
        { name: "Pipedrive", mentioned: true, sentiment: "positive", quote: quotes[0] },
        { name: "HubSpot", mentioned: true, sentiment: "negative", quote: quotes[1] },
      ]),
      { answer, prompt: "pipedrive vs hubspot", entities: PIPEDRIVE, sentiment: true, discover: false },
    );

  it("shows a kept quote as its whole sentence, each link as its label", () => {
    const v = judge(["is simpler to learn", "HubSpot costs more."]);
    expect(v.entities.map((e) => e.quote)).toEqual(["Pipedrive is simpler to learn for new reps (pipedrive.com).", "HubSpot costs more."]);
    expect(v.quotes_rejected).toBe(0);
  });

  it("rejects a quote of fewer than three words of prose, one inside a link's label, and one cutting through a link", () => {
    expect(judge(["Pipedrive is", "HubSpot costs"]).quotes_rejected).toBe(2);
    expect(judge(["pipedrive.com", "HubSpot pricing explained for startups"]).quotes_rejected).toBe(2);
    expect(judge(["new reps ([pipedrive.com](https://www.pipe", "explained for startups](https://blog.hubspot.com/pricing) before you buy"]).quotes_rejected).toBe(2);
  });

  it("rejects a prompt-echo sentence as a quote", () => {
    const v = judge(['You asked about "pipedrive vs hubspot".', "HubSpot costs more."]);
    expect(v.entities[0]).toEqual({ mentioned: true, sentiment: null, quote: null });
    expect(v.quotes_rejected).toBe(1);
  });
});

describe("the judge prompt", () => {
  it("fills the template whose SHA-256 is the provenance's, and says whether to discover", () => {
    expect(JUDGE_PROMPT_SHA).toMatch(/^[0-9a-f]{64}$/);
    const prompt = judgePrompt({ question: "best crm", answer: ANSWER, entities: ENTITIES, discover: false });
    expect(prompt).toContain("- Acme CRM (also written: Acme)\n- Café Pro");
    expect(prompt).toContain(`<<<ANSWER\n${ANSWER}\nANSWER>>>`);
    expect(prompt).toContain("Leave `discovered` empty.");
    expect(prompt).not.toContain("{{");
    expect(JUDGE_PROMPT_TEMPLATE).toContain("{{answer}}");
  });
});

describe("figures", () => {
  const run = (id: string, engine: string, entities: JudgedRun["verdict"]["entities"], rules: boolean[], discovered: string[] = []): JudgedRun => ({
    run_id: id, engine, verdict: { entities, discovered, quotes_rejected: 0, names_dropped: 0 }, rulesMentioned: rules,
  });
  const yes = (sentiment: "positive" | "neutral" | "negative") => ({ mentioned: true, sentiment, quote: "q" });
  const no = { mentioned: false, sentiment: null, quote: null };
  const runs = [
    run("r1", "chatgpt", [yes("positive"), no], [true, false], ["Zoho"]),
    run("r2", "chatgpt", [yes("negative"), yes("neutral")], [true, true], ["zoho", "Pipedrive"]),
    run("r3", "claude", [yes("positive"), no], [false, false]),
    run("r4", "claude", [{ mentioned: true, sentiment: null, quote: null }, no], [true, false]),
  ];

  it("counts sentiment per entity with its score and Wilson interval", () => {
    const [a, b] = sentimentFigures(runs, 2);
    expect(a).toMatchObject({ runs_judged: 4, positive: 2, neutral: 0, negative: 1, score: 0.6667, score_interval: [0.2077, 0.9385] });
    expect(b).toMatchObject({ positive: 0, neutral: 1, negative: 0, score: null, score_interval: [0, 1] });
    expect(a!.quotes.map((q) => q.run_id)).toEqual(["r1", "r2", "r3"]);
  });

  it("folds discovered names by case, first spelling kept on a tie, with visibility over the judged runs", () => {
    const d = discoveredFigures(runs);
    expect(d.map((x) => [x.name, x.aliases, x.runs_mentioning, x.visibility])).toEqual([["Zoho", ["zoho"], 2, 0.5], ["Pipedrive", [], 1, 0.25]]);
    expect(d[0]!.by_engine.map((g) => [g.engine, g.runs_mentioning, g.runs])).toEqual([["chatgpt", 2, 2], ["claude", 0, 2]]);
  });

  it("merges names that share a registrable domain or differ by punctuation or a trailing generic word, under the spelling most runs used", () => {
    const d = discoveredFigures([
      run("m1", "chatgpt", [], [], ["monday.com", "Acme Inc"]),
      run("m2", "chatgpt", [], [], ["monday CRM", "monday.com"]),
      run("m3", "claude", [], [], ["www.monday.com", "Acme"]),
      run("m4", "claude", [], [], ["Monday Sales CRM"]),
    ]);
    expect(d.map((x) => [x.name, x.aliases, x.runs_mentioning])).toEqual([
      ["monday.com", ["monday CRM", "www.monday.com"], 3],
      ["Acme Inc", ["Acme"], 2],
      ["Monday Sales CRM", [], 1],
    ]);
  });

  it("compares judge and rules per run and per pair, kappa by hand", () => {
    // Pairs (judge, rules): r1 (y,y)(n,n) r2 (y,y)(y,y) r3 (y,n)(n,n) r4 (y,y)(n,n): both 4, judge only 1, neither 3.
    // po = 7/8; judge yes 5/8, rules yes 4/8; pe = 5/8·4/8 + 3/8·4/8 = 1/2; kappa = (7/8 - 1/2) / (1/2) = 0.75.
    expect(agreementFigures(runs, 2)).toEqual({ runs: 4, agreeing: 3, pairs: 8, pairs_agreeing: 7, kappa: 0.75 });
    expect(agreementFigures([], 2)).toEqual({ runs: 0, agreeing: 0, pairs: 0, pairs_agreeing: 0, kappa: null });
  });
});

describe("the simulator's judge", () => {
  it("discovers brands as they are written, not ordinary words or links that spell a brand's name", async () => {
    const { simulatedJudgement } = await import("@/lib/engines/simulator/judge");
    // "On" is a brand of the simulator's catalogue and "on" a word; zoho.com is a link, Zoho CRM a name.
    const answer = "Teams rely on Acme for this; see zoho.com for pricing. Zoho CRM and Salesforce are the usual picks.";
    const prompt = judgePrompt({ question: "best crm", answer, entities: [entity("Acme")], discover: true });
    const { discovered } = simulatedJudgement(prompt, "seed", { unusable: false });
    expect(discovered).toContain("Zoho CRM");
    expect(discovered).toContain("Salesforce");
    expect(discovered).not.toContain("on");
    expect(discovered).not.toContain("zoho");
  });
});
