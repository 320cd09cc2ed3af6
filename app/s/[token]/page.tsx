// A shared run, analysis, fanout, prompt batch or monitor (a live dashboard of its series), read-only and without an account (decisions.md
// "Sharing"), with the same views as the signed-in pages. Server rendered with no client
// components, so it reads with JavaScript off.
import { ComparisonView } from "../_components/comparison-view";
import { OpportunitiesView } from "../_components/opportunities-view";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuditView } from "../_components/audit-view";
import { BatchView } from "../_components/batch-view";
import { FanoutView } from "../_components/fanout-view";
import { CitationsView } from "../_components/citations-view";
import { GenericView } from "../_components/generic-view";
import { QuestionsView } from "../_components/questions-view";
import { RunView } from "../_components/run-view";
import { ShareFooter } from "../_components/bits";
import { previewOf, shareOf, viewOf } from "../_lib/view";
import { VisibilityView } from "../_components/visibility-view";
import { JudgedSections } from "../_components/judged-view";
import { MonitorView } from "../_components/monitor-view";
import { chartAlerts } from "@/lib/alerts/read";
import { monitorDashboard, versionAsked } from "@/lib/monitors/dashboard";
import { linksAt, visibilityEvidence } from "../_lib/visibility";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function viewOrNotFound(params: Props["params"]) {
  const { token } = await params;
  const shared = await shareOf(token);
  if (!shared) notFound();
  return { token, view: viewOf(shared) };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { view } = await viewOrNotFound(params);
  const { title, description } = previewOf(view);
  return {
    title,
    description,
    openGraph: { title, description, type: "article", siteName: "geoscope" },
    twitter: { card: "summary", title, description },
  };
}

export default async function SharePage({ params, searchParams }: Props) {
  const { token, view } = await viewOrNotFound(params);
  const evidence = view.kind === "visibility" ? await visibilityEvidence({ shared: true }, view.analysis, await searchParams, `/s/${token}`) : null;
  // The monitor was read through the working share: its series and chart alerts are read by its id.
  const query = await searchParams;
  const version = versionAsked(typeof query.version === "string" ? query.version : undefined);
  const trends = view.kind === "monitor" ? await Promise.all([monitorDashboard(view.monitor.id, version), chartAlerts(view.monitor.id)]) : null;
  if (trends && !trends[0]) notFound();
  return (
    <main>
      {view.kind === "prompt_run" ? (
        <RunView run={view.run} />
      ) : view.kind === "audit_run" ? (
        <AuditView run={view.run} />
      ) : view.kind === "questions" ? (
        <QuestionsView analysis={view.analysis} />
      ) : view.kind === "citations" ? (
        <CitationsView analysis={view.analysis} />
      ) : view.kind === "fanout" ? (
        <FanoutView fanout={view.fanout} report={view.report} />
      ) : view.kind === "batch" ? (
        <BatchView batch={view.batch} runs={view.runs} />
      ) : view.kind === "visibility" ? (
        <VisibilityView
          analysis={view.analysis}
          evidence={evidence!}
          links={linksAt(`/s/${token}`)}
          lead={view.analysis.judge ? <JudgedSections analysis={view.analysis} tracked={null} /> : null}
        />
      ) : view.kind === "comparison" ? (
        <ComparisonView analysis={view.analysis} />
      ) : view.kind === "opportunities" ? (
        <OpportunitiesView analysis={view.analysis} />
      ) : view.kind === "monitor" ? (
        <MonitorView monitor={view.monitor} dashboard={trends![0]!} alerts={trends![1]} base={`/s/${token}`} />
      ) : (
        <GenericView summary={view.summary} />
      )}
      <ShareFooter token={token} />
    </main>
  );
}
