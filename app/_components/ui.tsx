// Small presentational pieces shared by the account, device and invitation pages.
import { Fragment, type ReactNode } from "react";

export function Page({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:px-6 sm:py-10">
      <header className="mb-8 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">
          <a href="/" className="text-slate-400 hover:text-slate-600">
            geoscope
          </a>{" "}
          / {title}
        </h1>
        {aside}
      </header>
      {children}
    </main>
  );
}

export function Section({ id, title, children, description }: { id?: string; title: ReactNode; children: ReactNode; description?: string }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="mb-10 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={id ? `${id}-title` : undefined} className="text-lg font-semibold break-words">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm break-words text-slate-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function Notice({ tone = "info", children }: { tone?: "info" | "warn" | "error" | "success"; children: ReactNode }) {
  const tones = {
    info: "border-sky-200 bg-sky-50 text-sky-900",
    warn: "border-amber-200 bg-amber-50 text-amber-900",
    error: "border-rose-200 bg-rose-50 text-rose-900",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

export const inputClass = "max-w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";
export const buttonClass = "rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50";
export const subtleButtonClass = "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100";
export const dangerButtonClass = "rounded-md border border-rose-300 px-3 py-1.5 text-sm text-rose-700 hover:bg-rose-50";

// Tables reflow below the sm breakpoint: a row becomes a wrapped block of its cells (headers
// hidden, a cell that needs one shows its CellLabel), so a phone never scrolls sideways.
export const tableClass = "w-full text-left text-sm";
export const tableHeadClass = "hidden text-slate-500 sm:table-header-group";
export const tableRowClass = "flex flex-wrap items-baseline gap-x-3 gap-y-1 border-t border-slate-100 py-2 sm:table-row sm:py-0";
export const tableCellClass = "min-w-0 break-words sm:table-cell sm:py-2 sm:pr-3";

/**
 * An email address that wraps after its "@", before each of its dots (and at its hyphens) before
 * anywhere else: in a cell or a line that may wrap anywhere (so a long address cannot push a table
 * out of its card or a page sideways), a narrow column broke it mid-word ("dana.longn", "ame-",
 * "marketing@", "department.e" / "xampleenterprise.com", …). The text is the address unchanged (a
 * <wbr> adds no character): it copies and reads as written.
 */
export function Email({ address }: { address: string }) {
  const parts = address.split(/(?=\.)|(?<=@)/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * A name that may be made of an address or dotted words (a personal workspace is named after its
 * owner's email, "dana.longname.example's workspace"): offered the breaks an Email is, so a long
 * one wraps before a dot or after its @ rather than mid-word or past the page's edge.
 */
export function DottedName({ name }: { name: string }) {
  return <Email address={name} />;
}

export function CellLabel({ children }: { children: ReactNode }) {
  return <span className="text-slate-500 sm:hidden">{children} </span>;
}
