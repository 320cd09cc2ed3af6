// One prompt on several engines, on its signed-in page and on its share page alike: the prompt,
// its market, date and status, and each engine's run as a card with the start of its answer, what
// it cited and searched. The signed-in page links each card to the run's page; a share page, which
// shows no run of its own, has each answer in full below with its sources and searches.
import type { ReactNode } from "react";
import { promptResultOf } from "@/lib/schemas/results";
import type { Batch, Run } from "@/lib/schemas/runs";
import { Email, Notice } from "../../_components/ui";
import { MarketLine } from "../../(research)/_components/market";
import { excerpt, plainAnswer } from "../_lib/answer";
import { engineName, promptOfInput, when } from "../_lib/view";
import { Tag, statusTone } from "./bits";
import { placementOf, RunFindings } from "./run-view";


function RunCard({ run, href, pending }: { run: Run; href: string; pending?: ReactNode }) {
  const result = promptResultOf(run.result);
  const cited = result?.sources.filter((s) => s.cited === true).length ?? 0;
  const internal = href.startsWith("#");
  return (
    <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="batch-run" data-status={run.status} data-engine={run.engine ?? ""}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">{engineName(run.engine)}</h2>
        <Tag tone={statusTone(run.status)}>{run.status}</Tag>
      </div>
      {run.model ? <p className="text-xs text-slate-500">{run.model}</p> : null}
      {result ? (
        <>
          <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-700">{excerpt(plainAnswer(result.answer), 320) || "The engine gave an empty answer."}</p>
          <p className="mt-2 text-xs text-slate-500">
            {cited} cited · {result.sources.length} sources · {result.searches.length} searches
            {run.charge ? ` · $${run.charge.amount_usd}` : ""}
          </p>
        </>
      ) : run.status === "failed" ? (
        <div className="mt-2 flex-1">
          <Notice tone="error">{run.error?.message ?? "The run failed."}</Notice>
        </div>
      ) : (
        <div className="mt-2 flex-1 text-sm text-slate-500">{pending ?? (run.status === "queued" ? "Waiting for its turn…" : "Asking the engine…")}</div>
      )}
      {internal && !result ? null : (
        <a href={href} className="mt-3 text-sm font-medium text-indigo-700 hover:underline" data-testid="open-run">
          {result ? `Read the answer and its sources ${internal ? "↓" : "→"}` : "Open the run →"}
        </a>
      )}
    </li>
  );
}

export function BatchView({
  batch,
  runs,
  heading,
  lead,
  runHref,
  pending,
}: {
  batch: Batch;
  runs: Run[];
  /** Under the date and status (the signed-in page: its live refresh). */
  heading?: ReactNode;
  /** Between the heading and the runs (the signed-in page's share control). */
  lead?: ReactNode;
  /** Where a run opens; without it each answer is shown in full on this page. */
  runHref?: (runId: string) => string;
  /** What an unfinished run's card says (the signed-in page: where its engine call is). */
  pending?: (run: Run) => ReactNode;
}) {
  return (
    <>
      <div className="mb-6">
        <p className="text-sm font-medium text-indigo-700">A prompt on {runs.length === 1 ? "one engine" : `${runs.length} engines`}</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight break-words whitespace-pre-line sm:text-2xl">{promptOfInput(batch.input)}</h1>
        <MarketLine input={batch.input} className="mt-2" />
        <p className="mt-2 text-sm text-slate-500">
          {when(batch.created_at)}
          {batch.created_by ? (
            <>
              {" · "}
              <span data-testid="batch-by">
                by <Email address={batch.created_by} />
              </span>
            </>
          ) : null}{" "}
          · <Tag tone={batch.status === "partial" ? "amber" : statusTone(batch.status)}>{batch.status}</Tag>
        </p>
        {heading}
      </div>
      {lead}
      <ul className="grid gap-4 md:grid-cols-2" data-testid="batch-runs">
        {runs.map((run) => (
          <RunCard key={run.id} run={run} href={runHref ? runHref(run.id) : `#${placementOf(run).id("answer")}`} pending={pending?.(run)} />
        ))}
      </ul>
      {runHref
        ? null
        : runs
            .filter((run) => promptResultOf(run.result))
            .map((run) => (
              <div key={run.id} className="mt-10" data-testid="batch-answer" data-engine={run.engine ?? ""}>
                <RunFindings run={run} at={placementOf(run)} />
              </div>
            ))}
    </>
  );
}
