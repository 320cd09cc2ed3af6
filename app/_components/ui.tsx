// Small presentational pieces shared by the account, device and invitation pages.
import type { ReactNode } from "react";

export function Page({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <header className="mb-8 flex items-baseline justify-between gap-4">
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

export function Section({ id, title, children, description }: { id?: string; title: string; children: ReactNode; description?: string }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="mb-10 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={id ? `${id}-title` : undefined} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
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

export const inputClass = "rounded-md border border-slate-300 px-3 py-1.5 text-sm focus:border-indigo-500 focus:outline-none";
export const buttonClass = "rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50";
export const subtleButtonClass = "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100";
export const dangerButtonClass = "rounded-md border border-rose-300 px-3 py-1.5 text-sm text-rose-700 hover:bg-rose-50";
