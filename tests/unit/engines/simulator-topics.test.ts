// What a newcomer sees first: simulated answers, sources and searches that fit the prompt, in
// English, the same for the same prompt and repeat and different across repeats; the multi-byte
// text and odd URLs only behind [[sim:unicode]].
import { describe, expect, it } from "vitest";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import { claudeContent, claudeMessage } from "@/lib/engines/simulator/anthropic";
import { geminiResponse, parseRedirectToken } from "@/lib/engines/simulator/gemini";
import { openaiResponse } from "@/lib/engines/simulator/openai";
import { rngFrom } from "@/lib/engines/simulator/rng";
import { catalogueOf, vendorHost } from "@/lib/engines/simulator/brands";
import { buildScenario, topicFor, type Scenario } from "@/lib/engines/simulator/scenario";
import { classify, hostOf, type DomainId } from "@/lib/engines/simulator/topics";
import { registeredDomain } from "@/lib/engines/url";
import { ENGINE_IDS, NORMALIZER_VERSION, type EngineEnvelope, type EngineId, type RedirectOutcome } from "@/lib/engines/types";

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/u;
const SEEDS = ENGINE_IDS.map((engine) => `geoscope:${engine}`);
// The wire formats this file renders scenarios through (the others: vendors.test.ts).
const MODEL_APIS = ["chatgpt", "claude", "gemini"] as const satisfies readonly EngineId[];
const REPEATS = [0, 1, 2, 3, 4, 5];

const answerOf = (s: Scenario) => s.sentences.map((x) => x.text).join(" ");
const hostsOf = (s: Scenario) => s.pages.map((p) => new URL(p.url).hostname);
// Besides its topic's sites, an answer may cite the site of a brand of its topic's catalogue.
const vendorsOf = (domain: DomainId) => catalogueOf(domain).map((b) => vendorHost(b.domains[0]!));

// The three prompts of the issue, with the sites a person would expect for each, spelled out.
const EXPECTED: Array<{ prompt: string; domain: DomainId; mentions: RegExp; hosts: string[] }> = [
  {
    prompt: "best crm for a startup",
    domain: "business",
    mentions: /\bCRM\b/,
    hosts: [
      "www.g2.com", "www.capterra.com", "blog.hubspot.com", "zapier.com", "www.reddit.com", "techcrunch.com", "www.forbes.com",
      "www.zoho.com", "www.businessnewsdaily.com", "news.ycombinator.com", "www.pcmag.com",
    ],
  },
  {
    prompt: "how much water should I drink a day",
    domain: "health",
    mentions: /\bwater\b/,
    hosts: [
      "www.healthline.com", "www.mayoclinic.org", "www.nhs.uk", "www.webmd.com", "www.health.harvard.edu", "my.clevelandclinic.org",
      "www.cdc.gov", "medlineplus.gov", "www.verywellhealth.com", "www.reddit.com", "pubmed.ncbi.nlm.nih.gov", "www.who.int",
    ],
  },
  {
    prompt: "how to learn rust programming",
    domain: "tech",
    mentions: /\bRust\b/,
    hosts: [
      "doc.rust-lang.org", "stackoverflow.com", "www.reddit.com", "dev.to", "github.com", "news.ycombinator.com", "www.freecodecamp.org",
      "www.youtube.com", "www.geeksforgeeks.org", "medium.com", "www.infoq.com",
    ],
  },
];

// One prompt per other domain: its pool comes from the code, the domain and the words from here.
const OTHERS: Array<{ prompt: string; domain: DomainId; mentions: RegExp }> = [
  { prompt: "cheap flights to lisbon", domain: "travel", mentions: /\bflights\b/ },
  { prompt: "Is a Roth IRA worth it in 2026?", domain: "finance", mentions: /\bRoth IRA\b/ },
  { prompt: "how to make sourdough bread", domain: "food", mentions: /\bsourdough\b/ },
  { prompt: "best noise cancelling headphones", domain: "products", mentions: /\bheadphones\b/ },
  { prompt: "how to learn piano as an adult", domain: "education", mentions: /\bpiano\b/ },
  { prompt: "Why is the sky blue?", domain: "general", mentions: /why is the sky blue/ },
];

