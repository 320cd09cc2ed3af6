"use client";
// "Audit these pages" on an opportunity list's page: tick citation targets or own pages, see what
// auditing them costs (the rate card's price per page times the pages ticked) and the credit
// available before anything starts, then start a page audit of each. The runs started are linked
// in place; a refusal (a 402 too) is said in words.
import { useState } from "react";
import { formatUsd } from "@/lib/billing/money";
import type { AuditQuote } from "@/lib/opportunities/audit";
import { useFormAction } from "../../../_components/form-action";
import { buttonClass, Notice } from "../../../_components/ui";
import { CreditLine } from "../../_components/start-forms";
import { auditPagesAction, type AuditPagesState } from "./actions";

const IDLE: AuditPagesState = { ok: true };

export type AuditablePage = { url: string; why: string };

export function AuditPagesForm({ list, pages, quote, limit }: { list: string; pages: AuditablePage[]; quote: AuditQuote; limit: number }) {
  const { state, pending, form } = useFormAction(auditPagesAction, IDLE);
  const [ticked, setTicked] = useState<string[]>([]);
  const total = BigInt(quote.unit_price_micros) * BigInt(ticked.length);
  const sufficient = quote.available_micros === null ? null : BigInt(quote.available_micros) >= total;
  const toggle = (url: string, on: boolean) => setTicked((t) => (on ? [...t, url] : t.filter((u) => u !== url)));
  const pagesWord = `${ticked.length} ${ticked.length === 1 ? "page" : "pages"}`;
  return (
    <form {...form} className="space-y-3 text-sm" data-testid="audit-pages-form">
      <input type="hidden" name="analysis_id" value={list} />
      <p className="text-slate-700">
        A page audit checks whether answer engines can reach, read and cite a page. Tick up to {limit} pages; each is audited once, as its own run.
      </p>
      <fieldset className="grid gap-1">
        <legend className="mb-1 font-medium">Pages</legend>
        {pages.map((p) => (
          <label key={p.url} className="flex min-w-0 items-baseline gap-2">
            <input
              type="checkbox"
              name="url"
              value={p.url}
              checked={ticked.includes(p.url)}
              onChange={(e) => toggle(p.url, e.currentTarget.checked)}
              disabled={!ticked.includes(p.url) && ticked.length >= limit}
              className="h-4 w-4 shrink-0 translate-y-0.5 accent-indigo-600"
            />
            <span className="min-w-0 flex-1">
              <span className="wrap-anywhere">{p.url}</span> <span className="text-xs text-slate-500">{p.why}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="audit-estimate">
        <p className="flex flex-wrap justify-between gap-x-3 font-medium">
          <span>
            {pagesWord} × ${quote.unit_price_usd}
          </span>
          <span className="tabular-nums" data-testid="audit-total">
            ${formatUsd(total)}
          </span>
        </p>
        <CreditLine billing={quote.billing_enabled} available={quote.available_usd} sufficient={sufficient} />
        <p className="mt-1 text-xs text-slate-500">Held when they start, charged per page audited. Prices {quote.pricing_version}.</p>
      </div>
      <button type="submit" className={buttonClass} disabled={pending || ticked.length === 0} data-testid="start-audits">
        {pending ? "Starting…" : ticked.length === 0 ? "Audit these pages" : `Audit ${pagesWord} for $${formatUsd(total)}`}
      </button>
      {!state.ok && state.message ? (
        <div data-testid="audit-refusal">
          <Notice tone="error">
            {state.message}
            {state.needsCredit ? (
              <>
                {" "}
                <a href="/account#billing" className="font-medium underline">
                  Go to billing
                </a>
              </>
            ) : null}
          </Notice>
        </div>
      ) : null}
      {state.ok && state.runs?.length ? (
        <div data-testid="audits-started">
          <Notice tone="success">
            Started {state.runs.length} {state.runs.length === 1 ? "audit" : "audits"}:{" "}
            {state.runs.map((id, i) => (
              <span key={id}>
                {i > 0 ? ", " : ""}
                <a href={`/runs/${id}`} className="font-mono underline">
                  {id}
                </a>
              </span>
            ))}
          </Notice>
        </div>
      ) : null}
    </form>
  );
}
