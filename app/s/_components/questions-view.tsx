// A shared questions analysis: the topic, which engine generated the questions and when, the
// clusters with their intent and questions, and the exact generation prompt with its SHA-256.
import type { ReactNode } from "react";
import type { QuestionsAnalysis } from "@/lib/schemas/questions";
import { fewerQuestions, questionsTally } from "@/lib/words/questions";
import { engineName, when } from "../_lib/view";
import { Facts, Failure, ShareHeading, Tag, statusTone } from "./bits";

const SPECIFICITY = { broad: "broad", specific: "specific", long_tail: "long tail" } as const;

export function QuestionsView({ analysis }: { analysis: QuestionsAnalysis }) {
  const provenance = analysis.provenance;
  const byId = new Map(analysis.questions.map((q) => [q.id, q]));
  // A shared page shows no charge, so it says nothing of what was paid.
  const fewer = fewerQuestions(analysis, false);
  return (
    <>
      <ShareHeading kicker="Questions analysis" title={`Questions people ask about ${analysis.topic}`}>
        <Facts
          items={[
            ["Date", when(analysis.completed_at ?? analysis.created_at)],
            ["Engine", provenance ? engineName(provenance.engine) : "—"],
            ["Model", provenance?.model ?? "—"],
            ["Questions", questionsTally(analysis)],
            ["Clusters", String(analysis.clusters.length)],
            ...(analysis.status === "completed" ? [] : ([["Status", <Tag tone={statusTone(analysis.status)}>{analysis.status}</Tag>]] as Array<[string, ReactNode]>)),
          ]}
        />
        {fewer ? (
          <p data-testid="fewer-questions" className="mt-3 text-sm text-slate-600">
            {fewer}
          </p>
        ) : null}
      </ShareHeading>
      {analysis.status === "failed" ? <Failure what="The analysis" message={analysis.error?.message} /> : null}

      <div className="space-y-6">
        {analysis.clusters.map((cluster) => (
          <section
            key={cluster.id}
            aria-labelledby={`cluster-${cluster.id}`}
            data-testid="cluster"
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
          >
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h2 id={`cluster-${cluster.id}`} className="text-lg font-semibold break-words">
                {cluster.name}
              </h2>
              <Tag tone="indigo">{cluster.intent}</Tag>
              <span className="text-sm text-slate-500">
                {cluster.question_ids.length} {cluster.question_ids.length === 1 ? "question" : "questions"}
              </span>
            </div>
            <ul className="mt-3">
              {cluster.question_ids.map((id) => {
                const question = byId.get(id);
                if (!question) return null;
                return (
                  <li key={id} className="flex items-baseline justify-between gap-3 border-t border-slate-100 py-2 first:border-t-0" data-testid="question">
                    <span className="min-w-0 break-words">{question.text}</span>
                    {question.specificity ? <Tag>{SPECIFICITY[question.specificity]}</Tag> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>

      {provenance ? <ProvenanceDetails provenance={provenance} /> : null}
    </>
  );
}

/** How the questions were generated: engine, model, date and prompt version, the prompt exactly as sent and its SHA-256. */
export function ProvenanceDetails({ provenance }: { provenance: NonNullable<QuestionsAnalysis["provenance"]> }) {
  return (
    <details className="mt-10 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <summary className="cursor-pointer font-semibold">How these questions were generated</summary>
      <div className="mt-4 space-y-3 text-sm">
        <p className="text-slate-600">
          One {engineName(provenance.engine)} run{provenance.model ? ` (${provenance.model})` : ""} on {when(provenance.generated_at)}, with prompt version{" "}
          {provenance.prompt_version}. The prompt, exactly as sent:
        </p>
        <pre className="max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-xs break-words whitespace-pre-wrap text-slate-800">{provenance.prompt_text}</pre>
        <p>
          <span className="text-slate-500">SHA-256 of the prompt: </span>
          <code className="font-mono text-xs break-all" data-testid="prompt-sha">
            {provenance.prompt_sha}
          </code>
        </p>
      </div>
    </details>
  );
}
