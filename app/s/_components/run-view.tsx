// A shared prompt run: the prompt, who answered and when, the answer with its citation marks as
// links, the pages cited, seen in search results and read, and the searches in order.
import type { ReactNode } from "react";
import { Section } from "../../_components/ui";
import type { Run } from "@/lib/schemas/runs";
import type { SearchObservation, SourceObservation } from "@/lib/schemas/results";
import { answerParagraphs, type AnswerPiece } from "../_lib/answer";
import { engineName, promptOf, when } from "../_lib/view";
import { Facts, Failure, OutLink, ShareHeading, Tag, statusTone } from "./bits";
import { promptResultOf } from "@/lib/schemas/results";

/** Where a cited page stands in the sources table (1-based), when the page numbers its marks. */
export type SourceNumbers = Map<string, number>;

function Piece({ piece, numbers }: { piece: AnswerPiece; numbers?: SourceNumbers }) {
  switch (piece.kind) {
    case "text":
      return piece.bold ? <strong className="font-semibold">{piece.text}</strong> : <>{piece.text}</>;
    case "cite": {
      const n = numbers?.get(piece.source.url);
      if (n !== undefined) {
        return (
          <OutLink
            href={piece.source.url}
            title={`${piece.label}: ${piece.source.title ?? piece.source.url}`}
            testId="citation-link"
            className="ml-0.5 rounded bg-indigo-50 px-1 align-super text-xs font-semibold text-indigo-700 hover:bg-indigo-100"
          >
            [{n}]
          </OutLink>
        );
      }
      // A site name stays on one line; only an unusually long label may break.
      return (
        <OutLink
          href={piece.source.url}
          title={piece.source.title ?? piece.source.url}
          testId="citation-link"
          className={`box-decoration-clone rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-100 ${piece.label.length > 32 ? "break-all" : "whitespace-nowrap"}`}
        >
          {piece.label}
        </OutLink>
      );
    }
    case "link":
      // A link in the answer that names no cited page: its words, with where it pointed as text.
      return (
        <>
          {piece.label} <span className="break-all text-slate-500">({piece.url})</span>
        </>
      );
  }
}

/** A numbered mark sits against the word before it, as a footnote does: the space the engine put before its mark goes. */
function tightMarks(pieces: AnswerPiece[]): AnswerPiece[] {
  return pieces.map((piece, i) => (piece.kind === "text" && pieces[i + 1]?.kind === "cite" ? { ...piece, text: piece.text.trimEnd() } : piece));
}

/** Where a run's sections are on the page and what they are called: one run's page, or one of a batch's runs. */
type Placement = { id: (section: string) => string; title: (section: "Answer" | "Sources" | "Searches") => string };

const ALONE: Placement = { id: (section) => section, title: (section) => section };

/** A batch's run: its sections' ids start with its engine, and their titles name it. */
export function placementOf(run: Run): Placement {
  const engine = engineName(run.engine);
  const key = run.engine ?? run.id;
  return {
    id: (section) => `${key}-${section}`,
    title: (section) => (section === "Answer" ? `${engine}'s answer` : section === "Sources" ? `Sources of ${engine}'s answer` : `${engine}'s searches`),
  };
}

function Answer({ run, numbers, at }: { run: Run; numbers?: SourceNumbers; at: Placement }) {
  const result = promptResultOf(run.result)!;
  const paragraphs = answerParagraphs(result.answer, result.sources).map((pieces) => (numbers ? tightMarks(pieces) : pieces));
  const placed = paragraphs.some((p) => p.some((piece) => piece.kind === "cite"));
  const cited = result.sources.filter((s) => s.cited === true).length;
  return (
    <Section id={at.id("answer")} title={at.title("Answer")}>
      {result.shown === false ? (
        <p className="text-slate-500" data-testid="not-shown">
          Google showed no AI Overview for this query: there is no answer to read, and analyses leave this run out.
        </p>
      ) : paragraphs.length === 0 ? (
        <p className="text-slate-500">The engine gave an empty answer.</p>
      ) : null}
      <div className="space-y-3 leading-relaxed" data-testid="answer">
        {paragraphs.map((pieces, i) => (
          <p key={i} className="break-words whitespace-pre-line">
            {pieces.map((piece, j) => (
              <Piece key={j} piece={piece} numbers={numbers} />
            ))}
          </p>
        ))}
      </div>
      {cited > 0 && !placed ? (
        <p className="mt-4 text-sm text-slate-500">
          {engineName(run.engine)} keeps its citation marks out of the text, so they are not shown in it; the {cited} cited{" "}
          {cited === 1 ? "page is" : "pages are"} listed below in the order the answer cites them.
        </p>
      ) : null}
    </Section>
  );
}

