// A project's monitors side by side (GET /projects/{id}/monitor-overview): a card per monitor, a
// row per entity with its latest visibility (value, 95% interval, n), a sparkline of its last
// points, and whether it changed beyond chance since last week and last month, in words.
import type { Metadata } from "next";
import type { z } from "zod";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { monitorOverview } from "@/lib/monitors/read";
import { getProject } from "@/lib/projects/read";
import { SPARKLINE_POINTS, type OverviewChange, type OverviewEntity, type OverviewMonitor } from "@/lib/schemas/overview";
import { engineName, percent, percentRange, points, pointsRange } from "@/lib/words/format";
import { SummaryLead, Tag } from "../../../../s/_components/bits";
import { when } from "../../../../s/_lib/view";
import { ResearchPage } from "../../../_components/frame";
import { orNotFound } from "../../../_lib/load";
import { SPARK, sparkline } from "../../../_lib/sparkline";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ project_id: string }> };
type MonitorBody = z.output<typeof OverviewMonitor>;
type EntityBody = z.output<typeof OverviewEntity>;
type ChangeBody = z.output<typeof OverviewChange>;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const principal = await requireSessionPrincipal("/projects");
  const project = await orNotFound(getProject(principal, (await params).project_id));
  return { title: `Monitors · ${project.name} · geoscope` };
}

const day = (iso: string) => iso.slice(0, 10);

