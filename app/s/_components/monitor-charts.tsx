// A monitor's trend charts, on its signed-in and share pages alike, drawn on the server as SVG (no
// script, nothing from a CDN): per metric a line per entity over the ticks, its 95% interval as a
// translucent band, a significant change as a ringed point and an alert as a flagged tick; per
// engine small multiples of visibility. Each chart has a title and a description for screen
// readers, and every point's figure, n and interval in the table under it.
import type { ReactNode } from "react";
import { isRate, trend, type EntitySeries, type PlottedPoint, type SeriesMetric, type SeriesPoint } from "../../(research)/_lib/trend";
import { percent, percentRange, place, placeDiff, placeRange, points } from "@/lib/words/format";
import { sentimentSentence } from "@/lib/words/sentiment";
import { engineName, when } from "../_lib/view";
import { Num, ScrollTable } from "./bits";

/** Okabe–Ito colours first (told apart with the common colour blindnesses), then more; lines past them are dashed. */
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000", "#7c3aed"];
const DASHES = [undefined, "6 3", "2 3", "8 3 2 3"];

export const METRIC_WORDS: Record<SeriesMetric, { title: string; about: string }> = {
  visibility: { title: "Visibility", about: "Share of answers naming the entity (a counted mention), with its 95% Wilson interval." },
  share_of_voice: { title: "Share of voice", about: "Its answers naming it over every time an answer named a tracked entity (an answer naming two counts for both)." },
  cited_rate: { title: "Cited rate", about: "Share of answers citing a page of one of its domains, with its 95% interval." },
  average_position: { title: "Average position", about: "Where it is named among the tracked entities when named (1 = first); lower is better." },
  top3_rate: { title: "Top-3 rate", about: "Share of answers naming it among the first three tracked entities, with its 95% interval." },
  sentiment: { title: "Sentiment", about: "The judge's score: of the judged answers speaking of it positively or negatively, the share speaking well (n), with its 95% Wilson interval; judged ticks only." },
};

export type ChartAlert = { tick_id: string | null; entity: string | null; engine: string | null };

const styleOf = (i: number) => ({ colour: COLOURS[i % COLOURS.length]!, dash: DASHES[Math.floor(i / COLOURS.length) % DASHES.length] });

/** A figure in words (lib/words/format.ts): a rate as a percent, a position to one decimal. */
export function figure(metric: SeriesMetric, value: number | null): string {
  if (value === null) return "—";
  return isRate(metric) ? percent(value) : place(value);
}

/** An interval, rounded outward. */
function intervalText(metric: SeriesMetric, interval: SeriesPoint["interval"]): string {
  return interval ? (isRate(metric) ? percentRange(interval) : placeRange(interval)) : "";
}

/** A change in words: points for a rate, places for a position. */
export function changeText(metric: SeriesMetric, change: SeriesPoint["change"]): string {
  if (!change) return "";
  return isRate(metric) ? points(change.diff) : placeDiff(change.diff);
}

/** What a point's figure is over: its n (the series' addition), else its runs. */
const nOf = (p: SeriesPoint) => p.n ?? p.runs;

