// Every ledger transaction of one workspace, a page at a time, older pages by the API's cursor.
import { notFound } from "next/navigation";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { workspaceTransactions } from "@/lib/billing/read";
import { ApiError } from "@/lib/http/errors";
import { reachableWorkspaces } from "@/lib/workspaces/access";
import { DottedName, Notice, Page, Section } from "../../_components/ui";
import { TransactionTable } from "../transaction-table";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 25;
const linkClass = "text-sm text-indigo-700 underline hover:text-indigo-500";

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<{ workspace?: string; cursor?: string }> }) {
  const { workspace, cursor } = await searchParams;
  const query = new URLSearchParams({ ...(workspace ? { workspace } : {}), ...(cursor ? { cursor } : {}) });
  const principal = await requireSessionPrincipal(`/account/transactions?${query}`);
  // The person's own workspace unless one of theirs is named; any other is not found.
  const workspaces = await reachableWorkspaces(principal);
  const access = workspace ? workspaces.find((w) => w.workspace.id === workspace) : workspaces[0];
  if (!access) notFound();
  const id = access.workspace.id;

  let page: Awaited<ReturnType<typeof workspaceTransactions>> | null = null;
  let error: string | null = null;
  try {
    page = await workspaceTransactions(access, { limit: PAGE_SIZE, cursor });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    error = "That page link is not valid any more. Start again from the newest transactions.";
  }

  return (
    <Page
      title="Transactions"
      aside={
        <a className={linkClass} href={`/account#billing-${id}`}>
          Back to your account
        </a>
      }
    >
      <Section id="transactions" title={<DottedName name={access.workspace.name} />} description={cursor ? "Older transactions, newest first." : "Every change to the balance, newest first."}>
        {error ? <Notice tone="error">{error}</Notice> : null}
        {page && page.items.length === 0 ? <p className="text-sm text-slate-500">No older transactions.</p> : null}
        {page && page.items.length > 0 ? <TransactionTable items={page.items} /> : null}
        <div className="mt-4 flex flex-wrap gap-x-4 gap-y-2">
          {cursor ? (
            <a className={linkClass} href={`/account/transactions?workspace=${id}`}>
              Newest transactions
            </a>
          ) : null}
          {page?.next_cursor ? (
            <a className={linkClass} href={`/account/transactions?workspace=${id}&cursor=${page.next_cursor}`}>
              Show older transactions
            </a>
          ) : null}
        </div>
      </Section>
    </Page>
  );
}
