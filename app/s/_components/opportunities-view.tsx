// An opportunity list, signed in and shared alike (decisions.md "Opportunities"): its summary,
// then each section as a table whose every figure has its n, its interval where it has one, and
// its evidence (the runs, the competitor's sentence, the cited page).
import type { ReactNode } from "react";
import type { OpportunityAnalysis } from "@/lib/schemas/opportunities";
import { count, percent, percentRange, points, pointsRange } from "@/lib/words/format";
import { Section } from "../../_components/ui";
import { engineName } from "../_lib/view";
import { Facts, Num, ScrollTable, ShareHeading, SummaryLead } from "./bits";

function Runs({ ids, runLink }: { ids: readonly string[]; runLink?: (id: string) => string }) {
  const shown = ids.slice(0, 5);
  return (
    <span className="flex flex-wrap gap-x-2">
      {shown.map((id) =>
        runLink ? (
          <a key={id} href={runLink(id)} className="font-mono text-xs text-indigo-700 hover:underline">
            {id}
          </a>
        ) : (
          <span key={id} className="font-mono text-xs">
            {id}
          </span>
        ),
      )}
      {ids.length > shown.length ? <span className="text-xs text-slate-500">and {ids.length - shown.length} more</span> : null}
    </span>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm text-slate-600">{children}</p>;

/** A section's CSV download, where the reader may download (the signed-in page). */
function Csv({ href, section }: { href?: (section: string) => string; section: string }) {
  if (!href) return null;
  return (
    <p className="mt-3 text-sm">
      <a href={href(section)} download className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100" data-testid={`csv-${section}`}>
        Download (CSV)
      </a>
    </p>
  );
}

export function OpportunitiesView({ analysis: a, runLink, csv, lead }: { analysis: OpportunityAnalysis; runLink?: (id: string) => string; csv?: (section: string) => string; lead?: ReactNode }) {
  return (
    <>
      <ShareHeading kicker="Opportunities" title={`What to do next for ${a.brand}`}>
        <SummaryLead sentences={a.summary} />
        <Facts
          items={[
            ["Answers read", String(a.totals.runs)],
            ["Prompts", `${a.totals.lost_prompts} of ${a.totals.prompts} lost`],
            ["Competitors", a.competitors.join(", ") || "none"],
            ["Visibility analysis", a.project_id ? <a href={`/analyses/${a.analysis_id}`} className="font-mono text-indigo-700 hover:underline">{a.analysis_id}</a> : a.analysis_id],
          ]}
        />
        {lead}
      </ShareHeading>
      <Section id="lost-prompts" title="Prompts competitors win" description="A competitor is named more often than the brand, and the 95% interval of the difference (Newcombe) excludes no difference. Most certain first.">
        {a.lost_prompts.length === 0 ? (
          <Empty>No prompt is lost beyond what chance explains.</Empty>
        ) : (
          <ScrollTable label="Prompts competitors win" columns={[{ label: "Prompt", text: true }, { label: "Competitor" }, { label: a.brand }, { label: "Difference" }, { label: "Evidence", text: true }]}>
            {a.lost_prompts.map((l) => (
              <tr key={l.prompt} data-testid="lost-prompt">
                <td className="max-w-xs min-w-40 wrap-anywhere">{l.prompt}</td>
                <Num>
                  {l.competitor.name}: {percent(l.competitor.visibility)} <span className="text-slate-500">({count(l.competitor.runs_mentioning, l.n)}; {percentRange(l.competitor.visibility_interval)})</span>
                </Num>
                <Num>
                  {percent(l.brand.visibility)} <span className="text-slate-500">({count(l.brand.runs_mentioning, l.n)}; {percentRange(l.brand.visibility_interval)})</span>
                </Num>
                <Num>
                  {points(l.diff)} <span className="text-slate-500">(95% {pointsRange(l.diff_interval)})</span>
                </Num>
                <td className="max-w-md min-w-64 wrap-anywhere">
                  {l.evidence.map((e) => (
                    <p key={e.run_id} className="text-slate-700">
                      “{e.sentence}” <span className="text-xs text-slate-500">{engineName(e.engine)}</span>
                    </p>
                  ))}
                  <Runs ids={l.run_ids} runLink={runLink} />
                </td>
              </tr>
            ))}
          </ScrollTable>
        )}
        {a.lost_prompts.length ? <Csv href={csv} section="lost_prompts" /> : null}
      </Section>
      <Section id="citation-targets" title="Pages to be cited on" description={`Pages cited in the ${a.totals.target_runs} answers of lost prompts that name a competitor and not ${a.brand}; ${a.brand}'s own domains left out. A competitor's own page is marked: ${a.brand} cannot be cited there, but it shows what the engines take from it.`}>
        {a.citation_targets.length === 0 ? (
          <Empty>No page is cited in those answers.</Empty>
        ) : (
          <ScrollTable label="Pages to be cited on" columns={[{ label: "Page", text: true }, { label: "Answers citing" }, { label: "Competitors named", text: true }, { label: "Runs", text: true }]}>
            {a.citation_targets.map((t) => (
              <tr key={t.url} data-testid="citation-target">
                <td className="break-all">
                  <a href={t.url} rel="nofollow noopener" className="text-indigo-700 hover:underline">{t.url}</a>
                  {t.owner ? <span className="ml-1 text-xs text-slate-500" data-testid="target-owner">{`${t.owner}'s own page`}</span> : null}
                </td>
                <Num>{count(t.runs_citing, t.n)}</Num>
                <td className="break-words">{t.competitors.map((c) => `${c.name} (${c.runs})`).join(", ")}</td>
                <td><Runs ids={t.run_ids} runLink={runLink} /></td>
              </tr>
            ))}
          </ScrollTable>
        )}
        {a.citation_targets.length ? <Csv href={csv} section="citation_targets" /> : null}
      </Section>
      <Section id="own-pages" title={`${a.brand}'s own pages cited`} description={`Pages of ${a.brand_domains.join(", ") || "no domain tracked"} cited in any answer, and in how many of those answers ${a.brand} is not named.`}>
        {a.own_pages.length === 0 ? (
          <Empty>{a.brand_domains.length === 0 ? `${a.brand} has no domain tracked.` : `No answer cites a page of ${a.brand}'s own.`}</Empty>
        ) : (
          <ScrollTable label="Own pages cited" columns={[{ label: "Page", text: true }, { label: "Answers citing" }, { label: "Not naming it" }, { label: "By engine", text: true }]}>
            {a.own_pages.map((o) => (
              <tr key={o.url} data-testid="own-page">
                <td className="break-all">
                  <a href={o.url} rel="nofollow noopener" className="text-indigo-700 hover:underline">{o.url}</a>
                </td>
                <Num>{count(o.runs_citing, o.n)}</Num>
                <Num>{count(o.cited_not_mentioned, o.runs_citing)}</Num>
                <td className="break-words">{o.by_engine.map((g) => `${engineName(g.engine)}: ${g.runs_citing}`).join("; ")}</td>
              </tr>
            ))}
          </ScrollTable>
        )}
        {a.own_pages.length ? <Csv href={csv} section="own_pages" /> : null}
      </Section>
      <Section id="query-gaps" title="What the engines searched on lost prompts" description="Queries compared lower-cased, spaces collapsed; per engine, over that engine's answers to lost prompts.">
        {a.query_gaps.length === 0 ? (
          <Empty>No search was reported on lost prompts.</Empty>
        ) : (
          <ScrollTable label="Searches on lost prompts" columns={[{ label: "Query", text: true }, { label: "Engine", text: true }, { label: "Answers" }]}>
            {a.query_gaps.map((q) => (
              <tr key={`${q.engine} ${q.query}`} data-testid="query-gap">
                <td className="max-w-md wrap-anywhere">{q.query}</td>
                <td>{engineName(q.engine)}</td>
                <Num>
                  {count(q.runs, q.n)} <span className="text-slate-500">({percent(q.n ? q.runs / q.n : 0)})</span>
                </Num>
              </tr>
            ))}
          </ScrollTable>
        )}
        {a.query_gaps.length ? <Csv href={csv} section="query_gaps" /> : null}
      </Section>
    </>
  );
}
