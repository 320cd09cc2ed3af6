// The frame of every signed-in research page: where you are (geoscope / project / object), the
// way back to projects and the account, and the page's own heading.
import type { ReactNode } from "react";

export type Crumb = { href: string; label: string };

export function ResearchPage({ crumbs, children, wide = false }: { crumbs: Crumb[]; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`mx-auto px-4 py-6 sm:px-6 sm:py-8 ${wide ? "max-w-6xl" : "max-w-4xl"}`}>
      <nav aria-label="Breadcrumb" className="mb-6 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2 text-sm">
        <ol className="flex min-w-0 flex-wrap items-baseline gap-x-1.5 text-slate-500">
          <li>
            <a href="/" className="font-semibold text-slate-700 hover:text-slate-900">
              geoscope
            </a>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <a href="/projects" className="hover:text-slate-900 hover:underline">
              Projects
            </a>
          </li>
          {crumbs.map((c) => (
            <li key={c.href} className="flex min-w-0 items-baseline gap-x-1.5">
              <span aria-hidden="true">/</span>
              <a href={c.href} className="max-w-[16rem] truncate hover:text-slate-900 hover:underline">
                {c.label}
              </a>
            </li>
          ))}
        </ol>
        <a href="/account" className="text-slate-600 hover:text-slate-900 hover:underline">
          Account
        </a>
      </nav>
      <main>{children}</main>
    </div>
  );
}
