// A monitor's trends (decisions.md "Monitors", "Sharing, wave 3"): its charts, on its signed-in
// page and, as a live read-only dashboard, on its share page. MonitorTrends is the section both
// show; MonitorView is the share page: what the monitor measures and when, its trends and prompts,
// and nothing of the workspace, its creator, spend, budget or alert settings.
import type { Dashboard } from "@/lib/monitors/dashboard";
import { scheduleInWords } from "@/lib/schemas/monitors";
import type { PublicMonitor } from "@/lib/shares/present";
import { Section } from "../../_components/ui";
import { marketText } from "../../(research)/_components/market";
import { PromptList } from "../../(research)/monitors/_components/prompt-list";
import { engineName, when } from "../_lib/view";
import { Facts, ShareHeading, SummaryLead, Tag } from "./bits";
import { MonitorCharts, type ChartAlert } from "./monitor-charts";
import { plural } from "@/lib/text";

/** The brands and competitors a monitor measures, as tags (brands indigo, competitors amber). */
export function MonitorEntities({ entities }: { entities: readonly { name: string; role: string }[] }) {
  return (
    <p className="mt-3 flex flex-wrap items-center gap-1.5 text-sm" data-testid="monitor-entities">
      <span className="text-slate-500">Measures</span>
      {entities.map((e) => (
        <Tag key={e.name} tone={e.role === "brand" ? "indigo" : "amber"}>
          {e.name}
        </Tag>
      ))}
    </p>
  );
}

/** The trends section: the charts once a tick has figures, else what will come and when. */
export function MonitorTrends({
  dashboard,
  alerts,
  nextRun,
  paused,
  idPrefix,
  versionBase,
}: {
  dashboard: Dashboard;
  alerts: readonly ChartAlert[];
  nextRun: string;
  paused: boolean;
  idPrefix?: string;
  /** The page's path, whose `?version=N` draws another version's series; without it, no choice of version is offered. */
  versionBase?: string;
}) {
  const ticks = new Set(dashboard.metrics.flatMap((m) => m.series.flatMap((s) => s.points.map((p) => p.tick_id))));
  const earlier = dashboard.version !== dashboard.current;
  return (
    <Section
      id="trends"
      title="Trends"
      description={
        earlier
          ? `Version ${dashboard.version}'s series, an earlier version (what the monitor measured before it was changed): each point a completed tick's figure over its answers (n), the band its 95% interval.`
          : `Version ${dashboard.version}'s series: each point a completed tick's figure over its answers (n), the band its 95% interval.`
      }
    >
      {versionBase && dashboard.versions.length > 1 ? (
        <nav aria-label="Series versions" className="mb-4 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm" data-testid="series-versions">
          <span className="text-slate-600">Version:</span>
          {dashboard.versions.map((v) => {
            const label = v === dashboard.current ? `${v} (current)` : String(v);
            return v === dashboard.version ? (
              <span key={v} aria-current="page" className="rounded bg-indigo-50 px-1.5 font-medium text-indigo-800">
                {label}
              </span>
            ) : (
              <a key={v} href={`${versionBase}${v === dashboard.current ? "" : `?version=${v}`}#trends`} className="text-indigo-700 hover:underline">
                {label}
              </a>
            );
          })}
        </nav>
      ) : null}
      {ticks.size === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="no-trends">
          <p className="font-medium text-slate-800">No figures yet.</p>
          <p className="mt-1">
            The charts start with the first completed tick
            {paused ? "; the monitor is paused." : ` (the next is due ${when(nextRun)}).`} A change can be tested from the second.
          </p>
        </div>
      ) : (
        <MonitorCharts dashboard={dashboard} alerts={alerts} idPrefix={idPrefix} />
      )}
    </Section>
  );
}

/** A shared monitor: a live, read-only dashboard of its series. */
export function MonitorView({ monitor, dashboard, alerts, base }: { monitor: PublicMonitor; dashboard: Dashboard; alerts: readonly ChartAlert[]; base: string }) {
  const market = marketText(monitor.location ?? null, monitor.language ?? null);
  const runs = monitor.prompts.length * monitor.engines.length * (monitor.runs ?? 3);
  return (
    <>
      <ShareHeading kicker="Monitor" title={monitor.name}>
        {monitor.last_tick ? <SummaryLead label={`Last tick, ${when(monitor.last_tick.scheduled_for)}:`} sentences={monitor.last_tick.summary} /> : null}
        <Facts
          items={[
            ["Schedule", scheduleInWords(monitor.schedule)],
            ["Each tick", `${plural(monitor.prompts.length, "prompt")} × ${monitor.engines.map(engineName).join(", ")} × ${monitor.runs ?? 3} = ${plural(runs, "answer")}`],
            ...(market ? ([["Market", market]] as Array<[string, string]>) : []),
            ["Last tick", monitor.last_tick ? `${when(monitor.last_tick.scheduled_for)} (${monitor.last_tick.status})` : "none yet"],
            ["Next run", monitor.status === "paused" ? "paused" : when(monitor.next_run_at)],
            ["Series", `version ${monitor.version}`],
          ]}
        />
        <MonitorEntities entities={monitor.entities} />
        <p className="mt-2 text-xs text-slate-500" data-testid="live-note">
          Live: each tick adds a point as it completes; this page shows the figures as of its loading ({when(new Date().toISOString())}).
        </p>
      </ShareHeading>
      <MonitorTrends
        dashboard={dashboard}
        alerts={alerts}
        nextRun={monitor.next_run_at}
        paused={monitor.status === "paused"}
        idPrefix="shared"
        versionBase={base}
      />
      <Section id="prompts" title={`Prompts (${monitor.prompts.length})`}>
        <details open={monitor.prompts.length <= 10}>
          <summary className="cursor-pointer text-sm text-slate-600">The prompts each tick runs</summary>
          <PromptList prompts={monitor.prompts} className="mt-2" />
        </details>
      </Section>
    </>
  );
}
