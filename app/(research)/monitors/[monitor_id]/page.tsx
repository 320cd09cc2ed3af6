// A monitor: what it measures and when, its budget and spend, its controls (run now, pause or
// resume, delete), its settings that keep its series (name, schedule, budget, judge), what it measures (a new version), its share link, its alerts and weekly digests, its trend charts (the share page's too), its ticks newest first with a link to each tick's fanout and comparisons, Compare engines
// (its last tick's), and its prompts.
// Before the first tick it says when that will be. Updates while a tick's fanout runs.
import { CompareEnginesForm } from "../../_components/compare-form";
import type { Metadata } from "next";
import { cache, type ReactNode } from "react";
import type { z } from "zod";
import { chartAlerts, listAlerts } from "@/lib/alerts/read";
import { listDigests } from "@/lib/digests/read";
import { monitorDashboard, versionAsked } from "@/lib/monitors/dashboard";
import { getShareStatus } from "@/lib/shares/read";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError, notFound as notFoundError } from "@/lib/http/errors";
import { getMonitor, listTicks } from "@/lib/monitors/read";
import { getProject } from "@/lib/projects/read";
import { progressOfAll } from "@/lib/research/progress";
import { scheduleInWords, type Tick } from "@/lib/schemas/monitors";
import { CellLabel, Email, Section, tableCellClass, tableClass, tableHeadClass, tableRowClass } from "../../../_components/ui";
import { Facts, ShareHeading, SummaryLead, Tag, statusTone } from "../../../s/_components/bits";
import { engineName, when } from "../../../s/_lib/view";
import { ResearchPage, type Crumb } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { marketText } from "../../_components/market";
import { orNotFound, param } from "../../_lib/load";
import { MonitorActions } from "../_components/monitor-actions";
import { MonitorSettings } from "../_components/monitor-settings";
import { MeasureForm } from "../_components/measure-form";
import { entityChanges } from "../_lib/measure";
import { marketChoices } from "@/lib/locale/codes";
import { entitiesFromContext, type EntityContext } from "@/lib/visibility/entities";
import { engineConfig } from "@/lib/config/engines";
import { MonitorAlerts } from "../_components/monitor-alerts";
import { MonitorDigests } from "../_components/monitor-digests";
import { PromptList } from "../_components/prompt-list";
import { ShareControl } from "../../_components/share-control";
import { MonitorEntities, MonitorTrends } from "../../../s/_components/monitor-view";
import { plural } from "@/lib/text";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ monitor_id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };
type TickBody = z.input<typeof Tick>;

const TICKS_PER_PAGE = 25;
const ALERTS_PER_PAGE = 20;
const DIGESTS_SHOWN = 8;
/** Prompts listed open; past this many they open on demand. */
const OPEN_PROMPTS = 10;