function SourceItem({ source }: { source: SourceObservation }) {
  const positions = source.citation_positions ?? [];
  return (
    <li className="border-t border-slate-100 py-2.5 first:border-t-0 first:pt-0">
      <OutLink href={source.url} className="font-medium break-words text-indigo-700 hover:underline">
        {source.title ?? source.url.replace(/^https?:\/\//, "")}
      </OutLink>
      <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
        {source.domain ? (
          <span className="font-medium text-slate-700">{source.domain}</span>
        ) : (
          <span>unresolved redirect{source.domain_hint ? ` (${source.domain_hint}?)` : ""}</span>
        )}
        {source.cited ? (
          <Tag tone="indigo">
            cited{positions.length ? ` · mark${positions.length === 1 ? "" : "s"} ${positions.join(", ")}` : ""}
          </Tag>
        ) : null}
        {source.search_query_observed ? <Tag>in search results</Tag> : null}
        {source.retrieval_observed ? <Tag tone="emerald">read</Tag> : null}
      </div>
      {source.title ? <div className="mt-0.5 text-xs break-all text-slate-400">{source.url}</div> : null}
    </li>
  );
}

type Flag = "cited" | "search_query_observed" | "retrieval_observed";

/**
 * One group of sources: those whose `flag` is true and that no earlier group (`before`) took, so
 * each page is listed once, its tags telling the rest. When the engine exposes nothing of the kind
 * (every flag null) the group says so instead of "None".
 */
function SourceGroup({ title, testId, sources, flag, before = [], engine, note }: { title: string; testId: string; sources: SourceObservation[]; flag: Flag; before?: Flag[]; engine: string; note?: string }) {
  const members = sources.filter((s) => s[flag] === true && before.every((f) => s[f] !== true));
  const unknown = sources.length > 0 && sources.every((s) => s[flag] === null);
  return (
    <div className="mt-6 first:mt-0" data-testid={testId}>
      <h3 className="font-semibold">
        {title} <span className="font-normal text-slate-500">({members.length})</span>
      </h3>
      {note ? <p className="text-xs text-slate-500">{note}</p> : null}
      {members.length > 0 ? (
        <ul className="mt-2">
          {members.map((s, i) => (
            <SourceItem key={i} source={s} />
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-500">{unknown ? `${engine} does not show this.` : "None."}</p>
      )}
    </div>
  );
}

function Searches({ searches, calls, searched, at }: { searches: SearchObservation[]; calls: number | null; searched: boolean | null; at: Placement }) {
  const ordered = [...searches].sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity));
  const manyCalls = new Set(ordered.map((s) => s.search_call)).size > 1;
  const summary =
    searched === false
      ? "The engine did not search the web."
      : calls !== null
        ? `${calls} search ${calls === 1 ? "call" : "calls"}, ${ordered.length} ${ordered.length === 1 ? "query" : "queries"} shown.`
        : null;
  return (
    <Section id={at.id("searches")} title={at.title("Searches")} description={summary ?? undefined}>
      {ordered.length > 0 ? (
        <ol className="list-decimal space-y-1.5 pl-6 text-sm marker:text-slate-400" data-testid="searches">
          {ordered.map((s, i) => (
            <li key={i} className="break-words">
              {s.query}
              {manyCalls && s.search_call !== null ? <span className="ml-2 text-xs text-slate-400">call {s.search_call}</span> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-slate-500">{searched === false ? "No queries." : "The engine showed no queries."}</p>
      )}
    </Section>
  );
}

/**
 * A prompt run's answer, its sources grouped by what the engine did with them, and its searches.
 * `sources`: replaces the grouped source lists; `at`: where the sections are (a batch's run).
 */
export function RunFindings({ run, numbers, sources: sourcesSection, at = ALONE }: { run: Run; numbers?: SourceNumbers; sources?: ReactNode; at?: Placement }) {
  const engine = engineName(run.engine);
  const result = promptResultOf(run.result);
  if (!result) return null;
  const sources = result.sources;
  const others = sources.filter((s) => s.cited !== true && s.search_query_observed !== true && s.retrieval_observed !== true);
  return (
    <>
      <Answer run={run} numbers={numbers} at={at} />
      {sourcesSection ?? (
        <Section id={at.id("sources")} title={at.title("Sources")} description={`${sources.length} ${sources.length === 1 ? "page" : "pages"} the engine named.`}>
          <SourceGroup title="Cited" testId="sources-cited" sources={sources} flag="cited" engine={engine} />
          <SourceGroup title="Seen in search results, not cited" testId="sources-search" sources={sources} flag="search_query_observed" before={["cited"]} engine={engine} />
          <SourceGroup
            title="Read, not cited"
            testId="sources-read"
            sources={sources}
            flag="retrieval_observed"
            before={["cited", "search_query_observed"]}
            engine={engine}
            note="Pages the provider showed reaching the model (opened or retrieved), and not listed above."
          />
          {others.length > 0 ? (
            <div className="mt-6" data-testid="sources-other">
              <h3 className="font-semibold">
                Other pages named <span className="font-normal text-slate-500">({others.length})</span>
              </h3>
              <ul className="mt-2">
                {others.map((s, i) => (
                  <SourceItem key={i} source={s} />
                ))}
              </ul>
            </div>
          ) : null}
        </Section>
      )}
      <Searches searches={result.searches} calls={result.search_calls} searched={result.searched} at={at} />
    </>
  );
}

/**
 * `numbers`: the signed-in run page numbers citation marks by their row in its sources table;
 * the public page names the site instead. `sources`: replaces the grouped source lists.
 */
export function RunView({
  run,
  numbers,
  sources,
  facts = [],
  unfinished,
}: {
  run: Run;
  numbers?: SourceNumbers;
  sources?: ReactNode;
  facts?: Array<[string, ReactNode]>;
  /** What to say while there is no answer yet (the signed-in page: where the engine call is). */
  unfinished?: ReactNode;
}) {
  const engine = engineName(run.engine);
  const result = promptResultOf(run.result);
  return (
    <>
      <ShareHeading kicker={`${engine} on this prompt`} title={promptOf(run)}>
        <Facts
          items={[
            ["Engine", engine],
            ["Model", run.model ?? "—"],
            ["Date", when(run.completed_at ?? run.created_at)],
            ["Status", <Tag tone={statusTone(run.status)}>{run.status}</Tag>],
            ...facts,
          ]}
        />
      </ShareHeading>
      {run.status === "failed" ? <Failure what="The run" message={run.error?.message} /> : null}
      {result ? (
        <RunFindings run={run} numbers={numbers} sources={sources} />
      ) : run.status !== "failed" ? (
        (unfinished ?? <p className="text-slate-600">This run has no answer yet.</p>)
      ) : null}
    </>
  );
}
