import { listBillingTransactions } from "@/lib/billing/transactions";
import { route } from "@/lib/http/route";
import { listTransactions } from "@/lib/schemas/billing";

export const GET = route(listTransactions, ({ principal, query }) => listBillingTransactions(principal, query));
