import { listBillingTransactions } from "@/lib/billing/read";
import { route } from "@/lib/http/route";
import { listTransactions } from "@/lib/schemas/billing";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(listTransactions, ({ principal, query }) => listBillingTransactions(principal, query));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
