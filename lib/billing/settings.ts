// Billing's settings. BILLING_ENABLED, PUBLIC_BASE_URL and RATE_CARD_FILE come from config();
// SIGNUP_PROMO_USD is read here until it joins lib/config/env.ts.
import { z } from "zod";
import { config } from "../config/env";
import { parseUsd } from "./money";
import { loadRateCard, type LoadedRateCard } from "./rate-card";

/** The zod definition SIGNUP_PROMO_USD should get in envSchema. */
export const signupPromoUsdSchema = z
  .string()
  .refine((v) => {
    try {
      parseUsd(v);
      return true;
    } catch {
      return false;
    }
  }, { error: 'must be a non-negative amount in USD such as "5.00"' })
  .default("5.00");

export type BillingSettings = {
  enabled: boolean;
  signupPromoMicros: bigint;
  addCreditUrl: string;
};

export function billingSettings(): BillingSettings {
  const c = config();
  const promo = signupPromoUsdSchema.safeParse(process.env.SIGNUP_PROMO_USD || undefined);
  if (!promo.success) throw new Error(`SIGNUP_PROMO_USD: ${promo.error.issues[0]?.message}`);
  return {
    enabled: c.BILLING_ENABLED,
    signupPromoMicros: parseUsd(promo.data),
    // Appended rather than resolved, so a base URL with a path (https://host/geoscope) keeps it.
    addCreditUrl: `${c.PUBLIC_BASE_URL.replace(/\/+$/, "")}/account#billing`,
  };
}

export function currentRateCard(): LoadedRateCard {
  return loadRateCard(config().RATE_CARD_FILE);
}
