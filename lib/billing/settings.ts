// Billing's settings, from the central configuration.
import { config } from "../config/env";
import { parseUsd } from "./money";
import { loadRateCard, type LoadedRateCard } from "./rate-card";

export type BillingSettings = {
  enabled: boolean;
  signupPromoMicros: bigint;
  addCreditUrl: string;
};

export function billingSettings(): BillingSettings {
  const c = config();
  return {
    enabled: c.BILLING_ENABLED,
    signupPromoMicros: parseUsd(c.SIGNUP_PROMO_USD),
    // Appended rather than resolved, so a base URL with a path (https://host/geoscope) keeps it.
    addCreditUrl: `${c.PUBLIC_BASE_URL.replace(/\/+$/, "")}/account#billing`,
  };
}

export function currentRateCard(): LoadedRateCard {
  return loadRateCard(config().RATE_CARD_FILE);
}
