// A citation analysis, on its signed-in and share pages alike: the charts of the most cited domains
// by engine and of the target domains' coverage, totals, each engine, the most cited domains and
// pages, coverage of the target domains with 95% intervals, brand mentions in the answers, by the
// searcher's country when the runs were made for one, and the overlap between engines.
import type { ReactNode } from "react";
import { Section } from "../../_components/ui";
import { countryName } from "@/lib/locale/codes";
import { citationsByEngine, countedRuns } from "@/lib/research/domain-engines";
import type { CitationAnalysis } from "@/lib/schemas/analyses";
import { engineName, when } from "../_lib/view";
import { Facts, Num, OutLink, ScrollTable, ShareHeading } from "./bits";
import { CoverageChart, DomainsChart } from "./citation-charts";
import { percent, percentRange } from "@/lib/words/format";

const TOP_DOMAINS = 20;
const TOP_PAGES = 20;
const CHART_DOMAINS = 10;

const interval = percentRange;
const engines = (ids: readonly string[]) => (ids.length ? ids.map(engineName).join(", ") : "—");

function EnginesCell({ ids }: { ids: readonly string[] }) {
  return <td className="min-w-[7rem] text-slate-600">{engines(ids)}</td>;
}

function topOf(shown: number, total: number, noun: string): string {
  return shown < total ? `Top ${shown} of ${total} ${noun}, by citations.` : `All ${total} ${noun}, by citations.`;
}

