// One prompt on several engines, signed in: each engine's run as it finishes (without reloading),
// with the start of its answer, what it cited and searched, and the way to the full run (the share
// page's BatchView); its share control; and, once an answer is in, a citation or visibility
// analysis of them.
import type { Metadata } from "next";
import { cache } from "react";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getProject } from "@/lib/projects/read";
import { engineAttemptsOf, progressOfAll } from "@/lib/research/progress";
import { getBatch } from "@/lib/runs/read";
import { isFinished } from "@/lib/runs/status";
import { PromptBatch } from "@/lib/schemas/runs";
import { getShareStatus } from "@/lib/shares/read";
import { BatchView } from "../../../s/_components/batch-view";
import { excerpt } from "../../../s/_lib/answer";
import { engineName, promptOfInput } from "../../../s/_lib/view";
import { EngineAttempt } from "../../_components/engine-attempt";
import { ResearchPage } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { ShareControl } from "../../_components/share-control";
import { orNotFound } from "../../_lib/load";
import { CitationSelection } from "../../_components/start-forms";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ batch_id: string }> };

const loadBatch = cache(async (batch_id: string) => {
  const principal = await requireSessionPrincipal(`/batches/${batch_id}`);
  const { batch, runs } = PromptBatch.parse(await orNotFound(getBatch(principal, batch_id)));
  return { principal, batch, runs };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { batch } = await loadBatch((await params).batch_id);
  return { title: `${excerpt(promptOfInput(batch.input), 60)} · geoscope` };
}

export default async function BatchPage({ params }: Props) {
  const { principal, batch, runs } = await loadBatch((await params).batch_id);
  const unfinished = runs.some((r) => !isFinished(r.status));
  const [project, progress, attempts, share] = await Promise.all([
    batch.project_id ? orNotFound(getProject(principal, batch.project_id)) : null,
    unfinished ? progressOfAll(principal, [batch.id]) : null,
    engineAttemptsOf(principal, runs.filter((r) => r.status === "running").map((r) => r.id)),
    getShareStatus(principal, "batch", batch.id),
  ]);
  const renderedAt = new Date().toISOString();
  return (
    <ResearchPage crumbs={[...(project ? [{ href: `/projects/${project.id}`, label: project.name }] : []), { href: `/batches/${batch.id}`, label: "Prompt" }]}>
      <BatchView
        batch={batch}
        runs={runs}
        runHref={(id) => `/runs/${id}`}
        heading={
          progress ? (
            <div className="mt-3">
              <LiveRefresh ids={[batch.id]} since={progress.signature} />
            </div>
          ) : null
        }
        lead={<ShareControl kind="batch" id={batch.id} finished={!unfinished} initial={{ shared: share.shared, url: share.shared ? (share.share?.url ?? null) : null }} />}
        pending={(run) => (attempts.get(run.id) ? <EngineAttempt view={attempts.get(run.id)!} engine={engineName(run.engine)} renderedAt={renderedAt} /> : undefined)}
      />
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