/** One point in a sentence: its figure, n and interval, and its change when significant. */
export function pointText(metric: SeriesMetric, p: SeriesPoint): string {
  if (p.value === null) return `no figure (n = ${nOf(p)})`;
  const interval = p.interval ? `, 95% ${intervalText(metric, p.interval)}` : "";
  const change = p.change?.significant ? `; a significant change of ${changeText(metric, p.change)}` : "";
  return `${figure(metric, p.value)} (n = ${nOf(p)}${interval})${change}`;
}

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** The chart's legend: each entity's line with its latest figure and n, then the marks drawn. */
function Legend({ metric, series, significant, alerts, colourFrom = 0 }: { metric: SeriesMetric; series: readonly EntitySeries[]; significant: boolean; alerts: boolean; colourFrom?: number }) {
  return (
    <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
      {series.map((s, i) => {
        const { colour, dash } = styleOf(i + colourFrom);
        const latest = [...s.points].reverse().find((p) => p.value !== null);
        return (
          <li key={s.entity} className="flex items-center gap-1.5" data-testid="legend-entity">
            <svg width="18" height="8" aria-hidden="true">
              <line x1="0" x2="18" y1="4" y2="4" stroke={colour} strokeWidth="2.5" strokeDasharray={dash} />
            </svg>
            {s.entity}
            {latest ? (
              <span className="tabular-nums text-slate-500">
                {`${figure(metric, latest.value)} n=${nOf(latest)}`}
              </span>
            ) : null}
          </li>
        );
      })}
      {significant ? (
        <li className="flex items-center gap-1.5 text-slate-500">
          <svg width="12" height="12" aria-hidden="true">
            <circle cx="6" cy="6" r="4" fill="white" stroke="#334155" strokeWidth="2" />
          </svg>
          significant change
        </li>
      ) : null}
      {alerts ? (
        <li className="flex items-center gap-1.5 text-slate-500">
          <svg width="10" height="12" aria-hidden="true">
            <path d="M1 11 L1 1 L9 4 L1 7" fill="#e11d48" stroke="#e11d48" />
          </svg>
          alert
        </li>
      ) : null}
    </ul>
  );
}

const PLOT_TOP = 8;
const AXIS_BOTTOM = 22;

/**
 * One chart: a line per entity with its band, one column per tick. With no tick yet, or a metric
 * with no figure yet, it says so instead.
 */
