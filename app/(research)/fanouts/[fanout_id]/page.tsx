// A fanout: its status, counts and cost; the prompt × engine matrix of run progress and query
// counts; per prompt and engine, the distinct queries the engine searched with how many runs
// issued each (the share page's FanoutView); the same as CSV; and its share control. Updates as
// its runs end.
import type { Metadata } from "next";
import { cache } from "react";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getFanout } from "@/lib/fanouts/read";
import { queryReportOf } from "@/lib/fanouts/present";
import { getProject } from "@/lib/projects/read";
import { progressOfAll } from "@/lib/research/progress";
import { getShareStatus } from "@/lib/shares/read";
import { Section } from "../../../_components/ui";
import { FANOUT_FINISHED, FanoutView } from "../../../s/_components/fanout-view";
import { ResearchPage, type Crumb } from "../../_components/frame";
import { CitationSelection } from "../../_components/start-forms";
import { CompareEnginesForm } from "../../_components/compare-form";
import { LiveRefresh } from "../../_components/live";
import { ShareControl } from "../../_components/share-control";
import { orNotFound } from "../../_lib/load";
import { plural } from "@/lib/text";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ fanout_id: string }> };

const load = cache(async (fanoutId: string) => {
  const principal = await requireSessionPrincipal(`/fanouts/${fanoutId}`);
  const fanout = await orNotFound(getFanout(principal, fanoutId));
  return { principal, fanout, report: queryReportOf(fanout) };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { fanout } = await load((await params).fanout_id);
  return { title: `${fanout.name} · fanout · geoscope` };
}


export default async function FanoutPage({ params }: Props) {
  const { fanout_id } = await params;
  const { principal, fanout, report } = await load(fanout_id);
  const finished = FANOUT_FINISHED.has(fanout.status);
  const [project, share, since] = await Promise.all([
    fanout.project_id ? orNotFound(getProject(principal, fanout.project_id)) : null,
    getShareStatus(principal, "fanout", fanout.id),
    finished ? "" : progressOfAll(principal, [fanout.id]).then((p) => p.signature),
  ]);
  const completedRuns = fanout.prompts.flatMap((p) => p.engines.flatMap((e) => e.runs.filter((r) => r.status === "completed").map((r) => r.run_id)));
  const crumbs: Crumb[] = [...(project ? [{ href: `/projects/${project.id}`, label: project.name }] : []), { href: `/fanouts/${fanout.id}`, label: fanout.name }];

  return (
    <ResearchPage crumbs={crumbs} wide>
      <FanoutView
        fanout={fanout}
        report={report}
        runHref={(id) => `/runs/${id}`}
        analysisHref={(id) => `/analyses/${id}`}
        heading={
          <>
            <p className="mt-1 text-sm text-slate-600" data-testid="fanout-cost">
              {fanout.charged_usd === null || fanout.charged_usd === undefined ? (
                "Billing is off on this server: nothing is charged."
              ) : (
                <>
                  Charged <span className="font-medium tabular-nums">${fanout.charged_usd}</span>
                  {fanout.held_usd && !finished ? (
                    <>
                      {" "}
                      · still held for unfinished runs <span className="tabular-nums">${fanout.held_usd}</span>
                    </>
                  ) : null}
                </>
              )}
            </p>
            <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
              {finished ? <span /> : <LiveRefresh ids={[fanout.id]} since={since} />}
              <span className="flex flex-wrap gap-2">
                <a href={`/monitors/new?from=${fanout.id}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="track-prompts">
                  Track these prompts
                </a>
                <a href={`/fanouts/${fanout.id}/queries.csv`} download className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="queries-csv">
                  Download queries (CSV)
                </a>
              </span>
            </div>
          </>
        }
        lead={<ShareControl kind="fanout" id={fanout.id} finished={finished} initial={{ shared: share.shared, url: share.shared ? (share.share?.url ?? null) : null }} />}
      />
      {completedRuns.length > 0 && fanout.project_id ? (
        <Section id="citations" title="What these answers cited, and whom they name">
          <CitationSelection
            project={fanout.project_id}
            disabled={false}
            divided={false}
            label="Analyse citations of this fanout"
            visibilityLabel="Analyse visibility"
            note={`${plural(completedRuns.length, "completed run", "completed runs")}${finished ? "" : " so far"}; free, from stored answers.`}
          >
            {completedRuns.map((id) => (
              <input key={id} type="hidden" name="ids" value={id} />
            ))}
          </CitationSelection>
        </Section>
      ) : null}
      {completedRuns.length > 0 && fanout.project_id && fanout.engines.length > 1 ? (
        <Section id="compare" title="How far apart the engines are" description="The same prompts on two engines: the brands each names, the pages each cites, the searches, the order.">
          <CompareEnginesForm project={fanout.project_id} ids={[fanout.id]} engines={fanout.engines} note="Free, from stored answers; tracks the project's brands and competitors. Prompts only one engine answered are left out and listed." />
        </Section>
      ) : null}
    </ResearchPage>
  );
}
