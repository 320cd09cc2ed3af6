// One prompt on several engines, signed in: each engine's run as it finishes (without reloading),
// with the start of its answer, what it cited and searched, and the way to the full run; once an
// answer is in, a citation or visibility analysis of them.
import type { Metadata } from "next";
import { cache } from "react";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getProject } from "@/lib/projects/projects";
import { engineAttemptsOf, progressOfAll } from "@/lib/research/progress";
import { getBatch } from "@/lib/runs/batches";
import { isFinished } from "@/lib/runs/status";
import { promptResultOf } from "@/lib/schemas/results";
import { PromptBatch } from "@/lib/schemas/runs";
import { Notice } from "../../../_components/ui";
import { Tag, statusTone } from "../../../s/_components/bits";
import { excerpt, plainAnswer } from "../../../s/_lib/answer";
import { engineName, when } from "../../../s/_lib/view";
import { EngineAttempt } from "../../_components/engine-attempt";
import { ResearchPage } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { orNotFound } from "../../_lib/load";
import { MarketLine } from "../../_components/market";
import { CitationSelection } from "../../_components/start-forms";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ batch_id: string }> };

const loadBatch = cache(async (batch_id: string) => {
  const principal = await requireSessionPrincipal(`/batches/${batch_id}`);
  const { batch, runs } = PromptBatch.parse(await orNotFound(getBatch(principal, batch_id)));
  return { principal, batch, runs };
});

const promptOfBatch = (input: Record<string, unknown>) => (typeof input.prompt === "string" ? input.prompt : "(no prompt)");

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { batch } = await loadBatch((await params).batch_id);
  return { title: `${excerpt(promptOfBatch(batch.input), 60)} · geoscope` };
}

export default async function BatchPage({ params }: Props) {
  const { principal, batch, runs } = await loadBatch((await params).batch_id);
  const unfinished = runs.some((r) => !isFinished(r.status));
  const [project, progress, attempts] = await Promise.all([
    batch.project_id ? orNotFound(getProject(principal, batch.project_id)) : null,
    unfinished ? progressOfAll(principal, [batch.id]) : null,
    engineAttemptsOf(principal, runs.filter((r) => r.status === "running").map((r) => r.id)),
  ]);
  const renderedAt = new Date().toISOString();
  const prompt = promptOfBatch(batch.input);
  return (
    <ResearchPage crumbs={[...(project ? [{ href: `/projects/${project.id}`, label: project.name }] : []), { href: `/batches/${batch.id}`, label: "Prompt" }]}>
      <div className="mb-6">
        <p className="text-sm font-medium text-indigo-700">A prompt on {runs.length === 1 ? "one engine" : `${runs.length} engines`}</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight break-words whitespace-pre-line sm:text-2xl">{prompt}</h1>
        <MarketLine input={batch.input} className="mt-2" />
        <p className="mt-2 text-sm text-slate-500">
          {when(batch.created_at)}
          {batch.created_by ? ` · by ${batch.created_by}` : ""} · <Tag tone={batch.status === "partial" ? "amber" : statusTone(batch.status)}>{batch.status}</Tag>
        </p>
        {progress ? (
          <div className="mt-3">
            <LiveRefresh ids={[batch.id]} since={progress.signature} />
          </div>
        ) : null}
      </div>
      <ul className="grid gap-4 md:grid-cols-2" data-testid="batch-runs">
        {runs.map((run) => {
          const result = promptResultOf(run.result);
          const cited = result?.sources.filter((s) => s.cited === true).length ?? 0;
          return (
            <li key={run.id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="batch-run" data-status={run.status}>
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
                <div className="mt-2 flex-1 text-sm text-slate-500">
                  {attempts.get(run.id) ? (
                    <EngineAttempt view={attempts.get(run.id)!} engine={engineName(run.engine)} renderedAt={renderedAt} />
                  ) : run.status === "queued" ? (
                    "Waiting for its turn…"
                  ) : (
                    "Asking the engine…"
                  )}
                </div>
              )}
              <a href={`/runs/${run.id}`} className="mt-3 text-sm font-medium text-indigo-700 hover:underline" data-testid="open-run">
                {result ? "Read the answer and its sources →" : "Open the run →"}
              </a>
            </li>
          );
        })}
      </ul>
      {batch.project_id && runs.some((r) => r.status === "completed") ? (
        <div className="mt-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="batch-analyses">
          <h2 className="mb-2 font-semibold">Analyse these answers</h2>
          <CitationSelection
            project={batch.project_id}
            disabled={false}
            divided={false}
            label="Analyse citations"
            visibilityLabel="Analyse visibility"
            note={`${runs.filter((r) => r.status === "completed").length} completed ${runs.filter((r) => r.status === "completed").length === 1 ? "answer" : "answers"}; visibility tracks the project's brands and competitors; free, from stored answers.`}
          >
            <input type="hidden" name="ids" value={batch.id} />
          </CitationSelection>
        </div>
      ) : null}
    </ResearchPage>
  );
}