export function TrendChart({
  id,
  title,
  metric,
  series,
  alerts = [],
  height = 200,
  table = true,
  empty,
  colourFrom = 0,
}: {
  id: string;
  title: string;
  metric: SeriesMetric;
  series: readonly EntitySeries[];
  alerts?: readonly ChartAlert[];
  height?: number;
  table?: boolean;
  empty?: ReactNode;
  /** The first line's place in the colours: a chart of one entity keeps the colour it has on the others. */
  colourFrom?: number;
}) {
  const t = trend(metric, series, height);
  const hasValue = t.series.some((s) => s.points.some((p) => p.value !== null));
  if (t.ticks.length === 0 || !hasValue) {
    return (
      <figure data-testid="trend-chart" data-empty="true" data-metric={metric} className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">
        <figcaption className="font-medium text-slate-800">{title}</figcaption>
        <p className="mt-1">{empty ?? "No completed tick yet: the first figures appear once a tick's answers are analysed."}</p>
      </figure>
    );
  }
  const alertTicks = new Set(alerts.map((a) => a.tick_id).filter((x): x is string => x !== null));
  const total = PLOT_TOP + height + AXIS_BOTTOM;
  const pts = (points: Array<{ x: number; y: number }>) => points.map((p) => `${p.x},${p.y}`).join(" ");
  const first = t.ticks[0]!;
  const last = t.ticks[t.ticks.length - 1]!;
  const atOf = new Map(t.series.flatMap((s) => s.points.map((p) => [p.tick_id, p.at] as const)));
  const described = t.series
    .map((s) => {
      const latest = [...s.points].reverse().find((p) => p.value !== null);
      const significant = s.points.filter((p) => p.change?.significant).length;
      return `${s.entity}: ${latest ? `latest ${pointText(metric, latest)}` : "no figure yet"}${significant ? `, ${significant} significant change${significant > 1 ? "s" : ""}` : ""}`;
    })
    .join("; ");
  const single = t.ticks.length === 1;
  // Ticks of one day (run now, or a daily monitor's first) are told apart by their time.
  const sameDay = day(atOf.get(first)!) === day(atOf.get(last)!);
  const axisLabel = (iso: string) => (sameDay && !single ? iso.slice(0, 16).replace("T", " ") : day(iso));
  return (
    <figure data-testid="trend-chart" data-metric={metric} className="min-w-0">
      <figcaption className="mb-1 text-sm font-medium text-slate-800">{title}</figcaption>
      <Legend
        metric={metric}
        series={t.series}
        significant={t.series.some((s) => s.points.some((p) => p.change?.significant && p.y !== null))}
        alerts={[...alertTicks].some((tick) => t.xs.has(tick))}
        colourFrom={colourFrom}
      />
      {/* The y axis's labels in a column of their own, left of the plot, so no line or point is drawn over them; room on either side for the first and last ticks' points and flags. */}
      <div className="flex">
      <div className="relative w-9 shrink-0 text-right text-[10px] leading-none text-slate-500" style={{ height: total }} aria-hidden="true" data-testid="axis-labels">
        {t.axis.map((a) => (
          <span key={a.value} className="absolute right-1.5 tabular-nums" style={{ top: PLOT_TOP + a.y - 5 }} data-testid="axis-label">
            {isRate(metric) ? figure(metric, a.value) : String(a.value)}
          </span>
        ))}
      </div>
      <div className="min-w-0 flex-1 pr-2 pl-1">
      <svg width="100%" height={total} role="img" aria-labelledby={`${id}-title ${id}-desc`} className="block overflow-visible font-sans" data-testid="trend-svg">
        <title id={`${id}-title`}>{`${title}, ${t.ticks.length} tick${single ? "" : "s"}${t.lowerIsBetter ? " (1 = named first, at the top)" : ""}`}</title>
        <desc id={`${id}-desc`}>{described}</desc>
        <g transform={`translate(0 ${PLOT_TOP})`}>
          <g aria-hidden="true">
            {t.axis.map((a) => (
              <line key={a.value} x1="0" x2="100%" y1={a.y} y2={a.y} stroke="#e2e8f0" strokeWidth={1} />
            ))}
            {[...alertTicks].map((tick) =>
              t.xs.has(tick) ? (
                <g key={tick} data-testid="chart-alert">
                  <line x1={`${t.xs.get(tick)}%`} x2={`${t.xs.get(tick)}%`} y1={0} y2={height} stroke="#e11d48" strokeWidth={1} strokeDasharray="3 3" />
                </g>
              ) : null,
            )}
          </g>
          <svg x="0" y="0" width="100%" height={height} viewBox={`0 0 100 ${height}`} preserveAspectRatio="none" className="overflow-visible" aria-hidden="true">
            {t.series.map((s, i) => {
              const { colour, dash } = styleOf(i + colourFrom);
              return (
                <g key={s.entity}>
                  {s.bands.map((b, j) =>
                    b.length > 2 ? <polygon key={j} points={pts(b)} fill={colour} fillOpacity={0.14} stroke="none" /> : null,
                  )}
                  {s.segments.map((seg, j) =>
                    seg.length > 1 ? (
                      <polyline key={j} points={pts(seg)} fill="none" stroke={colour} strokeWidth={2} strokeDasharray={dash} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
                    ) : null,
                  )}
                </g>
              );
            })}
          </svg>
          {t.series.map((s, i) => {
            const { colour } = styleOf(i + colourFrom);
            return (
              <g key={s.entity}>
                {s.points.map((p) =>
                  p.y === null ? null : (
                    <g key={p.tick_id}>
                      {/* One tick has no line or band to draw: its interval as a whisker. */}
                      {single && p.low !== null && p.high !== null ? (
                        <line x1={`${p.x}%`} x2={`${p.x}%`} y1={p.low} y2={p.high} stroke={colour} strokeOpacity={0.5} strokeWidth={6} aria-hidden="true" />
                      ) : null}
                      <Point p={p} colour={colour} label={`${s.entity}, ${day(p.at)}: ${pointText(metric, p)}`} />
                    </g>
                  ),
                )}
              </g>
            );
          })}
          {[...alertTicks].map((tick) =>
            t.xs.has(tick) ? (
              <svg key={tick} x={`${t.xs.get(tick)}%`} y={-9} width={8} height={9} className="overflow-visible" aria-hidden="true">
                <path d="M0 9 L0 0 L7 2.5 L0 5" fill="#e11d48" stroke="#e11d48" />
              </svg>
            ) : null,
          )}
          <g aria-hidden="true">
            <text x={single ? "50%" : "0"} y={height + 16} fontSize={11} fill="#64748b" textAnchor={single ? "middle" : "start"}>
              {axisLabel(atOf.get(first)!)}
            </text>
            {single ? null : (
              <text x="100%" y={height + 16} fontSize={11} fill="#64748b" textAnchor="end">
                {axisLabel(atOf.get(last)!)}
              </text>
            )}
          </g>
        </g>
      </svg>
      </div>
      </div>
      {single ? <p className="mt-1 text-xs text-slate-500">One tick so far: the lines and bands start with the second.</p> : null}
      {table ? <FiguresTable id={id} metric={metric} series={series} ticks={t.ticks} atOf={atOf} alertTicks={alertTicks} /> : null}
    </figure>
  );
}

