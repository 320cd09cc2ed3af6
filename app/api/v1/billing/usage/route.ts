import { getUsageReport } from "@/lib/billing/usage";
import { route } from "@/lib/http/route";
import { getUsage } from "@/lib/schemas/billing";

export const GET = route(getUsage, ({ principal, query }) => getUsageReport(principal, query));