function Totals({ totals }: { totals: CitationAnalysis["totals"] }) {
  const items: Array<[string, number]> = [
    ["Answers counted", totals.runs],
    ["Prompts", totals.prompts],
    ["Engines", totals.engines],
    ["Citations", totals.citations],
    ["Cited pages", totals.unique_cited_urls],
    ["Cited domains", totals.unique_cited_domains],
    ["Sources observed", totals.sources_observed],
    ["Seen, not cited", totals.retrieved_not_cited],
    ["Citation status unknown", totals.citation_status_unknown],
    ["Unresolved redirects", totals.unresolved_sources],
    ["Answers without citation marks", totals.runs_without_citation_marks],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="totals">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-md bg-slate-50 px-3 py-2">
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className="text-lg font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Overlap({ overlap }: { overlap: CitationAnalysis["overlap"] }) {
  const counts = Object.entries(overlap.domains_by_engine_count).sort(([a], [b]) => Number(a) - Number(b));
  return (
    <Section id="overlap" title="Overlap between engines" description="How many cited domains and pages one engine, two engines and so on cited.">
      {overlap.engines > 1 ? (
        <div className="space-y-4" data-testid="overlap">
          <ScrollTable label="Overlap" columns={[{ label: "Cited by" }, { label: "Domains" }, { label: "Pages" }]}>
            {counts.map(([n, domains]) => (
              <tr key={n}>
                <td className="whitespace-nowrap">{n === String(overlap.engines) ? `all ${n} engines` : `${n} ${n === "1" ? "engine" : "engines"}`}</td>
                <Num>{domains}</Num>
                <Num>{overlap.pages_by_engine_count[n] ?? 0}</Num>
              </tr>
            ))}
          </ScrollTable>
          <p className="text-sm">
            <span className="text-slate-500">Domains every engine cited: </span>
            {overlap.domains_cited_by_every_engine.length ? overlap.domains_cited_by_every_engine.join(", ") : "none"}
          </p>
        </div>
      ) : (
        <p className="text-sm text-slate-500">Only one engine&apos;s answers were analysed, so there is no overlap to show.</p>
      )}
    </Section>
  );
}

/**
 * `coverageEmpty`: what the coverage chart's place says when the analysis covered no domain (the
 * signed-in page: how to give the project its domains); without it the place is left out.
 */
export async function CitationsView({ analysis, coverageEmpty }: { analysis: CitationAnalysis; coverageEmpty?: ReactNode }) {
  const { totals } = analysis;
  const chartDomains = analysis.domains.filter((d) => d.citations > 0).slice(0, CHART_DOMAINS).map((d) => d.domain);
  const byEngine = await citationsByEngine(countedRuns(analysis), chartDomains);
  const domains = analysis.domains.slice(0, TOP_DOMAINS);
  const pages = analysis.pages.slice(0, TOP_PAGES);
  const excluded = analysis.excluded_runs.length;
  return (
    <>
      <ShareHeading kicker="Citation analysis" title={`What ${totals.runs} ${totals.runs === 1 ? "answer" : "answers"} cited`}>
        <p className="mt-2 break-words text-slate-700">{analysis.subject}</p>
        <Facts
          items={[
            ["Date", when(analysis.completed_at ?? analysis.created_at)],
            ["Engines", engines(analysis.engines.map((e) => e.engine))],
            ["Prompts", String(totals.prompts)],
          ]}
        />
        {excluded > 0 ? (
          <p className="mt-3 text-sm text-slate-500">
            {excluded} {excluded === 1 ? "run was" : "runs were"} left out (unfinished, failed, not a prompt run, or named twice).
          </p>
        ) : null}
      </ShareHeading>

      <Section id="domains-by-engine" title="Most cited domains, by engine" description="Each bar is a domain's citations, split by the engine whose answers cited it.">
        <DomainsChart analysis={analysis} byEngine={byEngine} />
      </Section>

      {analysis.domain_coverage.length || coverageEmpty ? (
        <Section
          id="coverage-chart"
          title="Coverage of the target domains"
          description={analysis.domain_coverage.length ? "How often answers cited each domain, overall and by engine." : undefined}
        >
          {analysis.domain_coverage.length ? <CoverageChart coverage={analysis.domain_coverage} /> : coverageEmpty}
        </Section>
      ) : null}

      <Section id="totals" title="Totals">
        <Totals totals={totals} />
      </Section>

      <Section id="engines" title="Engines">
        <ScrollTable label="Engines" columns={[{ label: "Engine" }, { label: "Answers" }, { label: "With citations" }, { label: "Citations" }, { label: "Cited domains" }, { label: "Without marks" }]}>
          {analysis.engines.map((e) => (
            <tr key={e.engine}>
              <td className="font-medium whitespace-nowrap">{engineName(e.engine)}</td>
              <Num>{e.runs}</Num>
              <Num>{e.runs_with_citations}</Num>
              <Num>{e.citations}</Num>
              <Num>{e.unique_cited_domains}</Num>
              <Num>{e.runs_without_citation_marks}</Num>
            </tr>
          ))}
        </ScrollTable>
      </Section>

      {analysis.by_country?.some((c) => c.country !== null) ? (
        <Section id="countries" title="By country" description="The same answers by the searcher's country they were made for; the rows add up to the totals.">
          <ScrollTable label="By country" columns={[{ label: "Country" }, { label: "Answers" }, { label: "Citations" }, { label: "Cited domains" }, { label: "Most cited", text: true }]}>
            {analysis.by_country.map((c) => (
              <tr key={c.country ?? "-"} data-testid="country-row" data-country={c.country ?? ""}>
                <td className="font-medium whitespace-nowrap">{c.country ? `${countryName(c.country) ?? c.country} (${c.country})` : "No location"}</td>
                <Num>{c.runs}</Num>
                <Num>{c.citations}</Num>
                <Num>{c.unique_cited_domains}</Num>
                <td className="min-w-[10rem] text-slate-600">{c.domains.slice(0, 3).map((d) => d.domain).join(", ") || "—"}</td>
              </tr>
            ))}
          </ScrollTable>
        </Section>
      ) : null}

      <Section id="domains" title="Top domains" description={topOf(domains.length, analysis.domains.length, analysis.domains.length === 1 ? "domain cited or seen" : "domains cited or seen")}>
        {domains.length ? (
          <ScrollTable label="Top domains" columns={[{ label: "Domain" }, { label: "Citations" }, { label: "Pages" }, { label: "Answers" }, { label: "Prompts" }, { label: "Seen, not cited" }, { label: "Engines", text: true }]}>
            {domains.map((d) => (
              <tr key={d.domain}>
                <td className="font-medium whitespace-nowrap">{d.domain}</td>
                <Num>{d.citations}</Num>
                <Num>{d.pages}</Num>
                <Num>{d.runs}</Num>
                <Num>{d.prompts}</Num>
                <Num>{d.seen_not_cited}</Num>
                <EnginesCell ids={d.engines} />
              </tr>
            ))}
          </ScrollTable>
        ) : (
          <p className="text-sm text-slate-500">No answer cited or showed a page.</p>
        )}
      </Section>

      <Section id="pages" title="Top pages" description={topOf(pages.length, analysis.pages.length, analysis.pages.length === 1 ? "page cited or seen" : "pages cited or seen")}>
        {pages.length ? (
          <ScrollTable label="Top pages" columns={[{ label: "Page" }, { label: "Citations" }, { label: "Answers" }, { label: "Prompts" }, { label: "Seen, not cited" }, { label: "Engines", text: true }]}>
            {pages.map((p) => (
              <tr key={p.url}>
                <td className="max-w-[14rem] sm:max-w-[22rem]">
                  <OutLink href={p.url} title={p.url} className="block truncate text-indigo-700 hover:underline">
                    {p.url.replace(/^https?:\/\/(www\.)?/, "")}
                  </OutLink>
                </td>
                <Num>{p.citations}</Num>
                <Num>{p.runs}</Num>
                <Num>{p.prompts}</Num>
                <Num>{p.seen_not_cited}</Num>
                <EnginesCell ids={p.engines} />
              </tr>
            ))}
          </ScrollTable>
        ) : (
          <p className="text-sm text-slate-500">No answer cited or showed a page.</p>
        )}
      </Section>

      {analysis.domain_coverage.length ? (
        <Section
          id="coverage"
          title="Domain coverage"
          description="The share of answers that cited each domain (or a subdomain), with its 95% interval. Where the citations of some answers were not shown, the rate is a floor."
        >
          <ScrollTable label="Domain coverage" columns={[{ label: "Domain" }, { label: "Cited answers" }, { label: "Rate" }, { label: "95% interval" }, { label: "Citations" }, { label: "Prompts cited" }, { label: "By engine", text: true }]}>
            {analysis.domain_coverage.map((c) => (
              <tr key={c.domain}>
                <td className="font-medium whitespace-nowrap">{c.domain}</td>
                <Num>
                  {c.cited_runs} / {c.runs}
                  {c.unknown_runs > 0 ? <span className="text-slate-500"> (+{c.unknown_runs} unknown)</span> : null}
                </Num>
                <Num>
                  {c.unknown_runs > 0 ? "≥ " : ""}
                  {percent(c.cited_rate)}
                </Num>
                <Num>{interval(c.cited_rate_interval)}</Num>
                <Num>{c.citations}</Num>
                <Num>
                  {c.cited_prompts} / {c.prompts}
                </Num>
                <td className="text-slate-600">
                  {c.by_engine.map((e) => (
                    <div key={e.engine}>
                      {engineName(e.engine)} <span className="whitespace-nowrap">{e.cited_runs}/{e.runs} · {percent(e.cited_rate)}</span>{" "}
                      <span className="whitespace-nowrap text-slate-400">({interval(e.cited_rate_interval)})</span>
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </ScrollTable>
        </Section>
      ) : null}

      {analysis.textual_mentions.length ? (
        <Section id="mentions" title="Mentions in the answers" description="Whole-word matches of each term in the answer text, in any case.">
          <ScrollTable label="Mentions" columns={[{ label: "Term" }, { label: "Answers mentioning" }, { label: "Prompts mentioning" }, { label: "Occurrences" }, { label: "Answers by engine", text: true }]}>
            {analysis.textual_mentions.map((m) => (
              <tr key={m.term}>
                <td className="font-medium whitespace-nowrap">{m.term}</td>
                <Num>
                  {m.runs_mentioning} / {m.runs}
                </Num>
                <Num>
                  {m.prompts_mentioning} / {m.prompts}
                </Num>
                <Num>{m.occurrences}</Num>
                <td className="min-w-[10rem] text-slate-600">
                  {Object.entries(m.runs_mentioning_by_engine)
                    .sort(([a], [b]) => a.localeCompare(b))
                    .map(([engine, n]) => `${engineName(engine)} ${n}`)
                    .join(" · ") || "—"}
                </td>
              </tr>
            ))}
          </ScrollTable>
        </Section>
      ) : null}

      <Overlap overlap={analysis.overlap} />
    </>
  );
}
