import { getBillingSummary } from "@/lib/billing/summary";
import { route } from "@/lib/http/route";
import { getBilling } from "@/lib/schemas/billing";

export const GET = route(getBilling, ({ principal, query }) => getBillingSummary(principal, query));
