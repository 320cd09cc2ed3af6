// A comparison of two engines, signed in and shared alike: the summary first, each tracked name's
// visibility on the two engines side by side (the rate a dot, its 95% interval a band) and their
// difference on a −100..+100 track, how alike the cited domains, the searches and the order of
// names are (each a mean with its interval and n), the domains only one engine cites, and every
// prompt's figures. Drawn on the server as HTML (no script), so it reads with JavaScript off and
// on a phone.
import type { ReactNode } from "react";
import type { ComparisonAnalysis } from "@/lib/schemas/comparison";
import { ENGINE_FACTS } from "@/lib/schemas/engines";
import { counted, FLAT_INTERVAL, isFlat, listed, percent, percentRange, points, pointsRange } from "@/lib/words/format";
import { Section } from "../../_components/ui";
import { engineName, when } from "../_lib/view";
import { ExcludedRuns, Facts, Num, ScrollTable, ShareHeading, SummaryLead, Tag } from "./bits";

const A_COLOUR = "#0072B2";
const B_COLOUR = "#D55E00";
const pct = (x: number) => `${Math.min(100, Math.max(0, x * 100)).toFixed(2)}%`;

/** A value of 0..1 as a dot and its interval as a band on a 0–100% track. */
function Track({ value, interval, colour, label }: { value: number | null; interval: readonly [number, number] | null; colour: string; label: string }) {
  return (
    <div className="relative mt-1 h-3 rounded bg-slate-100" aria-hidden="true" data-testid="interval-bar" data-label={label}>
      {interval ? (
        <div className="absolute top-0.5 bottom-0.5 rounded opacity-40" style={{ left: pct(interval[0]), width: `calc(${pct(interval[1] - interval[0])} + 2px)`, backgroundColor: colour }} />
      ) : null}
      {value !== null ? <div className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white" style={{ left: pct(value), backgroundColor: colour }} /> : null}
    </div>
  );
}

/** A difference of −1..1 on a track centred on 0: its interval a band, the estimate a dot. */
function DiffTrack({ diff, interval, significant }: { diff: number; interval: readonly [number, number]; significant: boolean }) {
  const at = (x: number) => `${((Math.min(1, Math.max(-1, x)) + 1) * 50).toFixed(2)}%`;
  const colour = significant ? "#7c3aed" : "#64748b";
  return (
    <div className="relative mt-1 h-3 rounded bg-slate-100" aria-hidden="true" data-testid="diff-bar">
      <div className="absolute top-0 bottom-0 w-px bg-slate-400" style={{ left: "50%" }} />
      <div className="absolute top-0.5 bottom-0.5 rounded opacity-40" style={{ left: at(interval[0]), width: `calc(${((interval[1] - interval[0]) * 50).toFixed(2)}% + 2px)`, backgroundColor: colour }} />
      <div className="absolute top-1/2 h-3 w-3 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white" style={{ left: at(diff), backgroundColor: colour }} />
    </div>
  );
}

function SideRow({ engine, side, colour }: { engine: string; side: ComparisonAnalysis["rows"][number]["a"]; colour: string }) {
  return (
    <li data-testid="side-row" data-engine={engine} data-rate={side.visibility}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="min-w-0 break-words text-slate-700">{engineName(engine)}</span>
        <span className="tabular-nums text-slate-700">
          {percent(side.visibility)} <span className="text-slate-500">({side.runs_mentioning} of {side.runs}; 95% {percentRange(side.visibility_interval)})</span>
        </span>
      </div>
      <Track value={side.visibility} interval={side.visibility_interval} colour={colour} label={engine} />
    </li>
  );
}

function VisibilityPairs({ analysis }: { analysis: ComparisonAnalysis }) {
  return (
    <figure data-testid="visibility-pairs">
      <ul className="grid gap-x-8 gap-y-5 md:grid-cols-2">
        {analysis.rows.map((r) => (
          <li key={r.name} data-testid="entity-pair" data-entity={r.name}>
            <p className="flex flex-wrap items-baseline gap-x-2 font-medium text-slate-900">
              <span className="break-words">{r.name}</span>
              {r.role === "brand" ? <Tag tone="indigo">brand</Tag> : null}
              {r.significant ? <Tag tone="amber">differs beyond chance</Tag> : null}
            </p>
            <ul className="mt-1 space-y-1.5">
              <SideRow engine={analysis.a} side={r.a} colour={A_COLOUR} />
              <SideRow engine={analysis.b} side={r.b} colour={B_COLOUR} />
            </ul>
            <div className="mt-2 text-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="text-slate-600">{engineName(analysis.b)} − {engineName(analysis.a)}</span>
                <span className="tabular-nums text-slate-700" data-testid="diff">
                  {points(r.diff)} <span className="text-slate-500">({pointsRange(r.diff_interval)})</span>
                </span>
              </div>
              <DiffTrack diff={r.diff} interval={r.diff_interval} significant={r.significant} />
            </div>
          </li>
        ))}
      </ul>
      <figcaption className="mt-3 text-sm text-slate-600">
        Each dot is the share of that engine&apos;s answers naming the entity, its band the 95% interval (Wilson). The difference below is {engineName(analysis.b)} less {engineName(analysis.a)}, its band
        Newcombe&apos;s interval at {percent(analysis.confidence)} confidence (Bonferroni over {counted(analysis.entities.length, "entity", "entities")}); a band clear of the middle line is a difference beyond chance.
      </figcaption>
    </figure>
  );
}

function MeanFigure({ title, value, interval, n, what, testId }: { title: string; value: number | null; interval: readonly [number, number] | null; n: number; what: ReactNode; testId: string }) {
  return (
    <div data-testid={testId}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium text-slate-900">{title}</span>
        <span className="tabular-nums text-slate-700">
          {value === null ? "—" : percent(value)}{" "}
          <span className="text-slate-500">({counted(n, "prompt")}{interval ? (isFlat(interval) ? `; ${FLAT_INTERVAL}` : `; 95% ${percentRange(interval)}`) : ""})</span>
        </span>
      </div>
      <Track value={value} interval={interval} colour="#009E73" label={testId} />
      <p className="mt-1 text-sm text-slate-600">{what}</p>
    </div>
  );
}

function DomainList({ engine, other, items, testId }: { engine: string; other: string; items: readonly { domain: string; runs_citing: number }[]; testId: string }) {
  return (
    <div data-testid={testId}>
      <h3 className="text-sm font-medium text-slate-900">
        Only {engineName(engine)} cites <span className="font-normal text-slate-500">(never {engineName(other)})</span>
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None: every domain it cites, {engineName(other)} cites too.</p>
      ) : (
        <ol className="mt-1 space-y-0.5 text-sm">
          {items.map((d) => (
            <li key={d.domain} className="flex justify-between gap-3">
              <span className="min-w-0 break-all">{d.domain}</span>
              <span className="whitespace-nowrap tabular-nums text-slate-600">{counted(d.runs_citing, "answer")}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

const rateCell = (x: number | null) => (x === null ? "—" : percent(x));

function PromptTable({ analysis }: { analysis: ComparisonAnalysis }) {
  const A = engineName(analysis.a);
  const B = engineName(analysis.b);
  return (
    <ScrollTable
      label="Each prompt compared"
      columns={[{ label: "Prompt", text: true }, { label: `Answers (${A} / ${B})` }, { label: "Domains alike" }, { label: "Searches shared" }, { label: "Order alike" }, { label: `Named, ${A} → ${B}`, text: true }]}
    >
      {analysis.by_prompt.map((p) => (
        <tr key={p.prompt} data-testid="prompt-row">
          <td className="min-w-48 break-words">{p.prompt}</td>
          <Num>
            {p.runs_a} / {p.runs_b}
          </Num>
          <Num>{rateCell(p.jaccard)}</Num>
          <Num>{analysis.searches === null ? "not reported" : rateCell(p.query_overlap)}</Num>
          <Num>{rateCell(p.rbo)}</Num>
          <td className="text-sm">
            <ul>
              {p.entities.map((e) => (
                <li key={e.name} className="whitespace-nowrap">
                  {e.name}: {percent(e.a)} → {percent(e.b)}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

export function ComparisonView({ analysis, lead, runLink }: { analysis: ComparisonAnalysis; lead?: ReactNode; runLink?: (id: string) => string }) {
  const A = engineName(analysis.a);
  const B = engineName(analysis.b);
  const first = analysis.rows[0];
  return (
    <>
      <ShareHeading kicker={`Comparison: ${A} and ${B}`} title={analysis.subject}>
        <SummaryLead sentences={analysis.summary} />
        <Facts
          items={[
            ["Engines", `${A} (a) and ${B} (b)`],
            ["Prompts compared", String(analysis.prompts_compared)],
            ["Answers", first ? `${first.a.runs} from ${A}, ${first.b.runs} from ${B}` : "—"],
            ["Made", when(analysis.created_at)],
          ]}
        />
      </ShareHeading>
      {lead}

      <Section id="visibility" title="Named on each engine" description="How often each engine's answers name each tracked entity, and how far apart the two are.">
        <VisibilityPairs analysis={analysis} />
      </Section>

      <Section id="sources" title="Pages cited" description="Per prompt, the Jaccard index of the registrable domains each engine cited (shared domains over all domains), averaged over prompts.">
        <MeanFigure
          testId="jaccard"
          title="Cited domains alike"
          value={analysis.sources.jaccard}
          interval={analysis.sources.jaccard_interval}
          n={analysis.sources.prompts}
          what={analysis.sources.jaccard === null ? "Neither engine cited a page for any prompt compared." : "100% would be the same domains for every prompt; 0% none in common."}
        />
        <div className="mt-5 grid gap-x-8 gap-y-5 md:grid-cols-2">
          <DomainList engine={analysis.a} other={analysis.b} items={analysis.sources.only_a} testId="only-a" />
          <DomainList engine={analysis.b} other={analysis.a} items={analysis.sources.only_b} testId="only-b" />
        </div>
      </Section>

      <Section id="searches" title="Searches run">
        {analysis.searches === null ? (
          <p className="text-sm text-slate-600" data-testid="searches-none">
            {listed([analysis.a, analysis.b].filter((e) => !ENGINE_FACTS[e].reports_queries).map(engineName)) || "One of them"} does not report which searches it ran, so searches are not compared.
          </p>
        ) : (
          <MeanFigure
            testId="query-overlap"
            title={`${A}'s searches that ${B} also ran`}
            value={analysis.searches.overlap}
            interval={analysis.searches.overlap_interval}
            n={analysis.searches.prompts}
            what="Per prompt, the share of the first engine's distinct queries (lower-cased, spaces collapsed) that the second also ran, averaged over prompts."
          />
        )}
      </Section>

      <Section id="order" title="Order of names">
        <MeanFigure
          testId="rbo"
          title="Order alike"
          value={analysis.order.rbo}
          interval={analysis.order.rbo_interval}
          n={analysis.order.prompts}
          what={`Rank-biased overlap of the order each answer first names the tracked entities in (p = 0.9: the first places weigh most), over ${counted(analysis.order.pairs, "pair")} of answers that both name someone; 100% is the same order, 0% none in common.`}
        />
      </Section>

      <Section id="prompts" title="By prompt">
        <PromptTable analysis={analysis} />
      </Section>

      {analysis.excluded_prompts.length ? (
        <Section id="excluded-prompts" title="Prompts left out" description="Answered by one of the two engines only, so not compared.">
          <ul className="space-y-1 text-sm" data-testid="excluded-prompts">
            {analysis.excluded_prompts.map((p) => (
              <li key={p.prompt} className="break-words">
                {p.prompt} <span className="text-slate-500">— only {engineName(p.engine)} ({counted(p.runs, "answer")})</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <ExcludedRuns excluded={analysis.excluded_runs} runLink={runLink} />

      <p className="mt-8 text-xs text-slate-500">
        Method {analysis.method}: prompts matched by their text; mentions matched as visibility analyses match them (visibility-v2); domains are registrable domains; searches compared lower-cased with spaces
        collapsed; means over prompts with Student&apos;s t interval.
      </p>
    </>
  );
}
