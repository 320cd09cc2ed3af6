import { loadRateCard, presentRateCard } from "@/lib/billing/rate-card";
import { config } from "@/lib/config/env";
import { route } from "@/lib/http/route";
import { getPricing } from "@/lib/schemas/billing";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(getPricing, () => presentRateCard(loadRateCard(config().RATE_CARD_FILE)));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
