// Ledger transactions as a table that reflows on a phone: date and amount, then the
// description, then kind, bucket and who.
import type { workspaceTransactions } from "@/lib/billing/read";
import { Email, tableCellClass, tableClass, tableHeadClass, tableRowClass } from "../_components/ui";

type Transaction = Awaited<ReturnType<typeof workspaceTransactions>>["items"][number];

export const date = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

/** The date and the time, each kept whole: a tight table (under md) wraps between them rather than squeezing the others. */
function When({ iso }: { iso: string | null }) {
  const [day, time] = date(iso).split(" ");
  return time ? (
    <>
      <span className="whitespace-nowrap">{day}</span> <span className="whitespace-nowrap">{time}</span>
    </>
  ) : (
    <>{day}</>
  );
}

export function TransactionTable({ items }: { items: Transaction[] }) {
  return (
    <table className={`mt-1 ${tableClass}`}>
      <thead className={tableHeadClass}>
        <tr>
          <th className="py-1 pr-3">Date (UTC)</th>
          <th className="pr-3">Kind</th>
          <th className="pr-3">Bucket</th>
          <th className="pr-3 text-right">USD</th>
          <th className="pr-3">Description</th>
          <th>By</th>
        </tr>
      </thead>
      <tbody>
        {items.map((t) => (
          <tr key={t.id} className={tableRowClass} data-testid={`transaction-${t.id}`}>
            <td className={`${tableCellClass} order-1 md:whitespace-nowrap`}>
              <When iso={t.created_at} />
            </td>
            <td className={`${tableCellClass} order-4 text-slate-500 sm:text-inherit`}>
              {t.kind}
            </td>
            <td className={`${tableCellClass} order-5 text-slate-500 sm:text-inherit`}>
              {t.bucket}
            </td>
            <td className={`${tableCellClass} order-2 ml-auto whitespace-nowrap font-mono sm:text-right`}>
              {t.amount_usd}
              <span className="font-sans text-slate-500 sm:hidden"> USD</span>
            </td>
            <td className={`${tableCellClass} order-3 basis-full text-slate-600`}>{t.description}</td>
            <td className={`${tableCellClass} order-6 wrap-anywhere text-slate-500 sm:min-w-32`} data-testid="actor">
              {t.actor ? <Email address={t.actor} /> : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
