// A visibility analysis, signed in and shared alike: share of voice, visibility per engine with its
// 95% interval bands, the position each entity was named in, every figure with its n, the prompt x
// entity matrix, by country, and the mentions behind them (each figure links to its mentions,
// and each mention to its answer with every mention highlighted). Drawn on the server as HTML
// (no script), so it reads with JavaScript off and on a phone.
import type { ReactNode } from "react";
import { countryName } from "@/lib/locale/codes";
import type { EntityFigures, Mention, VisibilityAnalysis } from "@/lib/schemas/visibility";
import { percent, percentRange, place, placeRange } from "@/lib/words/format";
import { Section } from "../../_components/ui";
import { engineName, when } from "../_lib/view";
import { ExcludedRuns, Facts, Num, ScrollTable, ShareHeading, SummaryLead, Tag } from "./bits";

/** What the mentions list shows: the filters of a figure's link, in the page's address. */
export type MentionFilter = {
  entity?: string;
  engine?: string;
  counted?: "true" | "false";
  /** The prompt's place among the analysis's prompts (by_prompt order). */
  prompt?: number;
  /** A country code, or "none" for runs without a location. */
  country?: string;
  run?: string;
};

export type AnswerEvidence = { run_id: string; engine: string | null; prompt: string; answer: string; mentions: Mention[] };

export type Evidence = {
  filter: MentionFilter;
  items: Mention[];
  /** The next page's address, or null. */
  next: string | null;
  /** Whether this is a later page (a link back to the first is shown). */
  later: boolean;
  /** The answer shown with its mentions highlighted, if one was asked for. */
  answer: AnswerEvidence | null;
};

/** Addresses of the page: the mentions list with a filter, and an answer's highlighted text. */
export type Links = { mentions: (filter: MentionFilter) => string; answer: (runId: string, filter: MentionFilter) => string; runPage?: (runId: string) => string };

/** Okabe–Ito colours, told apart with the common colour blindnesses; entities past eight are grey. */
const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];
const colourOf = (i: number) => COLOURS[i] ?? "#94a3b8";
const band = (i: readonly [number, number] | null) => (i ? percentRange(i) : "—");
const placeBand = (i: readonly [number, number] | null) => (i ? placeRange(i) : "—");
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const countryLabel = (code: string | null) => (code === null ? "No location" : `${countryName(code) ?? code} (${code})`);

function FigureLink({ href, children, title }: { href: string; children: ReactNode; title?: string }) {
  return (
    <a href={href} title={title} className="text-indigo-700 hover:underline">
      {children}
    </a>
  );
}

