// The rate card: read from one configuration file (RATE_CARD_FILE), never from code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { BillingProduct, BillingUnit } from "../schemas/billing";
import { parseUsd } from "./money";

export type Price = {
  product: z.infer<typeof BillingProduct>;
  engine: string | null;
  unit: z.infer<typeof BillingUnit>;
  unitPriceMicros: bigint;
};

export type LoadedRateCard = { version: string; effectiveFrom: string; currency: string; prices: Price[] };

const RateCardFile = z.object({
  version: z.string().min(1),
  effective_from: z.iso.datetime({ offset: true }),
  currency: z.literal("USD"),
  prices: z
    .array(
      z.object({
        product: BillingProduct,
        engine: z.string().min(1).nullable(),
        unit: BillingUnit,
        unit_price_usd: z.string(),
      }),
    )
    .min(1),
});

export function parseRateCard(raw: unknown, source: string): LoadedRateCard {
  const parsed = RateCardFile.safeParse(raw);
  if (!parsed.success) throw new Error(`Rate card ${source} is invalid: ${parsed.error.message}`);
  const seen = new Set<string>();
  const prices = parsed.data.prices.map((row, i) => {
    const key = `${row.product}/${row.engine ?? "*"}`;
    if (seen.has(key)) throw new Error(`Rate card ${source}: prices[${i}] repeats ${key}`);
    seen.add(key);
    try {
      return { product: row.product, engine: row.engine, unit: row.unit, unitPriceMicros: parseUsd(row.unit_price_usd) };
    } catch (error) {
      throw new Error(`Rate card ${source}: prices[${i}].unit_price_usd ${(error as Error).message}`);
    }
  });
  const { version, effective_from: effectiveFrom, currency } = parsed.data;
  return { version, effectiveFrom, currency, prices };
}

const cache = new Map<string, LoadedRateCard>();

export function loadRateCard(file: string): LoadedRateCard {
  // The file is named at run time (RATE_CARD_FILE); without the ignore comments Turbopack's
  // output tracing would take this read for one of any file and trace the whole project.
  const absolute = path.resolve(/* turbopackIgnore: true */ process.cwd(), file);
  let card = cache.get(absolute);
  if (!card) {
    card = parseRateCard(JSON.parse(readFileSync(/* turbopackIgnore: true */ absolute, "utf8")), absolute);
    cache.set(absolute, card);
  }
  return card;
}

/** The price of one unit of a product, on an engine where the price depends on it. */
export function priceOf(card: LoadedRateCard, product: Price["product"], engine: string | null = null): Price | undefined {
  return (
    card.prices.find((p) => p.product === product && p.engine === engine) ??
    card.prices.find((p) => p.product === product && p.engine === null)
  );
}
