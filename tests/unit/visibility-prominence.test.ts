// Prominence (decisions.md "Visibility analyses"): over one answer's N sentences and W words, an
// entity's is the sum over the sentences naming it of |s| e^(-i_s / N) / k_s / W, where k_s counts
// the distinct entities a sentence names (an entity named twice in one sentence is one of them),
// and a mention that does not count (a prompt echo) names nothing.
import { describe, expect, it } from "vitest";
import { normalizeEntity } from "@/lib/visibility";
import { observeRange } from "@/lib/visibility/analysis";
import type { VisibilityRunInput } from "@/lib/visibility/observe";

const entities = ["HubSpot", "Pipedrive", "Zoho"].map((name) => normalizeEntity({ name, role: "competitor", aliases: [], domains: [], case_sensitive: false }));
const run = (answer: string, prompt = "Which CRM should a small team pick?"): VisibilityRunInput => ({
  run_id: "dr_1", engine: "chatgpt", country: null, prompt, status: "completed", kind: "prompt", answer, search_queries: [], cited_urls: [],
});
const prominences = (input: VisibilityRunInput) => {
  const { obs } = observeRange([input], entities);
  return [...obs.prominence];
};

describe("prominence", () => {
  it("shares a sentence among the distinct entities it names, sentence by sentence", () => {
    // 7 + 2 + 2 = 11 words in N = 3 sentences; the first names HubSpot twice and Pipedrive once (k = 2).
    const [hubspot, pipedrive, zoho] = prominences(run("HubSpot and Pipedrive lead and HubSpot wins. Zoho trails. HubSpot again."));
    expect(hubspot).toBeCloseTo((7 * Math.exp(0)) / 2 / 11 + (2 * Math.exp(-2 / 3)) / 1 / 11, 12);
    expect(pipedrive).toBeCloseTo((7 * Math.exp(0)) / 2 / 11, 12);
    expect(zoho).toBeCloseTo((2 * Math.exp(-1 / 3)) / 1 / 11, 12);
  });

  it("gives a sentence nothing for a mention that does not count", () => {
    // "Zoho vs Pipedrive" echoes the prompt in sentence 0, so Zoho's only counted mention is in sentence 1.
    const [hubspot, pipedrive, zoho] = prominences(run('You asked "Zoho vs Pipedrive" and HubSpot answers. Zoho is cheaper.', "Zoho vs Pipedrive"));
    // Sentence 0 (8 words) names HubSpot alone among counted mentions; sentence 1 (3 words) Zoho.
    expect(pipedrive).toBe(0);
    expect(hubspot).toBeCloseTo((8 * Math.exp(0)) / 1 / 11, 12);
    expect(zoho).toBeCloseTo((3 * Math.exp(-1 / 2)) / 1 / 11, 12);
  });
});
