// The visibility analysis (lib/visibility, method visibility-v1) over a hand-built fixture whose
// every figure is worked out below by hand: prompt and search-query echoes, an absence sentence,
// aliases, overlapping names, an ordinary-word brand matched only in its case, numbered and
// bulleted lists, emoji, Japanese text and decomposed (NFD) input.
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "@/lib/stats";
import { NFC_STABLE } from "@/lib/visibility/nfc";
import { analyseText, buildMatcher, computeVisibilityAnalysis, entitiesFromContext, normalizeEntity, unknownContextKeys, type Entity, type VisibilityRunInput } from "@/lib/visibility";

const run = (run_id: string, engine: string, country: string | null, prompt: string, answer: string | null, search_queries: string[], cited_urls: string[], extra: Partial<VisibilityRunInput> = {}): VisibilityRunInput => ({
  run_id, engine, country, prompt, status: "completed", kind: "prompt", answer, search_queries, cited_urls, ...extra,
});

const ENTITIES: Entity[] = [
  { name: "HubSpot", role: "brand", aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor", aliases: [], domains: ["pipedrive.com"], case_sensitive: false },
  // An ordinary word: "monday" in lower case is a day, not the brand.
  { name: "Monday", role: "competitor", aliases: ["Monday CRM", "monday.com"], domains: ["monday.com"], case_sensitive: true },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"], case_sensitive: false },
];

// Run A (chatgpt, US). Sentences (words): s0 the opener quoting the prompt (10: Searches for
// pipedrive vs hubspot mostly turn up review sites), s1 item 1 (6: HubSpot CRM is free to start),
// s2 item 2 (5: Pipedrive costs 14 per seat), s3 (9: Zoho is cheaper and on monday the team met).
// N = 4, 30 words. "pipedrive" and "hubspot" in s0 quote the prompt: not counted (prompt_echo).
// Counted: HubSpot (alias HubSpot CRM, the longest at its place) in s1, Pipedrive s2, Zoho CRM
// (alias Zoho) s3; "monday" is not Monday (case_sensitive). Positions 1, 2, 3; list ranks 1, 2, -.
// Prominence: HubSpot 6 e^(-1/4) / 30 = 0.155760; Pipedrive 5 e^(-2/4) / 30 = 0.101088;
// Zoho 9 e^(-3/4) / 30 = 0.141710. Cited: www.hubspot.com (HubSpot), blog.pipedrive.com (Pipedrive).
const A = 'Searches for "pipedrive vs hubspot" mostly turn up review sites.\n1. **HubSpot CRM** is free to start.\n2. Pipedrive costs $14 per seat.\nZoho is cheaper, and on monday the team met.';

// Run B (claude, DE). s0 (7: For startups Monday CRM and Pipedrive lead; the emoji is no word),
// s1 bullet 1 (3), s2 bullet 2 (3), s3 (7: I couldn't find any information about HubSpot), s4
// Japanese (10: 日 本 で は, HubSpot, が, 人 気 で す, one word per Han or kana character).
// N = 5, 30 words. s3 is an absence sentence: its HubSpot is not counted; the HubSpot in s4 is.
// Order of first counted mentions: Monday (alias Monday CRM) 1, Pipedrive 2, Zoho CRM 3, HubSpot 4.
// List ranks: Monday -, Pipedrive - (first named in s0, before the list), Zoho CRM 2, HubSpot -.
// Prominence: s0 names two (k = 2): 7 e^0 / 2 = 3.5 each; s1 Pipedrive 3 e^(-1/5) = 2.456192;
// s2 Zoho 3 e^(-2/5) = 2.010960; s4 HubSpot 10 e^(-4/5) = 4.493290. Over 30: Monday 0.116667,
// Pipedrive (3.5 + 2.456192) / 30 = 0.198540, Zoho 0.067032, HubSpot 0.149776. Cited: zoho.com.
const B = "For startups, Monday CRM and Pipedrive lead 🚀.\n- Pipedrive: simple pipelines.\n- Zoho CRM: cheap.\nI couldn't find any information about HubSpot.\n日本では「HubSpot」が人気です。";

// Run C (gemini, US), stored decomposed (NFD: é, ü, ü are letter + combining mark). In NFC: s0 (8,
// "Café-Listen" one word) quotes the run's search query "hubspot crm preise": its HubSpot CRM is a
// prompt_echo; s1 (7) Pipedrive; s2 (6) HubSpot CRM and Zoho. N = 3, 21 words. Positions: Pipedrive
// 1, HubSpot 2, Zoho 3. Prominence: Pipedrive 7 e^(-1/3) / 21 = 0.238844; s2 names two:
// 6 e^(-2/3) / 2 / 21 = 0.073345 each. Cited: nothubspot.com, which is not hubspot.com.
const C = "Die Suche nach „hubspot crm preise“ ergab Café-Listen.\nFür Teams in München ist Pipedrive gut.\nHubSpot CRM ist teurer als Zoho.".normalize("NFD");

// Run D (chatgpt, no country), the same prompt as A: s0 (8) echoes the prompt, s1 (9: monday.com
// is two words) names Monday by its alias monday.com. N = 2, 17 words. Monday position 1,
// prominence 9 e^(-1/2) / 17 = 0.321104. Cited: monday.com (Monday) and knowledge.hubspot.com
// (HubSpot, which this answer does not name).
const D = 'Searches for "pipedrive vs hubspot" show mixed opinions.\nMany teams plan their week on monday.com instead.';

const RUNS: VisibilityRunInput[] = [
  run("dr_A", "chatgpt", "US", "pipedrive vs hubspot", A, ["pipedrive vs hubspot pricing"], ["https://www.hubspot.com/pricing", "https://blog.pipedrive.com/x"]),
  run("dr_B", "claude", "DE", "best crm for startups", B, ["best crm startups 2026"], ["https://zoho.com/crm"]),
  run("dr_C", "gemini", "US", "crm für kleine teams [[sim:answer:eHh4]]", C, ["hubspot crm preise"], ["https://nothubspot.com/x"]),
  run("dr_D", "chatgpt", null, "pipedrive vs hubspot", D, [], ["https://monday.com/crm", "https://knowledge.hubspot.com/a"]),
  // Excluded, each for its reason.
  run("dr_A", "chatgpt", "US", "pipedrive vs hubspot", A, [], []),
  run("dr_E", "claude", "US", "best crm for startups", null, [], [], { status: "failed" }),
  run("dr_F", "claude", "US", "best crm for startups", "  \n", [], []),
  run("dr_G", "claude", "US", "audit", "HubSpot", [], [], { kind: "audit" }),
  run("dr_H", "gemini", "US", "best crm for startups", null, [], [], { status: "queued" }),
];

const analysis = computeVisibilityAnalysis(RUNS, { entities: ENTITIES });
const row = (name: string) => analysis.rows.find((r) => r.name === name)!;
const wilson = (x: number, n: number) => wilsonInterval(x, n).map((v) => Math.round(v * 1e4) / 1e4);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

describe("computeVisibilityAnalysis: the fixture, figure by figure", () => {
  it("counts the runs it can and lists the others with their reasons", () => {
    expect(analysis.method).toBe("visibility-v2");
    expect(analysis.run_ids).toEqual(["dr_A", "dr_B", "dr_C", "dr_D", "dr_E", "dr_F", "dr_G", "dr_H"]);
    expect(analysis.excluded_runs).toEqual([
      { run_id: "dr_A", reason: "duplicate" },
      { run_id: "dr_E", reason: "failed" },
      { run_id: "dr_F", reason: "no_answer" },
      { run_id: "dr_G", reason: "not_a_prompt_run" },
      { run_id: "dr_H", reason: "unfinished" },
    ]);
    // 18 mentions: A 5, B 6, C 4, D 3; not counted: 5 echoes (A 2, C 1, D 2) and 1 absence (B).
    expect(analysis.totals).toEqual({ runs: 4, prompts: 3, engines: 3, mentions: 18, mentions_not_counted: { prompt_echo: 5, absence: 1, link: 0 } });
  });

  it("HubSpot: named in A (1st), B (4th, after an absence sentence) and C (2nd); cited in A and D", () => {
    const h = row("HubSpot");
    expect(h).toMatchObject({
      role: "brand",
      runs: 4,
      runs_mentioning: 3,
      visibility: 0.75,
      visibility_interval: wilson(3, 4),
      // Basis: runs mentioning each entity, summed: 3 + 3 + 2 + 3 = 11.
      share_of_voice: r4(3 / 11),
      share_of_voice_basis: "runs mentioning any tracked entity",
      share_of_voice_n: 11,
      // (1 + 4 + 2) / 3.
      average_position: 2.3333,
      position_counts: { "1": 1, "2": 1, "3": 0, "4": 1 },
      runs_top1: 1,
      top1_rate: 0.25,
      top1_rate_interval: wilson(1, 4),
      runs_top3: 2,
      top3_rate: 0.5,
      top3_rate_interval: wilson(2, 4),
      // (0.155760 + 0.149776 + 0.073345 + 0) / 4.
      prominence: 0.0947,
      runs_citing: 2,
      cited_rate: 0.5,
      cited_rate_interval: wilson(2, 4),
      mentioned_and_cited: 1,
      mentioned_not_cited: 2,
      cited_not_mentioned: 1,
      mentions: 3,
      mentions_not_counted: { prompt_echo: 3, absence: 1, link: 0 },
    });
  });

  it("Pipedrive: named in A (2nd), B (2nd, twice) and C (1st); echoed in A and D", () => {
    expect(row("Pipedrive")).toMatchObject({
      runs_mentioning: 3,
      visibility: 0.75,
      share_of_voice: r4(3 / 11),
      // (2 + 2 + 1) / 3.
      average_position: 1.6667,
      position_counts: { "1": 1, "2": 2, "3": 0, "4": 0 },
      runs_top1: 1,
      top1_rate: 0.25,
      runs_top3: 3,
      top3_rate: 0.75,
      top3_rate_interval: wilson(3, 4),
      // (0.101088 + 0.198540 + 0.238844 + 0) / 4.
      prominence: 0.1346,
      runs_citing: 1,
      cited_rate: 0.25,
      mentioned_and_cited: 1,
      mentioned_not_cited: 2,
      cited_not_mentioned: 0,
      mentions: 4,
      mentions_not_counted: { prompt_echo: 2, absence: 0, link: 0 },
    });
  });

  it("Monday: only as written (Monday CRM in B, monday.com in D), first both times", () => {
    expect(row("Monday")).toMatchObject({
      runs_mentioning: 2,
      visibility: 0.5,
      visibility_interval: wilson(2, 4),
      share_of_voice: r4(2 / 11),
      average_position: 1,
      average_position_interval: [1, 1],
      runs_top1: 2,
      top1_rate: 0.5,
      runs_top3: 2,
      // (0.116667 + 0.321104) / 4.
      prominence: 0.1094,
      runs_citing: 1,
      mentioned_and_cited: 1,
      mentioned_not_cited: 1,
      cited_not_mentioned: 0,
      mentions: 2,
      mentions_not_counted: { prompt_echo: 0, absence: 0, link: 0 },
    });
  });

  it("Zoho CRM: third in A, B and C (as Zoho, Zoho CRM, Zoho)", () => {
    expect(row("Zoho CRM")).toMatchObject({
      runs_mentioning: 3,
      average_position: 3,
      average_position_interval: [3, 3],
      runs_top1: 0,
      top1_rate: 0,
      top1_rate_interval: wilson(0, 4),
      runs_top3: 3,
      top3_rate: 0.75,
      // (0.141710 + 0.067032 + 0.073345 + 0) / 4.
      prominence: 0.0705,
      runs_citing: 1,
      mentioned_and_cited: 1,
      mentioned_not_cited: 2,
      mentions: 3,
    });
  });

  it("gives each mean Student's t interval, clipped to places 1 to 4 and prominences 0 to 1", () => {
    // t(0.975, 2) = 4.3027, t(0.975, 3) = 3.1824; mean ± t · s / √n by hand.
    // HubSpot places 1, 4, 2: s = 1.5275, 2.3333 ± 4.3027 · 0.8819 = [-1.46, 6.13]: the whole of 1 to 4.
    expect(row("HubSpot").average_position_interval).toEqual([1, 4]);
    // Pipedrive places 2, 2, 1: s = 0.5774, 1.6667 ± 4.3027 · 0.3333 = [0.2324, 3.1009] -> [1, 3.1009].
    expect(row("Pipedrive").average_position_interval).toEqual([1, 3.1009]);
    // Zoho CRM third three times, Monday first twice: no spread, the mean alone.
    expect(row("Zoho CRM").average_position_interval).toEqual([3, 3]);
    expect(row("Monday").average_position_interval).toEqual([1, 1]);
    // Prominences over the 4 runs, 0 where not named: HubSpot 0.155760, 0.149776, 0.073345, 0:
    // s = 0.073453, 0.09472 ± 3.1824 · 0.036726 = [-0.0222, 0.2116] -> [0, 0.2116]; Pipedrive
    // 0.101088, 0.198540, 0.238844, 0: 0.134618 ± 3.1824 · 0.053382 -> [0, 0.3045].
    expect(row("HubSpot").prominence_interval).toEqual([0, 0.2116]);
    expect(row("Pipedrive").prominence_interval).toEqual([0, 0.3045]);
    // By engine: HubSpot on claude is one run (B, place 4): one value says nothing of the spread.
    expect(row("HubSpot").by_engine.find((g) => g.engine === "claude")).toMatchObject({ average_position: 4, average_position_interval: [1, 4], prominence_interval: [0, 1] });
    // Never named in a group (Monday on gemini, run C): no position, no interval.
    expect(row("Monday").by_engine.find((g) => g.engine === "gemini")).toMatchObject({ runs_mentioning: 0, average_position: null, average_position_interval: null });
    expect(analysis.interval_method).toBe("t");
  });

  it("splits the figures by engine, prompt and country", () => {
    const h = row("HubSpot");
    // chatgpt: A and D; claude: B; gemini: C (engines by name).
    expect(h.by_engine.map((g) => [g.engine, g.runs, g.runs_mentioning, g.average_position, g.prominence, g.runs_citing])).toEqual([
      ["chatgpt", 2, 1, 1, r4(0.15576 / 2), 2],
      ["claude", 1, 1, 4, 0.1498, 0],
      ["gemini", 1, 1, 2, 0.0733, 0],
    ]);
    // Share of voice within chatgpt: HubSpot 1, Pipedrive 1, Monday 1, Zoho 1 -> 1/4 each.
    expect(analysis.rows.map((r) => r.by_engine[0]!.share_of_voice)).toEqual([0.25, 0.25, 0.25, 0.25]);
    // Prompts in the order first seen.
    expect(row("Pipedrive").by_prompt.map((g) => [g.prompt, g.runs, g.runs_mentioning, g.mentions_not_counted.prompt_echo])).toEqual([
      ["pipedrive vs hubspot", 2, 1, 2],
      ["best crm for startups", 1, 1, 0],
      ["crm für kleine teams [[sim:answer:eHh4]]", 1, 1, 0],
    ]);
    // Countries by code, runs without one last: US (A, C), DE (B), none (D).
    expect(row("Monday").by_country.map((g) => [g.country, g.runs, g.runs_mentioning, g.visibility, g.prominence])).toEqual([
      ["DE", 1, 1, 1, 0.1167],
      ["US", 2, 0, 0, 0],
      [null, 1, 1, 1, 0.3211],
    ]);
    expect(row("Monday").by_country[1]!.average_position).toBeNull();
    expect(row("Monday").by_country[1]!.average_position_interval).toBeNull();
    expect(row("Monday").by_country[1]!.prominence_interval).toEqual([0, 0]);
  });

  it("lists every mention with offsets into the answer as stored", () => {
    const rows = analysis.mentions.map((m) => [m.run_id, m.entity, m.alias, m.list_rank, m.counted, m.reason]);
    expect(rows).toEqual([
      ["dr_A", "Pipedrive", "Pipedrive", null, false, "prompt_echo"],
      ["dr_A", "HubSpot", "HubSpot", null, false, "prompt_echo"],
      ["dr_A", "HubSpot", "HubSpot CRM", 1, true, null],
      ["dr_A", "Pipedrive", "Pipedrive", 2, true, null],
      ["dr_A", "Zoho CRM", "Zoho", null, true, null],
      ["dr_B", "Monday", "Monday CRM", null, true, null],
      ["dr_B", "Pipedrive", "Pipedrive", null, true, null],
      ["dr_B", "Pipedrive", "Pipedrive", 1, true, null],
      ["dr_B", "Zoho CRM", "Zoho CRM", 2, true, null],
      ["dr_B", "HubSpot", "HubSpot", null, false, "absence"],
      ["dr_B", "HubSpot", "HubSpot", null, true, null],
      ["dr_C", "HubSpot", "HubSpot CRM", null, false, "prompt_echo"],
      ["dr_C", "Pipedrive", "Pipedrive", null, true, null],
      ["dr_C", "HubSpot", "HubSpot CRM", null, true, null],
      ["dr_C", "Zoho CRM", "Zoho", null, true, null],
      ["dr_D", "Pipedrive", "Pipedrive", null, false, "prompt_echo"],
      ["dr_D", "HubSpot", "HubSpot", null, false, "prompt_echo"],
      ["dr_D", "Monday", "monday.com", null, true, null],
    ]);
    const answers: Record<string, string> = { dr_A: A, dr_B: B, dr_C: C, dr_D: D };
    const sliced = analysis.mentions.map((m) => answers[m.run_id]!.slice(m.start, m.end));
    expect(sliced).toEqual([
      "pipedrive", "hubspot", "HubSpot CRM", "Pipedrive", "Zoho",
      "Monday CRM", "Pipedrive", "Pipedrive", "Zoho CRM", "HubSpot", "HubSpot",
      "hubspot crm", "Pipedrive", "HubSpot CRM", "Zoho",
      "pipedrive", "hubspot", "monday.com",
    ]);
    // UTF-16 offsets: after 🚀 (two units) and Japanese text; in C, offsets in the NFD text are
    // three units later than in NFC (é, ü, ü each one more unit decomposed).
    const inB = analysis.mentions.filter((m) => m.run_id === "dr_B");
    expect(inB.at(-1)!.start).toBe(B.indexOf("「HubSpot」") + 1);
    const cPipedrive = analysis.mentions.find((m) => m.run_id === "dr_C" && m.entity === "Pipedrive")!;
    expect(cPipedrive.start).toBe(C.normalize("NFC").indexOf("Pipedrive") + 3);
    expect(cPipedrive.sentence).toBe("Für Teams in München ist Pipedrive gut.");
    expect(inB[4]!.sentence).toBe("I couldn't find any information about HubSpot.");
    expect(inB.at(-1)!.sentence).toBe("日本では「HubSpot」が人気です。");
  });
});

describe("matching visibility-v1", () => {
  const find = (entities: Entity[], raw: string) => {
    const text = raw.normalize("NFC");
    return buildMatcher(entities.map(normalizeEntity)).find(text).map((m) => [m.entity, m.alias, text.slice(m.start, m.end)]);
  };
  const e = (name: string, aliases: string[] = [], case_sensitive = false): Entity => ({ name, role: "competitor", aliases, domains: [], case_sensitive });

  it("finds nothing by name for entities whose names have no letter or digit, and their domains still count", () => {
    expect(find([e("🭏"), e("★", ["—"], true)], "🭏 and ★ — everywhere.")).toEqual([]);
    const analysis = computeVisibilityAnalysis(
      [{ run_id: "dr_1", engine: "chatgpt", country: null, prompt: "crm", status: "completed", kind: "prompt", answer: "See pipedrive.com for prices.", search_queries: [], cited_urls: ["https://www.pipedrive.com/en/pricing"] }],
      { entities: [{ name: "🭏", role: "brand", aliases: [], domains: ["pipedrive.com"], case_sensitive: false }] },
    );
    expect(analysis.rows[0]).toMatchObject({ name: "🭏", runs: 1, runs_mentioning: 1, runs_citing: 1, mentions: 1 });
  });

  it("matches whole words only, in any case, Unicode-aware", () => {
    expect(find([e("Acme")], "Acme, ACME's and acme! Not Acmeville, acme_x, xacme or Acme2.")).toEqual([
      [0, "Acme", "Acme"],
      [0, "Acme", "ACME"],
      [0, "Acme", "acme"],
    ]);
    expect(find([e("Café")], "CAFÉ and café, not cafés.")).toEqual([
      [0, "Café", "CAFÉ"],
      [0, "Café", "café"],
    ]);
    // Japanese runs words together: a name touching kana is not a whole word; in 「」 it is.
    expect(find([e("HubSpot")], "日本ではHubSpotが人気。「HubSpot」も。")).toEqual([[0, "HubSpot", "HubSpot"]]);
    expect(find([e("Straße")], "STRASSE, straße")).toEqual([[0, "Straße", "straße"]]);
    // Decomposed "Café" (e and a combining acute) is not "Cafe": NFC makes it é.
    expect(find([e("Cafe")], "Cafe\u0301 is not Cafe.")).toEqual([[0, "Cafe", "Cafe"]]);
  });

  it("gives overlapping matches to the longest, and a shared name to the first entity", () => {
    expect(find([e("HubSpot"), e("HubSpot CRM")], "HubSpot CRM beats HubSpot.")).toEqual([
      [1, "HubSpot CRM", "HubSpot CRM"],
      [0, "HubSpot", "HubSpot"],
    ]);
    // "CRM Suite Pro" (13) is longer than "Zoho CRM" (8) though it starts later.
    expect(find([e("Zoho CRM"), e("CRM Suite Pro")], "Try Zoho CRM Suite Pro today.")).toEqual([[1, "CRM Suite Pro", "CRM Suite Pro"]]);
    expect(find([e("Acme"), e("Acme Corp", ["Acme"])], "Acme")).toEqual([[0, "Acme", "Acme"]]);
  });

  it("matches a case-sensitive brand only as written, next to case-folded ones", () => {
    expect(find([e("Notion", [], true), e("Slack")], "Notion and SLACK; take notion of it, NOTION.")).toEqual([
      [0, "Notion", "Notion"],
      [1, "Slack", "SLACK"],
    ]);
  });

  it("lets a space in a name match any spaces on one line, not a line break", () => {
    expect(find([e("Zoho CRM")], "Zoho  CRM, Zoho\u00a0CRM and Zoho\nCRM")).toEqual([
      [0, "Zoho CRM", "Zoho  CRM"],
      [0, "Zoho CRM", "Zoho\u00a0CRM"],
    ]);
  });
});

describe("NFC", () => {
  it("leaves alone only characters that NFC never changes or composes", () => {
    const stable = new RegExp(`^[${NFC_STABLE}]$`, "u");
    // Last characters of canonical decompositions into several characters: what may compose with the character before.
    const seconds = new Set<string>();
    const changed: string[] = [];
    for (let cp = 0; cp <= 0x2ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const nfd = ch.normalize("NFD");
      if ([...nfd].length > 1) seconds.add([...nfd].at(-1)!);
      if (stable.test(ch) && (ch.normalize("NFC") !== ch || /\p{M}/u.test(ch))) changed.push(cp.toString(16));
    }
    expect(changed).toEqual([]);
    expect([...seconds].filter((ch) => stable.test(ch))).toEqual([]);
  }, 30_000);
});

describe("sentences and lists", () => {
  it("splits sentences at terminators, not after abbreviations or inside domains and numbers", () => {
    const s = analyseText("Acme Inc. costs 3.5 dollars, e.g. on acme.com. Really? Yes!\nNext line");
    const text = "Acme Inc. costs 3.5 dollars, e.g. on acme.com. Really? Yes!\nNext line";
    expect(Array.from(s.starts, (start, i) => text.slice(start, s.ends[i]))).toEqual(["Acme Inc. costs 3.5 dollars, e.g. on acme.com.", "Really?", "Yes!", "Next line"]);
    expect([...s.words]).toEqual([11, 1, 1, 2]);
  });

  it("reads an abbreviation or a single letter in any case, and a longer word or one outside ASCII as ending its sentence", () => {
    const text = "Acme INC. offers CRM, E.G. for teams. Ask Dr. Ng or J. Doe. Café. Next. Ünï. Then, über. Done";
    const s = analyseText(text);
    expect(Array.from(s.starts, (start, i) => text.slice(start, s.ends[i]))).toEqual(["Acme INC. offers CRM, E.G. for teams.", "Ask Dr. Ng or J. Doe.", "Café.", "Next.", "Ünï.", "Then, über.", "Done"]);
    expect([...s.words]).toEqual([8, 6, 1, 1, 1, 2, 1]);
  });

  it("counts words across runs of spaces, tabs, punctuation and letters outside ASCII alike", () => {
    const text = "HubSpot   and\tZoho —  both  fine; naïve café-owners' picks (2024).";
    const s = analyseText(text);
    expect(s.count).toBe(1);
    expect([...s.words]).toEqual([9]);
  });

  it("numbers list items by their place, keeps sub-items and continuations with their item", () => {
    const text = "Intro.\n\n1. First\n   - a detail\n   more on it\n\n3. Second (markdown renumbers)\n* Another list\n* Its second\nAfter.";
    const s = analyseText(text);
    expect(Array.from(s.starts, (start, i) => [text.slice(start, s.ends[i]), s.listRanks[i]])).toEqual([
      ["Intro.", 0],
      ["First", 1],
      ["a detail", 1],
      ["more on it", 1],
      ["Second (markdown renumbers)", 2],
      ["Another list", 1],
      ["Its second", 2],
      ["After.", 0],
    ]);
  });
});

describe("entities from the project context", () => {
  it("gives brands the project's domains and competitors theirs, with aliases", () => {
    const context = {
      primary_domain: "acme.com",
      domains: ["acme.io"],
      brands: ["Acme", " Acme Cloud "],
      competitors: ["Globex", "Acme"],
      aliases: { Acme: ["ACME Corp", "acme", "  "], Globex: ["Globex Corporation"] },
      competitor_domains: { Globex: ["globex.com", "GLOBEX.com."] },
    };
    expect(entitiesFromContext(context)).toEqual([
      { name: "Acme", role: "brand", aliases: ["ACME Corp"], domains: ["acme.com", "acme.io"], case_sensitive: false },
      { name: "Acme Cloud", role: "brand", aliases: [], domains: ["acme.com", "acme.io"], case_sensitive: false },
      { name: "Globex", role: "competitor", aliases: ["Globex Corporation"], domains: ["globex.com"], case_sensitive: false },
    ]);
    expect(unknownContextKeys({ ...context, aliases: { Initech: ["x"] }, competitor_domains: { "Acme Cloud": ["acme.com"] } })).toEqual({ aliases: ["Initech"], competitor_domains: ["Acme Cloud"] });
  });
});
