import { describe, expect, it } from "vitest";
import { presentRateCard } from "@/lib/billing/present";
import { loadRateCard, parseRateCard, priceOf } from "@/lib/billing/rate-card";

describe("rate card", () => {
  const card = loadRateCard("config/rate-card.json");

  it("is the 2026-11-29 card of decisions.md (wave 4's engines priced), read from the configuration file", () => {
    expect(card.version).toBe("2026-11-29");
    expect(priceOf(card, "prompt", "chatgpt")?.unitPriceMicros).toBe(20_000n);
    expect(priceOf(card, "prompt", "claude")?.unitPriceMicros).toBe(30_000n);
    expect(priceOf(card, "prompt", "gemini")?.unitPriceMicros).toBe(15_000n);
    expect(priceOf(card, "prompt", "perplexity")?.unitPriceMicros).toBe(10_000n);
    expect(priceOf(card, "prompt", "chatgpt_app")?.unitPriceMicros).toBe(30_000n);
    expect(priceOf(card, "prompt", "gemini_app")?.unitPriceMicros).toBe(30_000n);
    expect(priceOf(card, "prompt", "google_ai_overview")?.unitPriceMicros).toBe(10_000n);
    expect(priceOf(card, "prompt", "google_ai_mode")?.unitPriceMicros).toBe(20_000n);
    expect(priceOf(card, "questions")?.unitPriceMicros).toBe(2_000n);
    expect(priceOf(card, "audit")?.unitPriceMicros).toBe(10_000n);
    expect(priceOf(card, "citations")?.unitPriceMicros).toBe(0n);
  });

  it("presents prices as decimal strings", () => {
    const presented = presentRateCard(card);
    expect(presented.prices).toContainEqual({ product: "prompt", engine: "gemini", unit: "prompt", unit_price_usd: "0.015" });
    expect(presented.prices).toContainEqual({ product: "citations", engine: null, unit: "analysis", unit_price_usd: "0.00" });
  });

  it("refuses a card with a float price or a repeated row, naming where", () => {
    const base = { version: "v", effective_from: "2026-01-01T00:00:00Z", currency: "USD" };
    expect(() =>
      parseRateCard({ ...base, prices: [{ product: "audit", engine: null, unit: "url", unit_price_usd: 0.01 }] }, "x.json"),
    ).toThrow(/x\.json/);
    expect(() =>
      parseRateCard(
        {
          ...base,
          prices: [
            { product: "audit", engine: null, unit: "url", unit_price_usd: "0.01" },
            { product: "audit", engine: null, unit: "url", unit_price_usd: "0.02" },
          ],
        },
        "x.json",
      ),
    ).toThrow(/repeats audit/);
  });
});