function* runsOf(prompt: string, flags = {}) {
  for (const seed of SEEDS) for (const repeat of REPEATS) yield { seed, repeat, scenario: buildScenario(prompt, seed, repeat, flags) };
}

describe("simulated answers fit the prompt's topic", () => {
  it.each(EXPECTED)("$prompt: $domain sites only, an English answer about it", ({ prompt, domain, mentions, hosts }) => {
    for (const { scenario } of runsOf(prompt)) {
      expect(scenario.about.domain).toBe(domain);
      for (const host of hostsOf(scenario)) expect([...hosts, ...vendorsOf(domain)]).toContain(host);
      const answer = answerOf(scenario);
      expect(answer).toMatch(mentions);
      expect(answer).toContain(`"${prompt}"`);
      expect(answer).not.toMatch(CJK);
      expect(scenario.pages.map((p) => p.title).join(" ")).not.toMatch(CJK);
    }
  });

  it("never cites a health or Japanese news site for a CRM prompt", () => {
    for (const { scenario } of runsOf("best crm for a startup")) {
      expect(hostsOf(scenario).filter((h) => /healthline|mayoclinic|nhs|nhk|wikipedia|youtube/.test(h))).toEqual([]);
    }
  });

  it.each(OTHERS)("$prompt: $domain", ({ prompt, domain, mentions }) => {
    const { domain: classified, words } = topicFor(prompt);
    expect(classified.id).toBe(domain);
    const pool = [...classified.sites.map((site) => hostOf(site, words)), ...vendorsOf(domain)];
    for (const { scenario } of runsOf(prompt)) {
      for (const host of hostsOf(scenario)) expect(pool).toContain(host);
      expect(answerOf(scenario)).toMatch(mentions);
      expect(answerOf(scenario)).not.toMatch(CJK);
    }
  });

  it("searches for the prompt's own words", () => {
    for (const { prompt } of [...EXPECTED, ...OTHERS]) {
      const { words } = topicFor(prompt);
      const focus = words.focus.toLowerCase();
      for (const { scenario } of runsOf(prompt)) {
        for (const query of scenario.calls.flatMap((c) => c.queries)) {
          expect(query.includes(focus) || query.includes(words.topic.toLowerCase())).toBe(true);
        }
      }
    }
  });

  it("names the keyword the prompt turns on", () => {
    expect(classify("what is the best budget espresso machine")).toMatchObject({ focus: "espresso machines" });
    expect(classify("which trail running shoes are best for wide feet").domain.id).toBe("products");
    expect(classify("which trail running shoes are best for wide feet").focus).toBe("trail running shoes");
    expect(classify("compare postgres and mysql for analytics").domain.id).toBe("tech");
    expect(classify("best laptop for students")).toMatchObject({ focus: "laptops" });
    expect(classify("how do vaccines work")).toMatchObject({ focus: "vaccines" });
    expect(classify("history of the bicycle").domain.id).toBe("general");
    // Hints alone ("cheapest", "learn") do not make a domain.
    expect(classify("cheapest way to ship a parcel to Canada").domain.id).toBe("general");
  });

  it("points the docs of a technology at its own site", () => {
    const hosts = new Set([...runsOf("how do I learn python")].flatMap(({ scenario }) => hostsOf(scenario)));
    expect(hosts).toContain("docs.python.org");
    expect(hosts).toContain("www.reddit.com");
    expect(hosts).not.toContain("doc.rust-lang.org");
  });
});

describe("determinism", () => {
  it("gives the same scenario for the same prompt, seed and repeat", () => {
    for (const { prompt } of [...EXPECTED, ...OTHERS]) {
      expect(buildScenario(prompt, "geoscope:gemini", 2)).toEqual(buildScenario(prompt, "geoscope:gemini", 2));
      expect(buildScenario(prompt, "geoscope:gemini", 2, { unicode: true })).toEqual(buildScenario(prompt, "geoscope:gemini", 2, { unicode: true }));
    }
  });

  it("varies sites, their order, searches and sentences across repeats", () => {
    for (const { prompt } of [...EXPECTED, ...OTHERS]) {
      const runs = REPEATS.map((repeat) => buildScenario(prompt, "geoscope:chatgpt", repeat));
      const distinct = (f: (s: Scenario) => unknown) => new Set(runs.map((s) => JSON.stringify(f(s)))).size;
      expect(distinct((s) => s.pages.map((p) => p.site))).toBeGreaterThan(3);
      expect(distinct((s) => s.calls.map((c) => c.queries))).toBeGreaterThan(3);
      expect(distinct((s) => s.sentences.map((x) => x.text))).toBeGreaterThan(3);
      expect(distinct((s) => [...new Set(s.pages.map((p) => p.site))].sort())).toBeGreaterThan(1);
    }
  });
});

