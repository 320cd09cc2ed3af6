// Small pieces the share views have in common: the heading block, facts, tags, links out, tables
// that scroll inside their box on a phone, and the footer.
import { useId, type ReactNode } from "react";
import { Notice, Section } from "../../_components/ui";

/** Links to pages the engines named: no referrer, no endorsement. */
export const OUT_REL = "noopener noreferrer nofollow ugc";

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** A link out to a page an engine named; anything that is not an http(s) URL stays text. */
export function OutLink({ href, children, className, title, testId }: { href: string; children: ReactNode; className?: string; title?: string; testId?: string }) {
  if (!isWebUrl(href)) return <span className={className}>{children}</span>;
  return (
    <a href={href} rel={OUT_REL} target="_blank" className={className} title={title} data-testid={testId}>
      {children}
    </a>
  );
}

export function ShareHeading({ kicker, title, children }: { kicker: string; title: ReactNode; children?: ReactNode }) {
  return (
    <div className="mb-8">
      <p className="text-sm font-medium text-indigo-700">{kicker}</p>
      <h1 className="mt-1 text-xl font-semibold tracking-tight break-words whitespace-pre-line sm:text-2xl">{title}</h1>
      {children}
    </div>
  );
}

/**
 * What an object's page leads with: its `summary` (lib/words), the figures in plain words, one
 * sentence a line, under an optional label ("Last tick, …").
 */
export function SummaryLead({ sentences, label }: { sentences: readonly string[]; label?: ReactNode }) {
  if (sentences.length === 0) return null;
  return (
    <div className="mt-3 max-w-3xl border-l-4 border-indigo-200 pl-3 text-slate-800" data-testid="summary">
      {label ? <p className="text-sm text-slate-500">{label}</p> : null}
      {sentences.map((sentence, i) => (
        <p key={i} className="mt-1 wrap-anywhere" data-testid="summary-sentence">
          {sentence}
        </p>
      ))}
    </div>
  );
}

/** Label–value pairs in a wrapping row. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const TAG_TONES = {
  slate: "bg-slate-100 text-slate-700",
  indigo: "bg-indigo-50 text-indigo-700",
  emerald: "bg-emerald-50 text-emerald-700",
  amber: "bg-amber-50 text-amber-800",
  rose: "bg-rose-50 text-rose-700",
};

export function Tag({ children, tone = "slate" }: { children: ReactNode; tone?: keyof typeof TAG_TONES }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${TAG_TONES[tone]}`}>{children}</span>;
}

export function statusTone(status: string | null): keyof typeof TAG_TONES {
  return status === "completed" ? "emerald" : status === "failed" ? "rose" : "amber";
}

export type Column = { label: string; text?: boolean };

/** Why a run or analysis failed, as its public error says. */
export function Failure({ what, message }: { what: string; message: string | null | undefined }) {
  return (
    <div className="mb-10">
      <Notice tone="error">
        <span className="font-medium">{what} failed.</span> {message ?? "No reason was recorded."}
      </Notice>
    </div>
  );
}

/** A label as a CSS string: every character but letters, digits and spaces escaped, so no text closes the style it is in. */
const cssString = (text: string) => `"${[...text].map((c) => (/[A-Za-z0-9 ]/.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join("")}"`;

/**
 * A table for every width. On a phone each row is a block of its cells, each under its column's
 * label (a style of its own, drawn on the server), so nothing scrolls sideways; the title column's
 * cell (`title`, the first by default) heads the block. Wider, a table wider than its box scrolls
 * inside it, with shadows at the edge that hides columns and a line saying so (globals.css
 * `.scroll-table`). Numbers align right, `text` columns left.
 */
export function ScrollTable({ columns, children, label, title = 0 }: { columns: Column[]; children: ReactNode; label: string; title?: number }) {
  const key = useId().replace(/[^A-Za-z0-9]/g, "");
  const labels = columns
    .map((c, i) => (i === title ? `[data-table="${key}"] td:nth-child(${i + 1}){display:block;font-weight:500}` : `[data-table="${key}"] td:nth-child(${i + 1})::before{content:${cssString(c.label)}}`))
    .join("");
  return (
    <div className="scroll-table" role="region" aria-label={label} tabIndex={0} data-table={key}>
      <style>{`@media (max-width: 639.98px){${labels}}`}</style>
      <p className="scroll-table-hint" aria-hidden="true">
        Wider than the page: scroll sideways for the other columns →
      </p>
      <table className="min-w-full text-left text-sm">
        <thead className="text-slate-500">
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={`py-1.5 pr-4 align-bottom font-medium last:pr-0 ${i > 0 && !c.text ? "text-right" : ""}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="[&_td]:border-t [&_td]:border-slate-100 [&_td]:py-1.5 [&_td]:pr-4 [&_td]:align-top [&_td:last-child]:pr-0">{children}</tbody>
      </table>
    </div>
  );
}

const EXCLUSIONS: Record<string, string> = {
  unfinished: "unfinished when analysed",
  failed: "failed",
  not_a_prompt_run: "not a prompt run",
  duplicate: "named twice",
  no_answer: "an empty answer",
  other_engine: "an engine not compared",
  one_engine_only: "its prompt answered by one engine only",
};

/** An analysis's runs left out, each with why (and a link to it where the reader may open runs). */
export function ExcludedRuns({ excluded, runLink }: { excluded: readonly { run_id: string; reason: string }[]; runLink?: (id: string) => string }) {
  if (excluded.length === 0) return null;
  return (
    <Section id="excluded" title="Runs left out" description="Named in the analysis but not counted.">
      <ul className="space-y-1 text-sm" data-testid="excluded-runs">
        {excluded.map((e, i) => (
          <li key={`${e.run_id}-${i}`} className="flex flex-wrap gap-x-2">
            {runLink ? (
              <a href={runLink(e.run_id)} className="font-mono text-xs text-indigo-700 hover:underline">
                {e.run_id}
              </a>
            ) : (
              <span className="font-mono text-xs">{e.run_id}</span>
            )}
            <span className="text-slate-600">{EXCLUSIONS[e.reason] ?? e.reason}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A right-aligned number cell. */
export function Num({ children }: { children: ReactNode }) {
  return <td className="text-right whitespace-nowrap tabular-nums">{children}</td>;
}

export function ShareFooter({ token }: { token: string }) {
  return (
    <footer className="mt-10 border-t border-slate-200 pt-4 text-sm text-slate-500">
      <p>
        A read-only copy shared by link. Whoever shared it can revoke or replace the link at any time, and then this page stops working.
      </p>
      <p className="mt-1">
        The same data as{" "}
        <a href={`/s/${token}.json`} className="underline hover:text-slate-700" rel="nofollow">
          JSON
        </a>
        .
      </p>
    </footer>
  );
}
