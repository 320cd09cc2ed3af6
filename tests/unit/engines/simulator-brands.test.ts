// The simulator names brands (decisions.md "The simulator names brands"): across a fanout's worth
// of answers (prompts × engines × repeats) its catalogue's brands are named in ranked lists and
// in prose, spread differently by engine, a brand the prompt names in some answers and not all,
// now and then an answer saying it found nothing about one; the same seed gives the same answers.
import { describe, expect, it } from "vitest";
import { brandsInPrompt, catalogueOf } from "@/lib/engines/simulator/brands";
import { exactSentences } from "@/lib/engines/simulator/directive";
import { NO_MARKET } from "@/lib/engines/simulator/market";
import { buildScenario, type Scenario } from "@/lib/engines/simulator/scenario";
import { ENGINE_IDS } from "@/lib/engines/types";

const answerOf = (s: Scenario) => s.sentences.map((x, i) => (i === 0 ? "" : (x.sep ?? " ")) + x.text).join("");
const ABSENCE = /I couldn't find any information about|There is no reliable information on|does not appear to be covered by/;

function fanout(prompts: string[], repeats = 5) {
  return prompts.flatMap((prompt) =>
    ENGINE_IDS.flatMap((engine) =>
      Array.from({ length: repeats }, (_, repeat) => ({ prompt, engine, scenario: buildScenario(prompt, `geoscope:${engine}`, repeat, { engine }) })),
    ),
  );
}

describe("brands in simulated answers", () => {
  const runs = fanout(["best crm for a small team", "pipedrive vs hubspot", "best running shoes for beginners", "best accounting software for freelancers"]);

  it("names several catalogue brands in a ranked list and in prose", () => {
    for (const { scenario } of runs) {
      const answer = answerOf(scenario);
      expect(scenario.brands.listed.length).toBeGreaterThanOrEqual(3);
      scenario.brands.listed.forEach((name, i) => expect(answer).toContain(`\n${i + 1}. ${name}: `));
    }
    const prose = runs.filter(({ scenario }) => /Many people start with|Reviewers often compare|gets the most mentions/.test(answerOf(scenario)));
    expect(prose.length).toBeGreaterThan(runs.length / 2);
  });

  it("spreads brands and their ranks differently across engines, and across repeats", () => {
    const firsts = (engine: string) => runs.filter((r) => r.engine === engine && r.prompt === "best crm for a small team").map((r) => r.scenario.brands.listed[0]);
    const counts = (list: (string | undefined)[]) => JSON.stringify([...new Set(list)].sort().map((name) => [name, list.filter((x) => x === name).length]));
    expect(new Set(ENGINE_IDS.map((e) => counts(firsts(e)))).size).toBeGreaterThan(1);
    for (const engine of ENGINE_IDS) expect(new Set(firsts(engine)).size).toBeGreaterThan(1);
    const named = new Set(runs.flatMap((r) => r.scenario.brands.listed));
    expect(named.size).toBeGreaterThan(12);
  });

  it("names a brand the prompt names in some answers, not all, and never one of another topic", () => {
    const versus = runs.filter((r) => r.prompt === "pipedrive vs hubspot");
    expect(brandsInPrompt("business", "pipedrive vs hubspot").map((b) => b.name)).toEqual(["HubSpot", "Pipedrive"]);
    const naming = versus.filter((r) => r.scenario.brands.listed.includes("Pipedrive"));
    expect(naming.length).toBeGreaterThan(0);
    expect(naming.length).toBeLessThan(versus.length);
    const shoes = new Set(catalogueOf("products").map((b) => b.name));
    for (const r of runs.filter((x) => x.prompt.includes("running shoes"))) for (const name of r.scenario.brands.listed) expect(shoes).toContain(name);
  });

  it("now and then says it found no information about a brand, naming it nowhere else in the list", () => {
    const absent = runs.filter((r) => r.scenario.brands.absent !== null);
    expect(absent.length).toBeGreaterThan(0);
    expect(absent.length).toBeLessThan(runs.length / 3);
    for (const { scenario } of absent) {
      expect(answerOf(scenario)).toMatch(ABSENCE);
      expect(answerOf(scenario)).toContain(scenario.brands.absent!);
      expect(scenario.brands.listed).not.toContain(scenario.brands.absent);
    }
    for (const { scenario } of runs.filter((r) => r.scenario.brands.absent === null)) expect(answerOf(scenario)).not.toMatch(ABSENCE);
  });

  it("leaves brands local to another country out, and names a country's own for a searcher there", () => {
    const german = { ...NO_MARKET, country: "DE", language: "de" };
    const local = /CentralStationCRM|weclapp/;
    expect(runs.some((r) => local.test(answerOf(r.scenario)))).toBe(false);
    const inGermany = ENGINE_IDS.flatMap((engine) => [0, 1, 2, 3].map((repeat) => buildScenario("best crm for a small team", `geoscope:${engine}`, repeat, { engine, market: german })));
    expect(inGermany.some((s) => local.test(answerOf(s)))).toBe(true);
  });

  it("is deterministic for a seed: the same prompt, engine and repeat give the same answer and sources", () => {
    for (const { prompt, engine, scenario } of runs.slice(0, 30)) {
      const repeat = runs.filter((r) => r.prompt === prompt && r.engine === engine).indexOf(runs.find((r) => r.scenario === scenario)!);
      expect(buildScenario(prompt, `geoscope:${engine}`, repeat, { engine })).toEqual(scenario);
    }
    expect(buildScenario("best crm", "other-seed:chatgpt", 0, { engine: "chatgpt" })).not.toEqual(buildScenario("best crm", "geoscope:chatgpt", 0, { engine: "chatgpt" }));
  });
});

describe("exactSentences", () => {
  it.each(["", "   ", "One.", "No end", " Lead. Two!\n\n1. Item one.\n2. Item two  \nLast? yes ", "日本語。次の文。", "a\r\nb"])("joins back to %j exactly", (text) => {
    const parts = exactSentences(text);
    expect(parts[0]!.sep).toBe("");
    expect(parts.map((p) => p.sep + p.text).join("")).toBe(text);
  });

  it("cuts at sentence ends and line breaks, not after a list number", () => {
    expect(exactSentences("Intro.\n1. HubSpot: free. 2. Zoho").map((p) => p.text)).toEqual(["Intro.", "1. HubSpot: free.", "2. Zoho"]);
  });
});