/** The share of the runs naming any tracked entity that named each one. */
function ShareOfVoice({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  const basis = analysis.rows[0]?.share_of_voice_n ?? 0;
  if (basis === 0) return <p className="text-sm text-slate-600">No answer named a tracked entity, so there is no share to divide.</p>;
  return (
    <figure data-testid="share-of-voice">
      <div className="flex h-8 w-full overflow-hidden rounded-md bg-slate-100" role="img" aria-label={`Share of voice, of the ${basis} times an answer named a tracked entity: ${analysis.rows.map((r) => `${r.name} ${percent(r.share_of_voice ?? 0)}`).join(", ")}`}>
        {analysis.rows.map((r, i) =>
          r.runs_mentioning > 0 ? (
            <a
              key={r.name}
              href={links.mentions({ entity: r.name, counted: "true" })}
              style={{ width: `${((r.share_of_voice ?? 0) * 100).toFixed(2)}%`, backgroundColor: colourOf(i) }}
              className="block h-full border-r border-white last:border-r-0"
              title={`${r.name}: ${percent(r.share_of_voice ?? 0)} (${r.runs_mentioning} of ${basis})`}
              data-testid="share-segment"
              data-entity={r.name}
            />
          ) : null,
        )}
      </div>
      <ul className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" aria-label="Legend">
        {analysis.rows.map((r, i) => (
          <li key={r.name} className="flex min-w-0 items-baseline gap-2">
            <span className="inline-block h-3 w-3 shrink-0 translate-y-0.5 rounded-sm" style={{ backgroundColor: colourOf(i) }} aria-hidden="true" />
            <span className="min-w-0 break-words">
              <FigureLink href={links.mentions({ entity: r.name, counted: "true" })}>{r.name}</FigureLink>{" "}
              <span className="tabular-nums">{r.share_of_voice === null ? "—" : percent(r.share_of_voice)}</span>{" "}
              <span className="text-slate-500">
                ({r.runs_mentioning} of {basis})
              </span>
              {r.role === "brand" ? <span className="ml-1"><Tag tone="indigo">yours</Tag></span> : null}
            </span>
          </li>
        ))}
      </ul>
      <figcaption className="mt-2 text-sm text-slate-600">
        Of the {basis} times an answer named a tracked entity (a run naming two counts for both), the share that named each. Link labels, prompt echoes and “found nothing about”
        sentences are not counted.
      </figcaption>
    </figure>
  );
}

/** A rate with its interval as a band on a 0–100% track, its n beside it, linking to its mentions. */
function RateRow({ label, sub, rate, interval, k, n, href, colour }: { label: string; sub?: boolean; rate: number; interval: readonly [number, number]; k: number; n: number; href: string; colour: string }) {
  const pct = (x: number) => `${Math.min(100, Math.max(0, x * 100)).toFixed(2)}%`;
  return (
    <li className={sub ? "pl-3" : "pt-2"} data-testid="rate-row" data-label={label} data-rate={rate}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <a href={href} className={`min-w-0 break-words hover:underline ${sub ? "text-slate-600" : "font-medium text-slate-900"}`}>
          {label}
        </a>
        <span className="tabular-nums text-slate-700">
          {percent(rate)} <span className="text-slate-500">({k} of {n}; 95% {band(interval)})</span>
        </span>
      </div>
      <div className="relative mt-1 h-3 rounded bg-slate-100" aria-hidden="true">
        <div className="absolute top-0.5 bottom-0.5 rounded opacity-40" style={{ left: pct(interval[0]), width: `calc(${pct(interval[1] - interval[0])} + 2px)`, backgroundColor: colour }} />
        <div className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white" style={{ left: pct(rate), backgroundColor: colour }} />
      </div>
    </li>
  );
}

function VisibilityByEngine({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  return (
    <figure data-testid="visibility-by-engine">
      <ul className="grid gap-x-8 gap-y-4 md:grid-cols-2">
        {analysis.rows.map((r, i) => (
          <li key={r.name}>
            <ul className="space-y-1.5">
              <RateRow label={r.name} rate={r.visibility} interval={r.visibility_interval} k={r.runs_mentioning} n={r.runs} href={links.mentions({ entity: r.name, counted: "true" })} colour={colourOf(i)} />
              {r.by_engine.map((g) => (
                <RateRow
                  key={g.engine}
                  sub
                  label={engineName(g.engine)}
                  rate={g.visibility}
                  interval={g.visibility_interval}
                  k={g.runs_mentioning}
                  n={g.runs}
                  href={links.mentions({ entity: r.name, engine: g.engine, counted: "true" })}
                  colour={colourOf(i)}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <figcaption className="mt-3 text-sm text-slate-600">
        The dot is the share of answers that named the entity (a counted mention); the band is its 95% interval (Wilson). Few answers give a wide band.
      </figcaption>
    </figure>
  );
}

/** Runs by the place each entity was first named in, and the runs that did not name it. */
function Positions({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  const places = analysis.entities.length;
  const shade = (k: number) => `hsl(226 70% ${Math.round(35 + (45 * (k - 1)) / Math.max(1, places - 1))}%)`;
  return (
    <figure data-testid="positions">
      <ul className="space-y-3">
        {analysis.rows.map((r) => (
          <li key={r.name}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <FigureLink href={links.mentions({ entity: r.name, counted: "true" })}>{r.name}</FigureLink>
              <span className="tabular-nums text-slate-700">
                {r.average_position === null ? (
                  "never named"
                ) : (
                  <>
                    average place {place(r.average_position)} <span className="text-slate-500">(95% {placeBand(r.average_position_interval)}; n = {r.runs_mentioning})</span>
                  </>
                )}
              </span>
            </div>
            <div className="mt-1 flex h-4 w-full overflow-hidden rounded bg-slate-100" role="img" aria-label={`${r.name}: ${Object.entries(r.position_counts).map(([k, v]) => `place ${k}: ${v}`).join(", ")}; not named: ${r.runs - r.runs_mentioning}; of ${r.runs} runs`}>
              {Object.entries(r.position_counts).map(([k, v]) =>
                v > 0 ? <div key={k} style={{ width: `${(v / Math.max(1, r.runs)) * 100}%`, backgroundColor: shade(Number(k)) }} title={`place ${k}: ${v} of ${r.runs}`} className="h-full border-r border-white" /> : null,
              )}
            </div>
            <p className="mt-0.5 text-xs text-slate-500 tabular-nums">
              {Object.entries(r.position_counts)
                .filter(([, v]) => v > 0)
                .map(([k, v]) => `#${k}: ${v}`)
                .join(" · ") || "—"}
              {" · "}not named: {r.runs - r.runs_mentioning} · of {r.runs} runs
            </p>
          </li>
        ))}
      </ul>
      <figcaption className="mt-3 text-sm text-slate-600">
        Place 1 is the entity an answer named first among the tracked ones (by its first counted mention). The average is over the runs naming it, with a 95% interval (
        {analysis.interval_method === "bootstrap" ? "a bootstrap interval, as this analysis was made" : `Student's t, within places 1 to ${places}`}).
      </figcaption>
    </figure>
  );
}

/** A figure's n and interval under it, each on its own line, so the table fits a laptop's width. */
function Under({ n, interval }: { n: ReactNode; interval?: string }) {
  return (
    <>
      {" "}
      <span className="block text-xs text-slate-500">{n}</span>{" "}
      {interval ? <span className="block text-xs text-slate-500">{interval}</span> : null}
    </>
  );
}

/** Every figure of every entity, each with its n and interval, each linking to its mentions. */
function FiguresTable({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  const columns = [
    { label: "Entity", text: true }, { label: "Visibility" }, { label: "Share of voice" }, { label: "Average place" }, { label: "Top 1" }, { label: "Top 3" },
    { label: "Prominence" }, { label: "Cited" }, { label: "Named and cited" }, { label: "Mentions" }, { label: "Not counted" },
  ];
  return (
    <ScrollTable label="Every figure" columns={columns}>
      {analysis.rows.map((r) => {
        const all = links.mentions({ entity: r.name, counted: "true" });
        return (
          <tr key={r.name} data-testid="figures-row" data-entity={r.name}>
            <td className="font-medium break-words">
              {r.name} {r.role === "brand" ? <Tag tone="indigo">yours</Tag> : null}
            </td>
            <Num>
              <FigureLink href={all}>{percent(r.visibility)}</FigureLink>
              <Under n={`${r.runs_mentioning}/${r.runs}`} interval={band(r.visibility_interval)} />
            </Num>
            <Num>
              {r.share_of_voice === null ? "—" : percent(r.share_of_voice)}
              <Under n={`${r.runs_mentioning}/${r.share_of_voice_n}`} />
            </Num>
            <Num>
              {r.average_position === null ? "—" : place(r.average_position)}
              <Under n={`n ${r.runs_mentioning}`} interval={placeBand(r.average_position_interval)} />
            </Num>
            <Num>
              {percent(r.top1_rate)}
              <Under n={`${r.runs_top1}/${r.runs}`} interval={band(r.top1_rate_interval)} />
            </Num>
            <Num>
              {percent(r.top3_rate)}
              <Under n={`${r.runs_top3}/${r.runs}`} interval={band(r.top3_rate_interval)} />
            </Num>
            <Num>
              {percent(r.prominence)}
              <Under n={`n ${r.runs}`} interval={band(r.prominence_interval)} />
            </Num>
            <Num>
              {percent(r.cited_rate)}
              <Under n={`${r.runs_citing}/${r.runs}`} interval={band(r.cited_rate_interval)} />
            </Num>
            <Num>
              {r.mentioned_and_cited} both <span className="block text-xs text-slate-500">{r.mentioned_not_cited} named only</span>{" "}
              <span className="block text-xs text-slate-500">{r.cited_not_mentioned} cited only</span>
            </Num>
            <Num>
              <FigureLink href={all}>{r.mentions}</FigureLink>
            </Num>
            <Num>
              <FigureLink href={links.mentions({ entity: r.name, counted: "false" })} title="Link labels, prompt echoes and absence sentences">
                {r.mentions_not_counted.prompt_echo + r.mentions_not_counted.absence + r.mentions_not_counted.link}
              </FigureLink>{" "}
              <span className="block text-xs text-slate-500">{r.mentions_not_counted.link} link</span>{" "}
              <span className="block text-xs text-slate-500">{r.mentions_not_counted.prompt_echo} echo</span>{" "}
              <span className="block text-xs text-slate-500">{r.mentions_not_counted.absence} absent</span>
            </Num>
          </tr>
        );
      })}
    </ScrollTable>
  );
}

/** A cell of a matrix: the visibility in a group, shaded by it, with its n, linking to its mentions. */
function MatrixCell({ f, href, colour }: { f: EntityFigures; href: string; colour: string }) {
  return (
    <td className="text-center whitespace-nowrap tabular-nums" style={{ backgroundColor: f.runs ? `color-mix(in srgb, ${colour} ${Math.round(f.visibility * 55)}%, white)` : undefined }}>
      <a href={href} className="block px-1 hover:underline" title={`95% ${band(f.visibility_interval)}`}>
        {percent(f.visibility)} <span className="text-xs text-slate-600">{f.runs_mentioning}/{f.runs}</span>
      </a>
    </td>
  );
}

function PromptMatrix({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  const prompts = analysis.rows[0]?.by_prompt ?? [];
  return (
    <div data-testid="prompt-matrix">
      <ScrollTable label="Visibility by prompt and entity" columns={[{ label: "Prompt", text: true }, ...analysis.rows.map((r) => ({ label: r.name }))]}>
        {prompts.map((p, k) => (
          <tr key={k}>
            <td className="max-w-[16rem] min-w-[10rem] break-words text-slate-700" title={p.prompt}>
              {cut(p.prompt, 90)} <span className="text-xs text-slate-500">({p.runs} runs)</span>
            </td>
            {analysis.rows.map((r, i) => (
              <MatrixCell key={r.name} f={r.by_prompt[k]!} href={links.mentions({ entity: r.name, prompt: k, counted: "true" })} colour={colourOf(i)} />
            ))}
          </tr>
        ))}
      </ScrollTable>
      <p className="mt-2 text-sm text-slate-600">Each cell: the share of that prompt&apos;s answers naming the entity, with how many of how many; darker is more.</p>
    </div>
  );
}

function CountryMatrix({ analysis, links }: { analysis: VisibilityAnalysis; links: Links }) {
  const countries = analysis.rows[0]?.by_country ?? [];
  return (
    <div data-testid="country-matrix">
      <ScrollTable label="Visibility by country and entity" columns={[{ label: "Country", text: true }, ...analysis.rows.map((r) => ({ label: r.name }))]}>
        {countries.map((c, k) => (
          <tr key={c.country ?? "none"}>
            <td className="whitespace-nowrap text-slate-700">
              {countryLabel(c.country)} <span className="text-xs text-slate-500">({c.runs} runs)</span>
            </td>
            {analysis.rows.map((r, i) => (
              <MatrixCell key={r.name} f={r.by_country[k]!} href={links.mentions({ entity: r.name, country: c.country ?? "none", counted: "true" })} colour={colourOf(i)} />
            ))}
          </tr>
        ))}
      </ScrollTable>
    </div>
  );
}

/** `text` with every case-insensitive occurrence of `name` marked. */
function marked(text: string, name: string): ReactNode[] {
  const out: ReactNode[] = [];
  const lower = text.toLowerCase();
  const needle = name.toLowerCase();
  let at = 0;
  for (let i = needle ? lower.indexOf(needle) : -1; i >= 0; i = lower.indexOf(needle, i + needle.length)) {
    if (i > at) out.push(text.slice(at, i));
    out.push(
      <mark key={i} className="rounded bg-amber-200 px-0.5">
        {text.slice(i, i + needle.length)}
      </mark>,
    );
    at = i + needle.length;
  }
  out.push(text.slice(at));
  return out;
}

const REASONS = { prompt_echo: "quotes the prompt or a search", absence: "says nothing was found", link: "a link's label (a cited page)" } as const;

function filterWords(filter: MentionFilter, analysis: VisibilityAnalysis): string[] {
  const prompts = analysis.rows[0]?.by_prompt ?? [];
  return [
    filter.entity ? `entity ${filter.entity}` : null,
    filter.engine ? `on ${engineName(filter.engine)}` : null,
    filter.counted === "true" ? "counted" : filter.counted === "false" ? "not counted" : null,
    filter.prompt !== undefined && prompts[filter.prompt] ? `prompt “${cut(prompts[filter.prompt]!.prompt, 60)}”` : null,
    filter.country ? (filter.country === "none" ? "runs without a location" : `in ${countryLabel(filter.country)}`) : null,
    filter.run ? `run ${filter.run}` : null,
  ].filter((w): w is string => w !== null);
}

function MentionsList({ analysis, evidence, links }: { analysis: VisibilityAnalysis; evidence: Evidence; links: Links }) {
  const words = filterWords(evidence.filter, analysis);
  return (
    <div data-testid="mentions">
      <p className="text-sm text-slate-700">
        {words.length ? <>Showing mentions: {words.join(", ")}. </> : "Every mention found, counted or not. "}
        {words.length ? (
          <a href={links.mentions({})} className="text-indigo-700 hover:underline">
            Show all
          </a>
        ) : null}
        {evidence.later ? (
          <>
            {" · "}
            <a href={links.mentions(evidence.filter)} className="text-indigo-700 hover:underline">
              First page
            </a>
          </>
        ) : null}
      </p>
      {evidence.items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No mention matches.</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100 text-sm">
          {evidence.items.map((m, i) => (
            <li key={`${m.run_id}-${m.start}-${i}`} className="py-2" data-testid="mention" data-entity={m.entity} data-counted={String(m.counted)}>
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <span className="font-medium">{m.entity}</span>
                {m.alias !== m.entity ? <span className="text-slate-500">as “{m.alias}”</span> : null}
                {m.counted ? <Tag tone="emerald">counted</Tag> : <Tag tone="amber">not counted: {REASONS[m.reason!]}</Tag>}
                {m.list_rank !== null ? <Tag>list item {m.list_rank}</Tag> : null}
                <span className="text-slate-500">{engineName(m.engine)}</span>
                <a href={links.answer(m.run_id, evidence.filter)} className="text-indigo-700 hover:underline" data-testid="mention-answer">
                  in the answer
                </a>
              </div>
              <p className="mt-1 wrap-anywhere text-slate-800">“{marked(m.sentence, m.alias)}”</p>
              <p className="mt-0.5 truncate text-xs text-slate-500" title={m.prompt}>
                {m.prompt}
              </p>
            </li>
          ))}
        </ol>
      )}
      {evidence.next ? (
        <nav aria-label="Mention pages" className="mt-3 text-sm">
          <a href={evidence.next} className="text-indigo-700 hover:underline" data-testid="mentions-next">
            More mentions →
          </a>
        </nav>
      ) : null}
    </div>
  );
}

/** The answer as stored, each mention marked where it is (counted ones in green, others in amber). */
function AnswerText({ answer, links }: { answer: AnswerEvidence; links: Links }) {
  const parts: ReactNode[] = [];
  let at = 0;
  answer.mentions.forEach((m, i) => {
    if (m.start < at) return;
    parts.push(answer.answer.slice(at, m.start));
    parts.push(
      <mark
        key={i}
        id={`m${m.start}`}
        className={`rounded px-0.5 ${m.counted ? "bg-emerald-200" : "bg-amber-200 line-through decoration-amber-700/50"}`}
        title={`${m.entity}${m.counted ? "" : `: not counted, ${REASONS[m.reason!]}`}`}
        data-testid="answer-mark"
        data-entity={m.entity}
      >
        {answer.answer.slice(m.start, m.end)}
      </mark>,
    );
    at = m.end;
  });
  parts.push(answer.answer.slice(at));
  return (
    <div data-testid="answer">
      <p className="text-sm wrap-anywhere text-slate-600">
        {engineName(answer.engine)} on “{cut(answer.prompt, 120)}”: {answer.mentions.filter((m) => m.counted).length} counted and {answer.mentions.filter((m) => !m.counted).length} not counted
        mentions.{" "}
        {links.runPage ? (
          <a href={links.runPage(answer.run_id)} className="text-indigo-700 hover:underline">
            The run
          </a>
        ) : null}
      </p>
      <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm leading-relaxed wrap-anywhere whitespace-pre-wrap">{parts}</div>
    </div>
  );
}

/** `lead`: what a page shows right under the heading (the signed-in page's share control). */
export function VisibilityView({ analysis, evidence, links, lead, runLink }: { analysis: VisibilityAnalysis; evidence: Evidence; links: Links; lead?: ReactNode; runLink?: (id: string) => string }) {
  const { totals } = analysis;
  const brands = analysis.entities.filter((e) => e.role === "brand").map((e) => e.name);
  const competitors = analysis.entities.length - brands.length;
  const title = `How often ${totals.runs} ${totals.runs === 1 ? "answer names" : "answers name"} ${brands.length ? brands.join(", ") : "the tracked entities"}${brands.length && competitors ? ` and ${competitors} ${competitors === 1 ? "competitor" : "competitors"}` : ""}`;
  const notCounted = totals.mentions_not_counted.prompt_echo + totals.mentions_not_counted.absence + totals.mentions_not_counted.link;
  const countries = analysis.rows[0]?.by_country ?? [];
  return (
    <>
      <ShareHeading kicker="Visibility analysis" title={title}>
        <SummaryLead sentences={analysis.summary} />
        <p className="mt-2 wrap-anywhere text-slate-700">{analysis.subject}</p>
        <Facts
          items={[
            ["Date", when(analysis.completed_at ?? analysis.created_at)],
            ["Runs counted", String(totals.runs)],
            ["Prompts", String(totals.prompts)],
            ["Engines", (analysis.rows[0]?.by_engine ?? []).map((g) => engineName(g.engine)).join(", ") || "—"],
            ["Mentions", `${totals.mentions - notCounted} counted, ${notCounted} not`],
          ]}
        />
        {analysis.excluded_runs.length ? (
          <p className="mt-3 text-sm text-slate-500">
            {analysis.excluded_runs.length} {analysis.excluded_runs.length === 1 ? "run was" : "runs were"} left out (see below).
          </p>
        ) : null}
      </ShareHeading>
      {lead}

      <Section id="share-of-voice" title="Share of voice">
        <ShareOfVoice analysis={analysis} links={links} />
      </Section>

      <Section id="visibility" title="Visibility, overall and by engine" description="The share of answers naming each entity, with its 95% interval.">
        <VisibilityByEngine analysis={analysis} links={links} />
      </Section>

      <Section id="positions" title="Where each is named">
        <Positions analysis={analysis} links={links} />
      </Section>

      <Section id="figures" title="Every figure" description="Each with the runs it counts (n) and its 95% interval; the numbers link to their mentions.">
        <FiguresTable analysis={analysis} links={links} />
      </Section>

      <Section id="matrix" title="By prompt">
        <PromptMatrix analysis={analysis} links={links} />
      </Section>

      {countries.length > 1 || (countries.length === 1 && countries[0]!.country !== null) ? (
        <Section id="countries" title="By country">
          <CountryMatrix analysis={analysis} links={links} />
        </Section>
      ) : null}

      {evidence.answer ? (
        <Section id="answer" title="The answer, its mentions marked">
          <AnswerText answer={evidence.answer} links={{ ...links, runPage: runLink }} />
        </Section>
      ) : null}

      <Section id="mentions" title="Mentions" description="The evidence: where each name or alias occurs, in its sentence, and whether it counts.">
        <MentionsList analysis={analysis} evidence={evidence} links={links} />
      </Section>

      <ExcludedRuns excluded={analysis.excluded_runs} runLink={runLink} />

      <p className="mt-8 text-xs text-slate-500">
        Method {analysis.method}: names and aliases matched as whole words ({analysis.entities.filter((e) => e.case_sensitive).map((e) => e.name).join(", ") || "none"} only as written), the longest where
        names overlap;{analysis.method === "visibility-v1" ? "" : " a name inside a URL or an e-mail address is no mention, one in a link's label (the engine citing a page) is kept as evidence and not counted, and a bare domain of an entity's counts as naming it;"} mentions quoting the prompt or the run&apos;s own searches, and in sentences saying nothing was found, are kept as evidence and not counted.
      </p>
    </>
  );
}

/** A page's mention filter from its address's query (`entity`, `engine`, `counted`, `prompt`, `country`, `run`), unknown values dropped. */
export function filterOfQuery(query: Record<string, string | string[] | undefined>, analysis: VisibilityAnalysis): MentionFilter {
  const one = (k: string) => {
    const v = query[k];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const entity = one("entity");
  const engine = one("engine");
  const counted = one("counted");
  const prompt = one("prompt");
  const country = one("country");
  const run = one("run");
  const prompts = analysis.rows[0]?.by_prompt.length ?? 0;
  const engines = new Set((analysis.rows[0]?.by_engine ?? []).map((g) => g.engine));
  const countries = new Set((analysis.rows[0]?.by_country ?? []).map((g) => g.country ?? "none"));
  return {
    ...(entity && analysis.entities.some((e) => e.name === entity) ? { entity } : {}),
    ...(engine && engines.has(engine) ? { engine } : {}),
    ...(counted === "true" || counted === "false" ? { counted } : {}),
    ...(prompt && /^\d+$/.test(prompt) && Number(prompt) < prompts ? { prompt: Number(prompt) } : {}),
    ...(country && countries.has(country) ? { country } : {}),
    ...(run && analysis.run_ids.includes(run) ? { run } : {}),
  };
}

/** A filter as the page's query string (`?entity=…&…`). */
export function queryOfFilter(filter: MentionFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, String(v));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** The API's mention query for a page's filter. */
export function mentionsQueryOf(filter: MentionFilter, analysis: VisibilityAnalysis) {
  return {
    entity: filter.entity,
    engine: filter.engine as "chatgpt" | undefined,
    counted: filter.counted,
    prompt: filter.prompt !== undefined ? analysis.rows[0]?.by_prompt[filter.prompt]?.prompt : undefined,
    country: filter.country,
    run_id: filter.run,
  };
}