function Point({ p, colour, label }: { p: PlottedPoint; colour: string; label: string }) {
  const significant = p.change?.significant ?? false;
  return (
    <circle
      cx={`${p.x}%`}
      cy={p.y!}
      r={significant ? 5 : 3}
      fill={significant ? "white" : colour}
      stroke={colour}
      strokeWidth={significant ? 2.5 : 0}
      data-significant={significant ? "true" : undefined}
      data-testid="trend-point"
    >
      <title>{label}</title>
    </circle>
  );
}

/** Every point's figure with its n, interval and change: the chart as a table, newest tick first. */
function FiguresTable({
  id,
  metric,
  series,
  ticks,
  atOf,
  alertTicks,
}: {
  id: string;
  metric: SeriesMetric;
  series: readonly EntitySeries[];
  ticks: string[];
  atOf: Map<string, string>;
  alertTicks: Set<string>;
}) {
  const byTick = series.map((s) => new Map(s.points.map((p) => [p.tick_id, p])));
  return (
    <details className="mt-2 text-sm" data-testid="figures-table">
      <summary className="cursor-pointer text-slate-600">The figures, with n and 95% intervals</summary>
      <div className="mt-2">
        <ScrollTable label={`${id} figures`} columns={[{ label: "Tick", text: true }, ...series.map((s) => ({ label: s.entity }))]}>
          {[...ticks].reverse().map((tick) => (
            <tr key={tick}>
              <td className="whitespace-nowrap">
                {when(atOf.get(tick)!)}
                {alertTicks.has(tick) ? <span className="ml-1 text-rose-700">· alert</span> : null}
              </td>
              {byTick.map((m, i) => {
                const p = m.get(tick);
                return (
                  <Num key={i}>
                    {p ? (
                      <>
                        {figure(metric, p.value)} <span className="text-slate-500">n={nOf(p)}</span>
                        {p.interval ? <span className="block text-xs text-slate-500">95% {intervalText(metric, p.interval)}</span> : null}
                        {p.change ? (
                          <span className={`block text-xs ${p.change.significant ? "font-medium text-slate-900" : "text-slate-500"}`}>
                            {changeText(metric, p.change)}
                            {p.change.significant ? " significant" : ""}
                          </span>
                        ) : null}
                      </>
                    ) : (
                      "—"
                    )}
                  </Num>
                );
              })}
            </tr>
          ))}
        </ScrollTable>
      </div>
    </details>
  );
}

/** What a monitor's dashboard draws: per metric every entity's series over all engines, and visibility per engine. */
export type MonitorDashboard = {
  version: number;
  metrics: Array<{ metric: SeriesMetric; series: EntitySeries[] }>;
  byEngine: Array<{ engine: string; series: EntitySeries[] }>;
  /** Each entity's sentiment over the judged ticks, with each point's counts; null when the monitor does not judge. */
  sentiment?: Array<EntitySeries & { counts: Array<{ tick_id: string; runs_judged: number; positive: number; neutral: number; negative: number }> }> | null;
};