describe("the shape of a simulated run", () => {
  const prompts = [...EXPECTED, ...OTHERS].map((e) => e.prompt);
  const runs = prompts.flatMap((prompt) => [...runsOf(prompt)].map((r) => r.scenario));

  it("keeps every shape real runs have, across prompts and repeats", () => {
    const calls = runs.flatMap((s) => s.calls);
    expect(runs.every((s) => s.calls.length >= 1 && s.pages.length >= 4)).toBe(true);
    expect(runs.some((s) => s.calls.filter((c) => c.queries.length > 0).length >= 2)).toBe(true); // several search calls
    expect(calls.some((c) => c.queries.length >= 2)).toBe(true); // a call carrying several queries
    expect(calls.some((c) => c.queries.length === 0)).toBe(true); // a call shown without a query
    expect(runs.some((s) => s.pages.some((_, i) => s.calls.filter((c) => c.results.includes(i)).length > 1))).toBe(true);
    expect(runs.some((s) => s.citationsOff)).toBe(true);
    expect(runs.some((s) => s.sentences.some((x) => x.cites.length >= 2))).toBe(true);
    expect(runs.some((s) => s.pages.some((p) => p.pageAge === null)) && runs.some((s) => s.pages.some((p) => p.pageAge !== null))).toBe(true);
    for (const s of runs) {
      // Every page is returned by some call.
      expect(s.pages.every((_, i) => s.calls.some((c) => c.results.includes(i)))).toBe(true);
      if (s.citationsOff) {
        expect(s.sentences.every((x) => x.cites.length === 0)).toBe(true);
        expect(s.opened).toEqual([]);
        continue;
      }
      // About half the pages cited, so some are seen and not cited; the first cited one opened.
      const cited = new Set(s.sentences.flatMap((x) => x.cites));
      expect(cited.size).toBeGreaterThan(0);
      expect(cited.size).toBeLessThanOrEqual(Math.ceil(s.pages.length / 2));
      expect(cited.size).toBeLessThan(s.pages.length);
      expect(s.opened).toHaveLength(1);
      expect(cited.has(s.opened[0]!)).toBe(true);
    }
  });

  it("answers without searching, or without citations, when asked", () => {
    const none = buildScenario("best crm for a startup [[sim:no_search]]", "geoscope:claude", 0, { noSearch: true });
    expect(none).toMatchObject({ pages: [], calls: [], citationsOff: true, opened: [] });
    expect(answerOf(none)).toMatch(/CRM/);
    const uncited = buildScenario("best crm for a startup [[sim:no_citations]]", "geoscope:claude", 0, { noCitations: true });
    expect(uncited.citationsOff).toBe(true);
    expect(uncited.pages.length).toBeGreaterThan(0);
    expect(uncited.sentences.every((x) => x.cites.length === 0)).toBe(true);
  });
});

