// A judged visibility analysis's own part of its page (decisions.md "Judged visibility"): who
// judged and how much of it the checks threw away, the progress while the judge works, sentiment
// bars per entity with their quotes (every one found verbatim in its answer), and the discovered
// competitors; on the signed-in page each with one click to track it in the project (`track`),
// on the public page without.
import type { ReactNode } from "react";
import type { z } from "zod";
import type { VisibilityAnalysis } from "@/lib/schemas/visibility";
import { kappa, percent, percentRange } from "@/lib/words/format";
import { tone } from "@/lib/words/sentences";
import { Notice, Section } from "../../_components/ui";
import { Facts, Tag } from "./bits";
import { engineName } from "../_lib/view";

type Analysis = z.output<typeof VisibilityAnalysis>;

const TONE = { positive: "emerald", neutral: "slate", negative: "rose" } as const;

export function JudgedSections({
  analysis,
  tracked,
  track,
  live,
  added,
  runLink,
}: {
  analysis: Analysis;
  /** The project's brands and competitors, lower-cased (signed in), or null (public page). */
  tracked: string[] | null;
  /** The form that adds a discovered name to the project's competitors (signed in). */
  track?: (name: string) => ReactNode;
  live?: ReactNode;
  added?: { name: string; outcome: string } | null;
  runLink?: (id: string) => string;
}) {
  const judge = analysis.judge;
  if (!judge) return null;
  const pending = analysis.status === "queued" || analysis.status === "running";
  const facts: Array<[string, ReactNode]> = [
    ["Judge", `${engineName(judge.engine)}${judge.model ? ` · ${judge.model}` : ""}`],
    ["Runs judged", `${judge.runs_judged} of ${judge.runs}`],
    ["Quotes rejected", String(judge.quotes_rejected)],
    ...(judge.discover ? ([["Names dropped", String(judge.names_dropped)]] as Array<[string, ReactNode]>) : []),
    ["Prompt", <span key="p" title={judge.prompt_sha}>v{judge.prompt_version} · sha256 {judge.prompt_sha.slice(0, 12)}…</span>],
    ...(analysis.agreement
      ? ([["Agreement with the rules", `${analysis.agreement.agreeing} of ${analysis.agreement.runs} runs · Cohen's kappa ${kappa(analysis.agreement.kappa)}`]] as Array<[string, ReactNode]>)
      : []),
    ...(analysis.charge ? ([["Charge", `$${analysis.charge.amount_usd} (${analysis.charge.status}, ${analysis.charge.units} runs)`]] as Array<[string, ReactNode]>) : []),
  ];
  return (
    <div data-testid="judged">
      <Section
        id="judge"
        title="Judged by an answer engine"
        description="Every judgement carries a quote that must occur word for word in the answer; quotes that do not are thrown away, and so are names the answer does not contain."
      >
        <Facts items={facts} />
        {pending ? (
          <div className="mt-4" data-testid="judge-pending">
            <Notice tone="info">
              {analysis.status === "queued" ? "Waiting for its turn: " : "Judging: "}
              {judge.runs_done} of {judge.runs} runs done. The figures above are the rules&apos;; sentiment and discovered names appear here when the judge has finished.
            </Notice>
            {live ? <div className="mt-2">{live}</div> : null}
          </div>
        ) : null}
        {judge.runs_not_judged.length ? (
          <details className="mt-4 text-sm" data-testid="not-judged">
            <summary className="cursor-pointer text-slate-700">
              {judge.runs_not_judged.length} {judge.runs_not_judged.length === 1 ? "run" : "runs"} not judged (not charged)
            </summary>
            <ul className="mt-2 space-y-1">
              {judge.runs_not_judged.map((x) => (
                <li key={x.run_id} className="break-words">
                  {runLink ? (
                    <a href={runLink(x.run_id)} className="font-mono text-indigo-700 hover:underline">
                      {x.run_id}
                    </a>
                  ) : (
                    <span className="font-mono">{x.run_id}</span>
                  )}
                  : {x.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </Section>

      {analysis.rows.some((r) => r.sentiment) ? (
        <Section id="sentiment" title="Sentiment" description="How the answers speak of each entity, per judged run that mentions it. Score: positive / (positive + negative), with its 95% interval.">
          <ul className="space-y-6">
            {analysis.rows.map((row) => (row.sentiment ? <SentimentRow key={row.name} name={row.name} role={row.role} s={row.sentiment} runLink={runLink} /> : null))}
          </ul>
        </Section>
      ) : null}

      {analysis.discovered ? (
        <Section id="discovered" title="Discovered competitors" description={`Brands and products the answers name that this analysis does not track, over ${judge.runs_judged} judged runs.`}>
          {added ? (
            <div className="mb-4" data-testid="competitor-outcome">
              <Notice tone={added.outcome === "refused" ? "error" : "success"}>
                {added.outcome === "added"
                  ? `${added.name} is now a competitor of the project: the next analyses track it.`
                  : added.outcome === "tracked"
                    ? `${added.name} is already tracked by the project.`
                    : `${added.name} could not be added to the project's competitors.`}
              </Notice>
            </div>
          ) : null}
          {analysis.discovered.length === 0 ? (
            <p className="text-sm text-slate-600">The answers name no other brand or product.</p>
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="discovered-list">
              {analysis.discovered.map((d) => {
                const known = tracked?.includes(d.name.toLowerCase()) ?? false;
                return (
                  <li key={d.name} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2">
                    <span className="min-w-32 flex-1 font-medium break-words">{d.name}</span>
                    <span className="text-sm text-slate-700 tabular-nums">
                      {d.runs_mentioning} of {judge.runs_judged} runs · {percent(d.visibility)}{" "}
                      <span className="text-slate-500">({percentRange(d.visibility_interval)})</span>
                    </span>
                    {tracked ? known ? <Tag tone="emerald">tracked</Tag> : track?.(d.name) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </Section>
      ) : null}
    </div>
  );
}

function SentimentRow({ name, role, s, runLink }: { name: string; role: string; s: NonNullable<Analysis["rows"][number]["sentiment"]>; runLink?: (id: string) => string }) {
  const total = s.positive + s.neutral + s.negative;
  const share = (k: number) => (total === 0 ? 0 : (k / total) * 100);
  return (
    <li data-testid="sentiment-row">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4">
        <span className="font-medium">
          {name} <span className="text-xs font-normal text-slate-500">{role}</span>
        </span>
        <span className="text-sm text-slate-700 tabular-nums" data-testid="sentiment-words">
          {/* Counts first: a score over the few answers that take a side reads "100%" for 2 positives of 18. */}
          {tone(name, s)?.replace(/^Judged for tone, /, "").replace(/\.$/, "") ?? "no judged answer names it"}
          {s.score === null ? null : (
            <span className="text-slate-500">
              {" "}
              · of the {s.positive + s.negative} taking a side, {percent(s.score)} positive (95% {percentRange(s.score_interval)})
            </span>
          )}
        </span>
      </div>
      <div
        className="mt-1 flex h-3 w-full overflow-hidden rounded bg-slate-100"
        role="img"
        aria-label={`${name}: ${s.positive} positive, ${s.neutral} neutral, ${s.negative} negative of ${s.runs_judged} judged runs`}
      >
        <div className="bg-emerald-500" style={{ width: `${share(s.positive)}%` }} />
        <div className="bg-slate-400" style={{ width: `${share(s.neutral)}%` }} />
        <div className="bg-rose-500" style={{ width: `${share(s.negative)}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600 tabular-nums">
        {s.positive} positive · {s.neutral} neutral · {s.negative} negative · of {s.runs_judged} judged runs
      </p>
      {s.quotes.length ? (
        <ul className="mt-2 space-y-1">
          {s.quotes.map((q, i) => (
            <li key={`${q.run_id}-${i}`} className="flex flex-wrap items-start gap-2 text-sm">
              <Tag tone={TONE[q.sentiment]}>{q.sentiment}</Tag>
              <blockquote className="min-w-0 flex-1 border-l-2 border-slate-200 pl-2 break-words text-slate-800">“{q.quote}”</blockquote>
              {runLink ? (
                <a href={runLink(q.run_id)} className="text-xs text-indigo-700 hover:underline">
                  {q.engine ? engineName(q.engine) : "run"}
                </a>
              ) : (
                <span className="text-xs text-slate-500">{q.engine ? engineName(q.engine) : ""}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