function Sparkline({ entity }: { entity: EntityBody }) {
  if (entity.sparkline.length === 0) return null;
  const { xy, path, top } = sparkline(entity.sparkline);
  const first = entity.sparkline[0]!;
  const last = entity.sparkline.at(-1)!;
  const label = `${entity.name}'s visibility over its last ${entity.sparkline.length} ticks: from ${percent(first.value)} (n ${first.n}) on ${day(first.tick_at)} to ${percent(last.value)} (n ${last.n}) on ${day(last.tick_at)}; scale 0 to ${percent(top)}.`;
  const end = xy.at(-1)!;
  return (
    <svg width={SPARK.width} height={SPARK.height} viewBox={`0 0 ${SPARK.width} ${SPARK.height}`} role="img" aria-label={label} className="block shrink-0" data-testid="sparkline">
      <title>{label}</title>
      <line x1={SPARK.pad} x2={SPARK.width - SPARK.pad} y1={SPARK.height - SPARK.pad} y2={SPARK.height - SPARK.pad} className="stroke-slate-200" strokeWidth="1" />
      {xy.length > 1 ? <polyline points={path} fill="none" className="stroke-indigo-500" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" /> : null}
      <circle cx={end.x} cy={end.y} r="2.5" className="fill-indigo-600" />
    </svg>
  );
}

const SINCE = { week: "last week", month: "last month" } as const;

/** A change since last week (month) in plain words; the figures behind it in its title. */
function ChangeBadge({ change, since }: { change: ChangeBody | null; since: keyof typeof SINCE }) {
  if (!change) {
    return (
      <span className="text-xs text-slate-400" data-testid={`since-${since}`} data-state="none">
        no tick a {since} before
      </span>
    );
  }
  const detail = `Since ${day(change.from_tick_at)}: ${points(change.diff)} from ${percent(change.from_value)} (n ${change.from_n}); 95% interval of the change ${pointsRange(change.diff_interval)}.`;
  if (!change.significant) {
    return (
      <span title={detail} data-testid={`since-${since}`} data-state="same">
        <Tag>no change beyond chance since {SINCE[since]}</Tag>
      </span>
    );
  }
  return (
    <span title={detail} data-testid={`since-${since}`} data-state={change.diff > 0 ? "rose" : "fell"}>
      <Tag tone={change.diff > 0 ? "emerald" : "rose"}>
        {change.diff > 0 ? "▲ rose" : "▼ fell"} {points(Math.abs(change.diff)).replace(/^\+/, "")} since {SINCE[since]}
      </Tag>
    </span>
  );
}

function EntityRow({ entity }: { entity: EntityBody }) {
  const latest = entity.latest;
  return (
    <li className="grid grid-cols-1 gap-x-4 gap-y-1.5 py-3 sm:grid-cols-[minmax(0,1fr)_9rem_auto] sm:items-center lg:grid-cols-[minmax(0,1fr)_9rem_auto_minmax(0,20rem)]" data-testid="overview-entity" data-entity={entity.name}>
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
        <span className="font-medium break-words">{entity.name}</span>
        <Tag tone={entity.role === "brand" ? "indigo" : "slate"}>{entity.role}</Tag>
      </div>
      <div className="flex items-center justify-between gap-4 sm:contents">
        <div className="tabular-nums" data-testid="latest">
          {latest ? (
            <>
              <span className="text-lg font-semibold">{percent(latest.value)}</span>
              <span className="block text-xs text-slate-500">
                95% {percentRange(latest.interval)} · n {latest.n}
              </span>
            </>
          ) : (
            <span className="text-sm text-slate-400">no figure yet</span>
          )}
        </div>
        {latest ? <Sparkline entity={entity} /> : null}
      </div>
      {latest ? (
        <div className="flex flex-wrap gap-1.5 sm:col-span-3 lg:col-span-1 lg:justify-end">
          <ChangeBadge change={entity.since_week} since="week" />
          <ChangeBadge change={entity.since_month} since="month" />
        </div>
      ) : null}
    </li>
  );
}

function MonitorCard({ monitor }: { monitor: MonitorBody }) {
  return (
    <section aria-labelledby={`${monitor.id}-title`} className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="overview-monitor" data-monitor={monitor.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={`${monitor.id}-title`} className="min-w-0 text-lg font-semibold break-words">
          <a href={`/monitors/${monitor.id}`} className="text-indigo-700 hover:underline">
            {monitor.name}
          </a>
        </h2>
        <Tag tone={monitor.status === "active" ? "emerald" : "slate"}>{monitor.status}</Tag>
      </div>
      <p className="mt-1 text-sm break-words text-slate-600">
        Visibility on {monitor.engines.map(engineName).join(", ")} together · version {monitor.version} · {monitor.last_tick_at ? `last tick ${when(monitor.last_tick_at)}` : "no tick yet"}
      </p>
      <ul className="mt-2 divide-y divide-slate-100">
        {monitor.entities.map((e) => (
          <EntityRow key={e.name} entity={e} />
        ))}
      </ul>
    </section>
  );
}

export default async function ProjectMonitorsPage({ params }: Props) {
  const { project_id } = await params;
  const principal = await requireSessionPrincipal(`/projects/${project_id}/monitors`);
  const overview = await orNotFound(monitorOverview(principal, project_id));
  const { project } = overview;
  return (
    <ResearchPage
      crumbs={[
        { href: `/projects/${project.id}`, label: project.name },
        { href: `/projects/${project.id}/monitors`, label: "Monitors" },
      ]}
      wide
    >
      <header className="mb-6">
        <p className="text-sm font-medium text-indigo-700">Monitors</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight break-words sm:text-2xl">{project.name}: every monitor side by side</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Each entity&apos;s visibility over all of a monitor&apos;s engines at its latest tick, its last {SPARKLINE_POINTS} ticks, and whether it changed since last week and last
          month by more than chance explains (the test its alerts use).
        </p>
        <SummaryLead sentences={overview.summary} />
      </header>
      {overview.monitors.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600" data-testid="no-monitors">
          No monitors yet. Open a fanout, or a cluster of a questions analysis, in{" "}
          <a href={`/projects/${project.id}`} className="text-indigo-700 hover:underline">
            the project
          </a>{" "}
          and choose “Track these prompts”.
        </p>
      ) : (
        overview.monitors.map((m) => <MonitorCard key={m.id} monitor={m} />)
      )}
    </ResearchPage>
  );
}