const load = cache(async (monitorId: string) => {
  const principal = await requireSessionPrincipal(`/monitors/${monitorId}`);
  const monitor = await orNotFound(getMonitor(principal, monitorId));
  return { principal, monitor };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { monitor } = await load((await params).monitor_id);
  return { title: `${monitor.name} · monitor · geoscope` };
}

const SKIP_REASONS: Record<string, string> = {
  insufficient_credit: "not enough credit",
  budget_exhausted: "monthly budget reached",
};

function tickTone(status: string) {
  if (status === "skipped" || status === "partial") return "amber";
  if (status === "queued" || status === "running") return "indigo";
  return statusTone(status);
}

/** One tick as a table row that reflows on a phone (cells in the header's order): when and its status, then how, its fanout, charge and finish. */
function TickRow({ tick }: { tick: TickBody }) {
  return (
    <tr className={tableRowClass} data-testid="tick-row" data-status={tick.status}>
      <td className={`${tableCellClass} order-1 whitespace-nowrap`}>{when(tick.scheduled_for)}</td>
      <td className={`${tableCellClass} order-2`}>
        <Tag tone={tickTone(tick.status)}>{tick.status}</Tag>
        {tick.skip_reason ? <span className="ml-1.5 text-xs text-slate-600">{SKIP_REASONS[tick.skip_reason] ?? tick.skip_reason}</span> : null}
        {tick.error ? <span className="ml-1.5 text-xs text-rose-700">{tick.error.message}</span> : null}
      </td>
      <td className={`${tableCellClass} order-3 text-slate-600`}>{tick.trigger === "manual" ? "run now" : "scheduled"}</td>
      <td className={`${tableCellClass} order-4 text-slate-600 sm:text-right`}>
        <CellLabel>version</CellLabel>
        {tick.version}
      </td>
      <td className={`${tableCellClass} order-5 whitespace-nowrap`}>
        {tick.fanout_id ? (
          <>
            <a href={`/fanouts/${tick.fanout_id}`} className="text-indigo-700 hover:underline" data-testid="tick-fanout">
              its fanout
            </a>
            {tick.comparisons.map((c) => (
              <a key={c.analysis_id} href={`/analyses/${c.analysis_id}`} className="block whitespace-normal text-indigo-700 hover:underline" data-testid="tick-comparison">
                {engineName(c.a)} vs {engineName(c.b)}
              </a>
            ))}
          </>
        ) : null}
        {tick.analysis_id ? (
          <>
            {" · "}
            <a href={`/analyses/${tick.analysis_id}#opportunities`} className="text-indigo-700 hover:underline" data-testid="tick-opportunities">
              opportunities
            </a>
          </>
        ) : null}
        {tick.fanout_id ? null : (
          <span className="text-slate-400 sm:inline hidden">—</span>
        )}
      </td>
      <td className={`${tableCellClass} order-6 whitespace-nowrap tabular-nums sm:text-right`}>
        <CellLabel>charged</CellLabel>
        {tick.charged_usd === null ? "—" : `$${tick.charged_usd}`}
      </td>
      <td className={`${tableCellClass} order-7 whitespace-nowrap text-slate-600`}>
        <CellLabel>finished</CellLabel>
        {tick.completed_at ? when(tick.completed_at) : "—"}
      </td>
    </tr>
  );
}

function TickTable({ ticks }: { ticks: TickBody[] }) {
  return (
    <table className={tableClass} data-testid="ticks-table">
      <thead className={tableHeadClass}>
        <tr>
          <th className="py-1 pr-3">For</th>
          <th className="pr-3">Status</th>
          <th className="pr-3">How</th>
          <th className="pr-3 text-right">Version</th>
          <th className="pr-3">Fanout</th>
          <th className="pr-3 text-right">Charged</th>
          <th>Finished</th>
        </tr>
      </thead>
      <tbody>
        {ticks.map((t) => (
          <TickRow key={t.id} tick={t} />
        ))}
      </tbody>
    </table>
  );
}

export default async function MonitorPage({ params, searchParams }: Props) {
  const { monitor_id } = await params;
  const { principal, monitor } = await load(monitor_id);
  const query = await searchParams;
  const cursor = param(query.cursor);
  const alertsCursor = param(query.alerts_cursor);
  // ?version=N: an earlier version's series (one without figures, or not a number, draws the current).
  const askedVersion = versionAsked(param(query.version));
  const [project, page, alerts, share, dashboard, marks, digests] = await Promise.all([
    orNotFound(getProject(principal, monitor.project)),
    listTicks(principal, monitor.id, { limit: TICKS_PER_PAGE, cursor }).catch((error: unknown) => {
      // A cursor edited by hand is the API's 400: the page starts from the newest.
      if (cursor && error instanceof ApiError && error.code === "invalid_request") return listTicks(principal, monitor.id, { limit: TICKS_PER_PAGE });
      throw error;
    }),
    listAlerts(principal, monitor.id, { limit: ALERTS_PER_PAGE, cursor: alertsCursor }).catch((error: unknown) => {
      if (alertsCursor && error instanceof ApiError && error.code === "invalid_request") return listAlerts(principal, monitor.id, { limit: ALERTS_PER_PAGE });
      throw error;
    }),
    getShareStatus(principal, "monitor", monitor.id),
    orNotFound(monitorDashboard(monitor.id, askedVersion).then((d) => d ?? Promise.reject(notFoundError("monitor", monitor.id)))),
    chartAlerts(monitor.id),
    listDigests(principal, monitor.id, { limit: DIGESTS_SHOWN }),
  ]);
  const open = page.items.filter((t) => !t.completed_at && t.fanout_id).map((t) => t.fanout_id!);
  // "Compare engines" compares the newest tick that ran, of those on this page.
  const lastRun = page.items.find((t) => (t.status === "completed" || t.status === "partial") && t.fanout_id);
  const since = open.length ? (await progressOfAll(principal, open)).signature : "";
  const schedule = scheduleInWords(monitor.schedule);
  const executions = monitor.prompts.length * monitor.engines.length * monitor.runs;
  const market = marketText(monitor.location ?? null, monitor.language ?? null);
  const crumbs: Crumb[] = [
    { href: `/projects/${project.id}`, label: project.name },
    { href: `/monitors/${monitor.id}`, label: monitor.name },
  ];

  return (
    <ResearchPage crumbs={crumbs} wide>
      <ShareHeading kicker="Monitor" title={monitor.name}>
        {monitor.last_tick ? <SummaryLead label={`Last tick, ${when(monitor.last_tick.scheduled_for)}:`} sentences={monitor.last_tick.summary} /> : null}
        <Facts
          items={[
            ["Status", <Tag key="s" tone={monitor.status === "active" ? "emerald" : "slate"}>{monitor.status}</Tag>],
            ["Schedule", schedule],
            ["Next run", monitor.status === "paused" ? "paused" : when(monitor.next_run_at)],
            ["Each tick", `${plural(monitor.prompts.length, "prompt")} × ${monitor.engines.map(engineName).join(", ")} × ${monitor.runs} = ${plural(executions, "run")}`],
            ...(market ? ([["Market", market]] as Array<[string, string]>) : []),
            ["Sentiment judge", monitor.judge ? `${engineName(monitor.judge.engine)}, charged per answer judged` : "none"],
            ["Spent this month", `$${monitor.spend_month_to_date_usd}${monitor.monthly_budget_usd ? ` of $${monitor.monthly_budget_usd}` : " (no budget)"}`],
            ["Series", `version ${monitor.version}`],
            ...(monitor.created_by ? ([["By", <Email key="b" address={monitor.created_by} />]] as Array<[string, ReactNode]>) : []),
          ]}
        />
        <MonitorEntities entities={monitor.entities} />
        <p className="mt-3 text-sm">
          <a href={`/projects/${project.id}/monitors`} className="text-indigo-700 hover:underline" data-testid="monitor-overview-link">
            Every monitor of {project.name} side by side →
          </a>
        </p>
        <MonitorActions id={monitor.id} status={monitor.status} />
        <MonitorSettings
          id={monitor.id}
          name={monitor.name}
          schedule={monitor.schedule}
          budget={monitor.monthly_budget_usd}
          judge={monitor.judge?.engine ?? null}
          engines={engineConfig().enabled}
        />
        <MeasureForm
          id={monitor.id}
          projectId={project.id}
          version={monitor.version}
          prompts={monitor.prompts.map((p) => p.text)}
          promptMarkets={monitor.prompts.map((p) => marketText(p.location ?? null, p.language ?? null))}
          engines={monitor.engines}
          enabled={engineConfig().enabled}
          runs={monitor.runs}
          market={{ country: monitor.location?.country ?? null, city: monitor.location?.city ?? null, language: monitor.language ?? null }}
          markets={marketChoices()}
          entityChanges={entityChanges(monitor.entities, entitiesFromContext((project.context ?? {}) as EntityContext))}
        />
      </ShareHeading>

      <ShareControl kind="monitor" id={monitor.id} finished initial={{ shared: share.shared, url: share.shared ? (share.share?.url ?? null) : null }} />

      <MonitorTrends
        dashboard={dashboard}
        alerts={marks}
        nextRun={monitor.next_run_at}
        paused={monitor.status === "paused"}
        versionBase={`/monitors/${monitor.id}`}
      />

      <Section id="ticks" title="Ticks" description="Each tick runs the prompts as a fanout; one the credit or the monthly budget cannot pay is skipped and starts nothing.">
        <div className="mb-2 flex justify-end">{open.length ? <LiveRefresh ids={open} since={since} /> : null}</div>
        {page.items.length === 0 && !cursor ? (
          <div className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="no-ticks">
            <p className="font-medium text-slate-800">No tick yet.</p>
            <p className="mt-1">
              {monitor.status === "paused"
                ? "It is paused: resume it to run on its schedule, or run a tick now."
                : `The first runs ${when(monitor.next_run_at)} (${schedule}), or run one now with the button above.`}
            </p>
          </div>
        ) : (
          <TickTable ticks={page.items} />
        )}
        {page.next_cursor || cursor ? (
          <nav aria-label="Pages" className="mt-3 flex gap-4 text-sm">
            {cursor ? (
              <a className="text-indigo-700 hover:underline" href={`/monitors/${monitor.id}`}>
                ← Newest
              </a>
            ) : null}
            {page.next_cursor ? (
              <a className="text-indigo-700 hover:underline" href={`/monitors/${monitor.id}?cursor=${page.next_cursor}`}>
                Older →
              </a>
            ) : null}
          </nav>
        ) : null}
      </Section>

      {lastRun && monitor.engines.length > 1 ? (
        <Section id="compare" title="How far apart the engines are" description="The last completed tick's prompts on two engines: the brands each names, the pages each cites, the searches, the order.">
          <CompareEnginesForm
            project={monitor.project}
            ids={[lastRun.fanout_id!]}
            engines={monitor.engines}
            note={`Compares the tick of ${when(lastRun.scheduled_for)}; free, from stored answers. Prompts only one engine answered are left out and listed.`}
          />
        </Section>
      ) : null}

      <MonitorAlerts
        id={monitor.id}
        alerts={monitor.alerts}
        page={alerts}
        olderHref={alerts.next_cursor ? `/monitors/${monitor.id}?alerts_cursor=${alerts.next_cursor}#alerts` : null}
      />

      <MonitorDigests digest={monitor.alerts.digest} schedule={monitor.schedule} items={digests.items} />

      <Section id="prompts" title={`Prompts (${monitor.prompts.length})`}>
        <details open={monitor.prompts.length <= OPEN_PROMPTS}>
          <summary className="cursor-pointer text-sm text-slate-600">{monitor.prompts.length <= OPEN_PROMPTS ? "The prompts each tick runs" : "Show the prompts each tick runs"}</summary>
          <PromptList prompts={monitor.prompts} className="mt-2" />
        </details>
      </Section>
    </ResearchPage>
  );
}