/** A judged monitor's sentiment: a chart per entity (its score over the judged ticks, the band its interval), with a sentence in plain words. */
function SentimentCharts({ sentiment, idPrefix }: { sentiment: NonNullable<MonitorDashboard["sentiment"]>; idPrefix: string }) {
  return (
    <div className="mt-8" data-testid="sentiment-charts">
      <h3 className="mb-1 text-sm font-semibold text-slate-800">Sentiment, all engines</h3>
      <p className="mb-3 text-xs text-slate-500">{METRIC_WORDS.sentiment.about} A ringed point changed from the judged tick before by more than chance explains.</p>
      <div className="grid gap-6 sm:grid-cols-2">
        {sentiment.map((s, entityIndex) => {
          const latest = s.points[s.points.length - 1];
          const previous = s.points[s.points.length - 2];
          const counts = latest ? s.counts.find((c) => c.tick_id === latest.tick_id) : undefined;
          return (
            <div key={s.entity} className="min-w-0" data-testid="sentiment-entity" data-entity={s.entity}>
              <TrendChart
                id={`${idPrefix}-sentiment-${s.entity.replace(/[^A-Za-z0-9]+/g, "-")}`}
                title={s.entity}
                metric="sentiment"
                series={[s]}
                height={110}
                colourFrom={entityIndex}
                empty="No judged tick yet: the judge's figures appear once a judged tick's answers are judged."
              />
              <p className="mt-1 text-sm text-slate-700" data-testid="sentiment-sentence">
                {sentimentSentence(s.entity, latest, counts, previous)}
              </p>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The dashboard: visibility first and large, the other metrics beside each other, then visibility per engine. */
export function MonitorCharts({ dashboard, alerts, idPrefix = "monitor" }: { dashboard: MonitorDashboard; alerts: readonly (ChartAlert & { metric?: string | null })[]; idPrefix?: string }) {
  const cells = (engine: string) => alerts.filter((a) => a.tick_id && (a.engine ?? "all") === engine);
  const [head, ...rest] = dashboard.metrics;
  return (
    <div data-testid="monitor-charts">
      {head ? (
        <div className="mb-6">
          <TrendChart id={`${idPrefix}-${head.metric}`} title={`${METRIC_WORDS[head.metric].title}, all engines`} metric={head.metric} series={head.series} alerts={cells("all")} height={220} />
          <p className="mt-1 text-xs text-slate-500">{METRIC_WORDS[head.metric].about} A ringed point changed from the tick before by more than chance explains (tested as alerts are, allowing for every entity and engine compared at once).</p>
        </div>
      ) : null}
      {rest.length ? (
        <div className="grid gap-6 md:grid-cols-2">
          {rest.map((m) => (
            <div key={m.metric} className="min-w-0">
              <TrendChart id={`${idPrefix}-${m.metric}`} title={`${METRIC_WORDS[m.metric].title}, all engines`} metric={m.metric} series={m.series} height={140} />
              <p className="mt-1 text-xs text-slate-500">{METRIC_WORDS[m.metric].about}</p>
            </div>
          ))}
        </div>
      ) : null}
      {dashboard.sentiment ? <SentimentCharts sentiment={dashboard.sentiment} idPrefix={idPrefix} /> : null}
      {dashboard.byEngine.length > 1 ? (
        <div className="mt-8" data-testid="engine-multiples">
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Visibility by engine</h3>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {dashboard.byEngine.map((e) => (
              <div key={e.engine} className="min-w-0" data-testid="engine-multiple" data-engine={e.engine}>
                <TrendChart id={`${idPrefix}-engine-${e.engine}`} title={engineName(e.engine)} metric="visibility" series={e.series} alerts={cells(e.engine)} height={110} />
              </div>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
