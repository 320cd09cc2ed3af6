// Shaping a structured reply into an analysis's questions and clusters (decisions.md "Questions
// analyses"), and the generation prompt's provenance hash.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PROMPT_VERSION, generationPrompt, promptSha } from "@/lib/questions/prompt";
import { UnusableReply, clusterIntent, foldQuestion, shapeQuestions } from "@/lib/questions/shape";

const q = (text: string, cluster = "Basics", intent: string | null = "informational", specificity: string | null = "broad") => ({ text, cluster, intent, specificity });

describe("deduplication", () => {
  it("folds case, punctuation, symbols and whitespace", () => {
    expect(foldQuestion("  What IS a CRM?! ")).toBe("what is a crm");
    expect(foldQuestion("What is a   CRM")).toBe(foldQuestion("what is a crm?"));
    expect(foldQuestion("HubSpot vs. Pipedrive — which?")).toBe("hubspot vs pipedrive which");
    expect(foldQuestion("Ｗｈａｔ is a CRM？")).toBe("what is a crm");
    // Letters and digits are never folded away: these stay different.
    expect(foldQuestion("Is CRM 2 better?")).not.toBe(foldQuestion("Is CRM 3 better?"));
    expect(foldQuestion("Qu'est-ce qu'un CRM ?")).toBe("questce quun crm");
  });

  it("keeps the first of questions that fold alike, numbering the rest in order", () => {
    const shaped = shapeQuestions({ questions: [q("What is a CRM?"), q("How much does a CRM cost?"), q("what is a crm"), q("WHAT IS A CRM!!"), q("Which CRM is best?")] }, 10);
    expect(shaped.questions.map((x) => [x.id, x.text])).toEqual([
      ["q1", "What is a CRM?"],
      ["q2", "How much does a CRM cost?"],
      ["q3", "Which CRM is best?"],
    ]);
  });

  it("never returns more than count, counting after duplicates are folded", () => {
    const shaped = shapeQuestions({ questions: [q("A?"), q("a"), q("B?"), q("C?"), q("D?")] }, 3);
    expect(shaped.questions.map((x) => x.text)).toEqual(["A?", "B?", "C?"]);
  });

  it("drops questions with no text and collapses spaces inside the rest", () => {
    const shaped = shapeQuestions({ questions: [q("   "), q("?!"), q(" What   is\na CRM? ")] }, 5);
    expect(shaped.questions.map((x) => x.text)).toEqual(["What is a CRM?"]);
  });

  it("refuses a reply that is not the structure or holds no question", () => {
    expect(() => shapeQuestions({ questions: "not a list" }, 5)).toThrow(UnusableReply);
    expect(() => shapeQuestions({ questions: [{ text: 42 }] }, 5)).toThrow(/questions\.0\.text/);
    expect(() => shapeQuestions(null, 5)).toThrow(UnusableReply);
    expect(() => shapeQuestions({ questions: [] }, 5)).toThrow("the reply holds no question");
  });
});

describe("clusters and intents", () => {
  it("numbers clusters by first use and lists each cluster's questions; cluster names fold like questions", () => {
    const shaped = shapeQuestions(
      { questions: [q("A?", "Pricing", "commercial"), q("B?", "Basics"), q("C?", "pricing ", "commercial"), q("D?", "", null)] },
      10,
    );
    expect(shaped.clusters).toEqual([
      { id: "c1", name: "Pricing", intent: "commercial", question_ids: ["q1", "q3"] },
      { id: "c2", name: "Basics", intent: "informational", question_ids: ["q2"] },
      { id: "c3", name: "Other questions", intent: "informational", question_ids: ["q4"] },
    ]);
    expect(shaped.questions.map((x) => x.cluster_id)).toEqual(["c1", "c2", "c1", "c3"]);
  });

  it("gives a question with an intent outside the enumeration its cluster's intent", () => {
    const shaped = shapeQuestions(
      { questions: [q("A?", "Buying", "transactional"), q("B?", "Buying", "exploratory"), q("C?", "Buying", "transactional"), q("D?", "Buying", "commercial")] },
      10,
    );
    expect(shaped.clusters[0]!.intent).toBe("transactional");
    expect(shaped.questions.map((x) => x.intent)).toEqual(["transactional", "transactional", "transactional", "commercial"]);
  });

  it("falls back to informational when no question of the cluster has a known intent", () => {
    const shaped = shapeQuestions({ questions: [q("A?", "Odd", "curious"), q("B?", "Odd", null)] }, 10);
    expect(shaped.clusters[0]!.intent).toBe("informational");
    expect(shaped.questions.map((x) => x.intent)).toEqual(["informational", "informational"]);
  });

  it("reads labels loosely and nulls a specificity outside the enumeration", () => {
    const shaped = shapeQuestions({ questions: [q("A?", "X", " Comparison ", "Long-tail"), q("B?", "X", "NAVIGATIONAL", "narrow")] }, 10);
    expect(shaped.questions.map((x) => [x.intent, x.specificity])).toEqual([["comparison", "long_tail"], ["navigational", null]]);
  });

  it("takes the most common intent; of two as common, the first to reach that count", () => {
    expect(clusterIntent(["commercial", "comparison", "comparison", "commercial"])).toBe("comparison");
    expect(clusterIntent(["commercial", "comparison"])).toBe("commercial");
    expect(clusterIntent([null, "navigational", null])).toBe("navigational");
    expect(clusterIntent([])).toBe("informational");
  });
});

describe("provenance", () => {
  it("hashes the prompt exactly as sent, so any change to it changes the hash", () => {
    const text = generationPrompt("CRM software", 25);
    expect(promptSha(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    expect(promptSha(text)).toMatch(/^[0-9a-f]{64}$/);
    expect(promptSha(generationPrompt("CRM software", 26))).not.toBe(promptSha(text));
    expect(promptSha(generationPrompt("CRM  software", 25))).toBe(promptSha(text));
    expect(PROMPT_VERSION).toBe("1");
  });

  it("puts the topic on one line with the count, as the engine simulator reads them", () => {
    const text = generationPrompt("  café\nmachines  ", 7);
    expect(text).toContain("\nTopic: café machines\n");
    expect(text).toContain("\nNumber of questions: 7\n");
    expect(text).toContain("Write exactly 7 different questions");
  });
});