describe("[[sim:unicode]]", () => {
  const prompt = "best crm for a startup [[sim:unicode]]";

  it("adds multi-byte sentences and the odd URLs, and keeps citations on after them", () => {
    for (const { scenario } of runsOf(prompt, { unicode: true })) {
      const answer = answerOf(scenario);
      expect(answer).toMatch(/「コスパ最強」/);
      expect(answer).toContain("📉");
      expect(answer).toContain("São Paulo");
      expect(answer).toMatch(/CRM/);
      const urls = scenario.pages.map((p) => p.url);
      expect(urls.some((u) => u.startsWith("https://www.nhk.or.jp/"))).toBe(true);
      expect(urls.some((u) => u.startsWith("https://de.wikipedia.org/wiki/") && u.includes("%C3%9Cberblick"))).toBe(true);
      expect(urls.some((u) => u.includes("utm_source="))).toBe(true);
      expect(urls.some((u) => u.includes("#verdict"))).toBe(true);
      expect(urls.some((u) => /youtube\.com\/watch\?v=\w+&si=/.test(u))).toBe(true);
      expect(scenario.pages.some((p) => CJK.test(p.title))).toBe(true);
      // A citation after multi-byte text: the closer cites, and a multi-byte sentence precedes it.
      expect(scenario.citationsOff).toBe(false);
      const last = scenario.sentences.length - 1;
      expect(scenario.sentences[last]!.cites.length).toBeGreaterThan(0);
      expect(scenario.sentences.slice(0, last).some((x) => /[^\x00-\x7f]/.test(x.text))).toBe(true);
      // No host twice, though the odd ones overlap some domains' pools.
      expect(new Set(hostsOf(scenario)).size).toBe(scenario.pages.length);
    }
  });

  it("is what puts non-English text in an English prompt's answer", () => {
    for (const { prompt } of [...EXPECTED, ...OTHERS]) {
      for (const { scenario } of runsOf(prompt)) {
        expect(answerOf(scenario)).not.toMatch(CJK);
        expect(hostsOf(scenario)).not.toContain("www.nhk.or.jp");
        expect(hostsOf(scenario)).not.toContain("de.wikipedia.org");
      }
    }
  });
});

// The same scenario through each provider's wire format and the real normaliser: what a run records.
function normalised(engine: EngineId, prompt: string, repeat: number, flags = {}) {
  const scenario = buildScenario(prompt, `geoscope:${engine}`, repeat, flags);
  const rng = rngFrom("test", engine, prompt, repeat);
  const redirects: Record<string, RedirectOutcome> = {};
  let body: unknown;
  if (engine === "chatgpt") body = openaiResponse(scenario, "gpt-simulated", prompt, rng);
  else if (engine === "claude") body = claudeMessage(claudeContent(scenario, rng), "claude-simulated", "end_turn", 1000, rng);
  else {
    const gemini = geminiResponse(scenario, "gemini-simulated", prompt, "http://127.0.0.1:4010", rng) as {
      candidates: Array<{ groundingMetadata?: { groundingChunks?: Array<{ web: { uri: string } }> } }>;
    };
    for (const chunk of gemini.candidates[0]!.groundingMetadata?.groundingChunks ?? []) {
      const token = parseRedirectToken(chunk.web.uri.split("/").pop()!)!;
      redirects[chunk.web.uri] = { location: token.u, status: 302, error: null };
    }
    body = gemini;
  }
  const envelope: EngineEnvelope = {
    engine,
    normalizer_version: NORMALIZER_VERSION,
    model_requested: "simulated",
    exchanges: [{ request: { method: "POST", url: "https://provider/", body: { input: prompt } }, response: { status: 200, headers: {}, body } }],
    redirects,
  };
  return normalizeEnvelope(envelope).result;
}

describe("what a run records from a simulated engine", () => {
  it.each(MODEL_APIS)("%s: sources on the topic's sites, searches and answer about it", (engine) => {
    for (const { prompt, mentions, hosts, domain } of EXPECTED) {
      const domains = [...hosts, ...vendorsOf(domain)].map((h) => registeredDomain(`https://${h}/`));
      for (const repeat of [0, 1, 2]) {
        const result = normalised(engine, prompt, repeat);
        expect(result.sources.length).toBeGreaterThan(0);
        for (const source of result.sources) expect(domains).toContain(source.domain);
        expect(result.answer).toMatch(mentions);
        expect(result.answer).not.toMatch(CJK);
      }
    }
  });

  it.each(MODEL_APIS)("%s: under [[sim:unicode]], normalises the odd URLs and cites after multi-byte text", (engine) => {
    const result = normalised(engine, "best crm for a startup [[sim:unicode]]", 0, { unicode: true });
    expect(result.answer).toMatch(CJK);
    const domains = result.sources.map((s) => s.domain);
    expect(domains).toContain("nhk.or.jp");
    expect(domains).toContain("wikipedia.org");
    for (const source of result.sources) {
      expect(source.url).not.toMatch(/utm_|#/);
    }
    expect(result.sources.some((s) => s.cited === true)).toBe(true);
  });
});
