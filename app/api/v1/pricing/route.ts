import { loadRateCard, presentRateCard } from "@/lib/billing/rate-card";
import { config } from "@/lib/config/env";
import { route } from "@/lib/http/route";
import { getPricing } from "@/lib/schemas/billing";

export const GET = route(getPricing, () => presentRateCard(loadRateCard(config().RATE_CARD_FILE)));
