// A citation analysis's charts, on its signed-in and share pages alike, drawn on the server as SVG
// (no script, nothing from a CDN): the most cited domains as bars stacked by engine, and the
// coverage of the target domains with their 95% intervals. Each has a legend or caption, a text description for screen readers, and
// its figures as a table.
import type { CitationAnalysis } from "@/lib/schemas/analyses";
import { AXIS_HEIGHT, ROW, rateRows, stackedBars, type Tick } from "../../(research)/_lib/charts";
import { engineName } from "../_lib/view";
import { Num, ScrollTable } from "./bits";
import { percent, percentRange } from "@/lib/words/format";

/** Okabe–Ito colours: told apart with the common colour blindnesses. */
// Okabe-Ito and Tol colours, told apart with colour blindness; an API and its app in related hues.
const ENGINE_COLOURS: Record<string, string> = {
  chatgpt: "#0072B2",
  claude: "#E69F00",
  gemini: "#CC79A7",
  perplexity: "#009E73",
  chatgpt_app: "#56B4E9",
  gemini_app: "#882255",
  google_ai_overview: "#332288",
  google_ai_mode: "#D55E00",
};
const OTHER_COLOUR = "#94a3b8";
const UNATTRIBUTED = "unattributed";
const TOP = 10;

const colourOf = (key: string) => ENGINE_COLOURS[key] ?? OTHER_COLOUR;
const labelOf = (key: string) => (key === UNATTRIBUTED ? "Not attributed" : engineName(key));
/** The axis's marks (0%, 25%…): scaffolding, not figures. */
const mark = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const cut = (s: string, n = 44) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function Grid({ ticks, plotHeight, format }: { ticks: Tick[]; plotHeight: number; format: (v: number) => string }) {
  return (
    <g aria-hidden="true">
      {ticks.map((t, i) => (
        <g key={t.value}>
          <line x1={`${t.pct}%`} x2={`${t.pct}%`} y1={0} y2={plotHeight} stroke="#e2e8f0" strokeWidth={1} />
          <text
            x={`${t.pct}%`}
            y={plotHeight + AXIS_HEIGHT - 6}
            fontSize={11}
            fill="#64748b"
            textAnchor={i === 0 ? "start" : i === ticks.length - 1 ? "end" : "middle"}
          >
            {format(t.value)}
          </text>
        </g>
      ))}
    </g>
  );
}

function Legend({ keys }: { keys: string[] }) {
  return (
    <ul className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" aria-label="Legend">
      {keys.map((k) => (
        <li key={k} className="flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: colourOf(k) }} aria-hidden="true" />
          {labelOf(k)}
        </li>
      ))}
    </ul>
  );
}

