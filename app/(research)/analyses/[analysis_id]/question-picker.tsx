"use client";
// A questions analysis's clusters with a checkbox per question (and per cluster), and "send to a
// fanout": the fanout form, prefilled with the ticked questions, each carrying its source, with
// its estimate before it can start. Without script the ticks go to the page as ?q=… and the page
// renders the form prefilled.
import { useEffect, useRef, useState } from "react";
import type { QuestionsAnalysis } from "@/lib/schemas/questions";
import { buttonClass, subtleButtonClass } from "../../../_components/ui";
import { Tag } from "../../../s/_components/bits";
import type { MarketChoices } from "@/lib/locale/codes";
import { FanoutForm } from "../../_components/fanout-form";

const SPECIFICITY = { broad: "broad", specific: "specific", long_tail: "long tail" } as const;

function ClusterBox({ ids, selected, label, onChange }: { ids: string[]; selected: Set<string>; label: string; onChange: (on: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const ticked = ids.filter((id) => selected.has(id)).length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = ticked > 0 && ticked < ids.length;
  }, [ticked, ids.length]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={ticked === ids.length && ids.length > 0}
      onChange={(e) => onChange(e.target.checked)}
      aria-label={label}
      className="h-4 w-4 shrink-0 accent-indigo-600"
      data-testid="cluster-checkbox"
    />
  );
}

export function QuestionPicker({
  analysis,
  project,
  engines,
  markets,
  initialSelected,
}: {
  analysis: QuestionsAnalysis;
  project: string | null;
  engines: string[];
  markets: MarketChoices;
  initialSelected: string[];
}) {
  const order = analysis.questions.map((q) => q.id);
  const [selected, setSelected] = useState(() => new Set(initialSelected.filter((id) => order.includes(id))));
  // What was last sent to the form (in the analysis's order); null until "send" is pressed.
  const [sent, setSent] = useState<string[] | null>(() => (initialSelected.length && project ? order.filter((id) => initialSelected.includes(id)) : null));
  const formHeading = useRef<HTMLHeadingElement>(null);
  const scrollOnSend = useRef(false);
  const byId = new Map(analysis.questions.map((q) => [q.id, q]));

  const toggle = (ids: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids) (on ? next.add(id) : next.delete(id));
      return next;
    });

  useEffect(() => {
    if (sent && scrollOnSend.current) {
      scrollOnSend.current = false;
      formHeading.current?.scrollIntoView({ behavior: "smooth", block: "start" });
      formHeading.current?.focus({ preventScroll: true });
    }
  }, [sent]);

  const count = selected.size;
  return (
    <>
      <form
        method="get"
        action={`/analyses/${analysis.id}#send`}
        onSubmit={(e) => {
          e.preventDefault();
          scrollOnSend.current = true;
          setSent(order.filter((id) => selected.has(id)));
        }}
        data-testid="question-picker"
      >
        <div className="mb-4 flex flex-wrap items-center gap-2 text-sm">
          <button type="button" className={subtleButtonClass} onClick={() => toggle(order, true)}>
            Select all
          </button>
          <button type="button" className={subtleButtonClass} onClick={() => toggle(order, false)} disabled={count === 0}>
            Clear
          </button>
          <span className="text-slate-500">Tick questions to run them as prompts in a fanout.</span>
        </div>
        <div className="space-y-6">
          {analysis.clusters.map((cluster) => (
            <section key={cluster.id} aria-labelledby={`cluster-${cluster.id}`} data-testid="cluster" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <ClusterBox ids={cluster.question_ids} selected={selected} label={`All questions of ${cluster.name}`} onChange={(on) => toggle(cluster.question_ids, on)} />
                <h2 id={`cluster-${cluster.id}`} className="text-lg font-semibold break-words">
                  {cluster.name}
                </h2>
                <Tag tone="indigo">{cluster.intent}</Tag>
                <span className="text-sm text-slate-500">
                  {cluster.question_ids.length} {cluster.question_ids.length === 1 ? "question" : "questions"}
                </span>
                {project ? (
                  <a href={`/monitors/new?from=${analysis.id}&cluster=${cluster.id}`} className="ml-auto text-sm text-indigo-700 hover:underline" data-testid="track-cluster">
                    Track these prompts
                  </a>
                ) : null}
              </div>
              <ul className="mt-3">
                {cluster.question_ids.map((id) => {
                  const question = byId.get(id);
                  if (!question) return null;
                  return (
                    <li key={id} className="border-t border-slate-100 first:border-t-0" data-testid="question">
                      <label className="flex cursor-pointer items-baseline gap-3 py-2">
                        <input
                          type="checkbox"
                          name="q"
                          value={id}
                          checked={selected.has(id)}
                          onChange={(e) => toggle([id], e.target.checked)}
                          className="h-4 w-4 shrink-0 translate-y-0.5 accent-indigo-600"
                          data-testid="question-checkbox"
                        />
                        <span className="min-w-0 flex-1 break-words">{question.text}</span>
                        <span className="flex shrink-0 gap-1">
                          {question.intent !== cluster.intent ? <Tag tone="indigo">{question.intent}</Tag> : null}
                          {question.specificity ? <Tag>{SPECIFICITY[question.specificity]}</Tag> : null}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
        {project ? (
          <div className="sticky bottom-0 z-10 -mx-4 mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
            <button type="submit" className={buttonClass} disabled={count === 0} data-testid="send-to-fanout">
              Send {count || ""} {count === 1 ? "question" : "questions"} to a fanout
            </button>
            <span className="text-sm text-slate-500" data-testid="selected-count" aria-live="polite">
              {count} of {order.length} selected; you see the estimate before anything starts.
            </span>
          </div>
        ) : null}
      </form>

      {sent && project ? (
        <section id="send" aria-labelledby="send-title" className="mt-8 rounded-lg border border-indigo-200 bg-white p-4 shadow-sm sm:p-6" data-testid="send-panel">
          <h2 id="send-title" ref={formHeading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
            A fanout of {sent.length} {sent.length === 1 ? "question" : "questions"}
          </h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">Each question is a prompt, linked back to this analysis. Edit the lines, choose engines and repeats, check the estimate, then start.</p>
          {sent.length ? (
            <FanoutForm
              key={sent.join(",")}
              project={project}
              engines={engines}
              markets={markets}
              prefill={{ prompts: sent.map((id) => ({ text: byId.get(id)!.text.replace(/\s+/g, " ").trim(), source: `${analysis.id}:${id}` })) }}
            />
          ) : (
            <p className="text-sm text-slate-500">Tick at least one question first.</p>
          )}
        </section>
      ) : null}
    </>
  );
}
