// "Track these prompts": a new monitor of a fanout's prompts or of a questions cluster's, or "New
// monitor" of a project (?from=pr_…) with prompts typed in the form and a market; its brands and
// competitors the project's (frozen when it is created). Lists the prompts (or takes them), then
// the schedule, engines, repeats and budget to choose.
import type { Metadata } from "next";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { engineConfig } from "@/lib/config/engines";
import { ApiError } from "@/lib/http/errors";
import { MONITOR_LIMITS } from "@/lib/schemas/monitors";
import { getProject } from "@/lib/projects/read";
import { entitiesFromContext, type EntityContext } from "@/lib/visibility/entities";
import { marketChoices } from "@/lib/locale/codes";
import { Notice, Section } from "../../../_components/ui";
import { ShareHeading, Tag } from "../../../s/_components/bits";
import { ResearchPage } from "../../_components/frame";
import { orNotFound, param } from "../../_lib/load";
import { MonitorForm } from "../_components/monitor-form";
import { PromptList } from "../_components/prompt-list";
import { trackedSource } from "../_lib/source";

export const dynamic = "force-dynamic";
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return { title: `${param((await searchParams).from)?.startsWith("pr_") ? "New monitor" : "Track these prompts"} · geoscope` };
}

export default async function NewMonitorPage({ searchParams }: Props) {
  const query = await searchParams;
  const from = param(query.from);
  const cluster = param(query.cluster);
  const principal = await requireSessionPrincipal(`/monitors/new?from=${encodeURIComponent(from ?? "")}${cluster ? `&cluster=${encodeURIComponent(cluster)}` : ""}`);
  let source;
  try {
    source = await orNotFound(trackedSource(principal, from, cluster));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (
      <ResearchPage crumbs={[]}>
        <Notice tone="warn">{error.message}</Notice>
      </ResearchPage>
    );
  }
  const project = await orNotFound(getProject(principal, source.project));
  const entities = entitiesFromContext((project.context ?? {}) as EntityContext);
  const enabled = engineConfig().enabled;
  const chosen = source.engines?.filter((e) => enabled.includes(e as never)) ?? enabled;
  const runs = Math.min(source.runs ?? MONITOR_LIMITS.runs.fallback, MONITOR_LIMITS.runs.max);
  const typed = source.kind === "project";
  const name = typed ? "" : [...`${source.kind === "cluster" ? "Questions: " : ""}${source.label}`].slice(0, 100).join("");
  const crumbs = [{ href: `/projects/${project.id}`, label: project.name }, ...(typed ? [] : [{ href: source.href, label: source.label }])];

  return (
    <ResearchPage crumbs={crumbs}>
      <ShareHeading
        kicker={typed ? "New monitor" : "Track these prompts"}
        title={typed ? `A monitor of ${project.name}` : `A monitor of ${source.prompts.length} ${source.prompts.length === 1 ? "prompt" : "prompts"}`}
      >
        <p className="mt-2 text-sm text-slate-600">
          The same prompts, run again every day or week, so you see how often the engines name your brand and your competitors over time.
          {typed ? " Type the prompts people ask, one per line; nothing runs until its first tick." : ""}
        </p>
      </ShareHeading>

      {typed ? null : (
        <Section id="prompts" title="Prompts" description={`From ${source.kind === "fanout" ? "the fanout" : "the questions cluster"} “${source.label}”.`}>
          <PromptList prompts={source.prompts} testId="tracked-prompts" />
        </Section>
      )}

      <Section id="entities" title="What it measures" description="The project's brands and competitors, kept with the monitor as they are now.">
        {entities.length ? (
          <p className="flex flex-wrap gap-1.5" data-testid="tracked-entities">
            {entities.map((e) => (
              <Tag key={e.name} tone={e.role === "brand" ? "indigo" : "amber"}>
                {e.name}
              </Tag>
            ))}
          </p>
        ) : (
          <Notice tone="warn">
            This project names no brand or competitor, so a monitor would have nothing to measure.{" "}
            <a href="/account#projects" className="font-medium underline">
              Add them to the project
            </a>
            , then come back.
          </Notice>
        )}
      </Section>

      <Section id="schedule" title={typed ? "Prompts, market, when and how much" : "When and how much"}>
        <MonitorForm
          from={from!}
          cluster={cluster}
          name={name}
          engines={enabled}
          chosen={chosen}
          runs={runs}
          disabled={entities.length === 0}
          typed={typed ? marketChoices() : undefined}
        />
      </Section>
    </ResearchPage>
  );
}