/** Citations of the most cited domains, each bar split by the engines that cited it. */
export function DomainsChart({ analysis, byEngine }: { analysis: CitationAnalysis; byEngine: Map<string, Map<string, number>> }) {
  const top = analysis.domains.filter((d) => d.citations > 0).slice(0, TOP);
  if (top.length === 0) return <p className="text-sm text-slate-500">No answer cited a page, so there is nothing to chart.</p>;
  const engines = analysis.engines.map((e) => e.engine);
  const values = top.map((d) => {
    const counts = byEngine.get(d.domain) ?? new Map<string, number>();
    const per = engines.map((e) => ({ key: e, value: counts.get(e) ?? 0 }));
    const attributed = per.reduce((n, v) => n + v.value, 0);
    // What run_sources cannot attribute (it should be nothing) keeps the bar equal to the table.
    return d.citations > attributed ? [...per, { key: UNATTRIBUTED, value: d.citations - attributed }] : per;
  });
  const keys = [...engines, ...(values.some((v) => v.some((x) => x.key === UNATTRIBUTED)) ? [UNATTRIBUTED] : [])];
  const chart = stackedBars(top.map((d, i) => ({ label: d.domain, values: values[i]! })));
  const plotHeight = chart.height - AXIS_HEIGHT;
  const describe = (i: number) =>
    values[i]!
      .filter((v) => v.value > 0)
      .map((v) => `${labelOf(v.key)} ${v.value}`)
      .join(", ");
  return (
    <figure data-testid="domains-chart">
      <Legend keys={keys} />
      <svg width="100%" height={chart.height} role="img" aria-labelledby="domains-chart-title domains-chart-desc" className="block overflow-visible font-sans">
        <title id="domains-chart-title">{`Citations of the ${top.length} most cited domains, by engine`}</title>
        <desc id="domains-chart-desc">{top.map((d, i) => `${d.domain}: ${d.citations} (${describe(i)})`).join("; ")}</desc>
        <Grid ticks={chart.axis.ticks} plotHeight={plotHeight} format={String} />
        {chart.rows.map((row, i) => (
          <g key={row.label} data-testid="domains-chart-bar" data-domain={row.label} data-total={row.total}>
            <text x={0} y={row.labelY} fontSize={12} fill="#334155">
              {cut(row.label)}
            </text>
            <text x="100%" y={row.labelY} fontSize={12} fill="#334155" textAnchor="end" className="tabular-nums">
              {top[i]!.citations}
            </text>
            {row.segments.map((s) => (
              <rect key={s.key} x={`${s.x}%`} y={row.barY} width={`${s.width}%`} height={ROW.bar} fill={colourOf(s.key)} stroke="#fff" strokeWidth={1}>
                <title>{`${row.label}, ${labelOf(s.key)}: ${s.value}`}</title>
              </rect>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 text-sm text-slate-600">
        Citations (an answer&apos;s citation marks of the domain&apos;s pages, at least one per cited page) of the {top.length} most cited domains.
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-indigo-700">The figures as a table</summary>
        <div className="mt-2">
          <ScrollTable label="Citations by domain and engine" columns={[{ label: "Domain" }, ...keys.map((k) => ({ label: labelOf(k) })), { label: "All" }]}>
            {top.map((d, i) => (
              <tr key={d.domain}>
                <td className="font-medium whitespace-nowrap">{d.domain}</td>
                {keys.map((k) => (
                  <Num key={k}>{values[i]!.find((v) => v.key === k)?.value ?? 0}</Num>
                ))}
                <Num>{d.citations}</Num>
              </tr>
            ))}
          </ScrollTable>
        </div>
      </details>
    </figure>
  );
}

/** The share of answers that cited each target domain, overall and by engine, with its 95% interval. */
export function CoverageChart({ coverage }: { coverage: CitationAnalysis["domain_coverage"] }) {
  type Row = { label: string; rate: number; interval: readonly [number, number]; floor: boolean; sub?: boolean; runs: string };
  const inputs = coverage.flatMap((c): Row[] => [
    { label: c.domain, rate: c.cited_rate, interval: c.cited_rate_interval, floor: c.unknown_runs > 0, runs: `${c.cited_runs} of ${c.runs}` },
    ...c.by_engine.map((e) => ({
      label: engineName(e.engine),
      rate: e.cited_rate,
      interval: e.cited_rate_interval,
      floor: e.unknown_runs > 0,
      sub: true,
      runs: `${e.cited_runs} of ${e.runs}`,
    })),
  ]);
  const chart = rateRows(inputs);
  const plotHeight = chart.height - AXIS_HEIGHT;
  const said = (r: (typeof inputs)[number]) =>
    `${r.floor ? "at least " : ""}${percent(r.rate)} (${r.runs} answers; 95% interval ${percentRange(r.interval)})`;
  return (
    <figure data-testid="coverage-chart">
      <svg width="100%" height={chart.height} role="img" aria-labelledby="coverage-chart-title coverage-chart-desc" className="block overflow-visible font-sans">
        <title id="coverage-chart-title">Share of answers citing each domain, with 95% intervals</title>
        <desc id="coverage-chart-desc">{inputs.map((r) => `${r.sub ? `  ${r.label}` : r.label}: ${said(r)}`).join("; ")}</desc>
        <Grid ticks={chart.ticks} plotHeight={plotHeight} format={mark} />
        {chart.rows.map((row, i) => (
          <g key={`${i}-${row.label}`} data-testid="coverage-chart-row" data-label={row.label} data-rate={row.rate}>
            <text x={row.sub ? 12 : 0} y={row.labelY} fontSize={12} fill={row.sub ? "#475569" : "#0f172a"} fontWeight={row.sub ? 400 : 600}>
              {cut(row.label, 28)}
            </text>
            <text x="100%" y={row.labelY} fontSize={12} fill="#334155" textAnchor="end" className="tabular-nums">
              {`${row.floor ? "≥ " : ""}${percent(row.rate)} (${percentRange(row.interval)})`}
            </text>
            <rect x={0} y={row.barY} width="100%" height={ROW.bar} fill="#f1f5f9" />
            <rect x={`${row.low}%`} y={row.barY + 3} width={`${Math.max(0.5, row.high - row.low)}%`} height={ROW.bar - 6} rx={2} fill={row.sub ? "#cbd5e1" : "#a5b4fc"}>
              <title>{`95% interval ${percentRange(row.interval)}`}</title>
            </rect>
            <circle cx={`${row.x}%`} cy={row.barY + ROW.bar / 2} r={row.sub ? 3.5 : 5} fill={row.sub ? "#475569" : "#4338ca"} stroke="#fff" strokeWidth={1.5}>
              <title>{`${row.label}: ${said(inputs[i]!)}`}</title>
            </circle>
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 text-sm text-slate-600">
        The dot is the share of answers that cited the domain or a subdomain; the band is its 95% interval (Wilson). ≥ marks a floor: some answers did not
        show their citations.
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-indigo-700">The figures as a table</summary>
        <div className="mt-2">
          <ScrollTable label="Coverage by domain and engine" columns={[{ label: "Domain or engine" }, { label: "Cited answers" }, { label: "Rate" }, { label: "95% interval" }]}>
            {inputs.map((r, i) => (
              <tr key={`${i}-${r.label}`}>
                <td className={r.sub ? "pl-4 text-slate-600" : "font-medium"}>{r.label}</td>
                <Num>{r.runs}</Num>
                <Num>
                  {r.floor ? "≥ " : ""}
                  {percent(r.rate)}
                </Num>
                <Num>
                  {percentRange(r.interval)}
                </Num>
              </tr>
            ))}
          </ScrollTable>
        </div>
      </details>
    </figure>
  );
}
