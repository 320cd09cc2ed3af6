// Questions analyses: the questions people ask about a topic, grouped into clusters by intent,
// and sending them (all, or chosen clusters and questions) to a fanout that records where each
// prompt came from.
import type { z } from "zod";
import { getAnalysis } from "../../lib/schemas/analyses";
import type { RunCharge } from "../../lib/schemas/billing";
import type { FanoutRequest } from "../../lib/schemas/fanouts";
import { createQuestions, type Question, type QuestionCluster, type QuestionsAnalysis } from "../../lib/schemas/questions";
import { EXIT } from "../client";
import {
  arg, followUntilFinished, intOption, noExtraArgs, note, opt, out, printJson, projectOf, request, strs, truncate, UsageError, waitBudget, wrap,
  type Ctx, type OptionSpec, type Section,
} from "../command";
import { fewerQuestions } from "../../lib/words/questions";
import { createAndPrint, followOption, planOf, printEstimate, runOptions } from "./fanouts";

type Analysis = z.output<typeof QuestionsAnalysis>;
type QuestionBody = z.output<typeof Question>;
type Result = { text: string; body: Analysis };

const WIDTH = 80;

/** `lead`, then `text` wrapped to 80 columns with its later lines under its first. */
function hanging(lead: string, text: string): string[] {
  const pad = " ".repeat(lead.length);
  return wrap(text, WIDTH - lead.length).map((line, i) => `${i === 0 ? lead : pad}${line}`);
}

function chargeOf(c: z.output<typeof RunCharge>): string {
  return c.status === "released" ? "charge released" : `${c.status} $${c.amount_usd}`;
}

/** Each cluster with its questions in the cluster's order, then any question no cluster names (cluster null). */
export function clustered(a: Analysis): { cluster: z.output<typeof QuestionCluster> | null; questions: QuestionBody[] }[] {
  const byId = new Map(a.questions.map((q) => [q.id, q]));
  const groups = a.clusters.map((cluster) => ({ cluster, questions: cluster.question_ids.flatMap((id) => byId.get(id) ?? []) }));
  const placed = new Set(groups.flatMap((g) => g.questions.map((q) => q.id)));
  const rest = a.questions.filter((q) => !placed.has(q.id));
  return rest.length ? [...groups, { cluster: null, questions: rest }] : groups;
}

function questionLines(q: QuestionBody, idWidth: number): string[] {
  const lead = `  ${q.id.padEnd(idWidth)}  `;
  const lines = hanging(lead, q.text);
  if (q.specificity) {
    const tag = `[${q.specificity}]`;
    const last = lines.length - 1;
    if (lines[last]!.length + 2 + tag.length <= WIDTH) lines[last] += `  ${tag}`;
    else lines.push(`${" ".repeat(lead.length)}${tag}`);
  }
  return lines;
}

/**
 * The header, then each cluster and its questions wrapped at 80 columns; a failed analysis's error;
 * how to wait for an unfinished one. The header stays one line, as the other commands' do.
 */
export function formatQuestionsAnalysis(a: Analysis): string {
  const p = a.provenance;
  const facts = [
    a.status === "completed"
      ? `${a.questions.length} of ${a.requested_count} questions in ${a.clusters.length} clusters`
      : `${a.requested_count} questions requested`,
    p ? `${p.engine}${p.model ? ` (${p.model})` : ""}` : null,
    a.charge ? chargeOf(a.charge) : null,
  ];
  const lines = [`questions analysis ${a.id}: ${a.status} · ${truncate(a.topic, 80)}`, facts.filter(Boolean).join(" · ")];
  const fewer = fewerQuestions(a, a.charge !== null);
  if (fewer) lines.push(...hanging("", fewer));
  if (a.status === "failed") {
    if (a.error) lines.push(`error: ${a.error.code}: ${a.error.message}`);
  } else if (a.status !== "completed") {
    lines.push(`Not generated yet. Wait for it with: geoscope questions get ${a.id} --wait`);
  } else if (a.questions.length === 0) {
    lines.push("", "(no questions)");
  }
  const idWidth = Math.max(0, ...a.questions.map((q) => q.id.length));
  for (const { cluster, questions } of clustered(a)) {
    const head = cluster ? `${cluster.id} ${cluster.name} (${cluster.intent}, ${questions.length})` : `(no cluster, ${questions.length})`;
    lines.push("", ...hanging("", head), ...questions.flatMap((q) => questionLines(q, idWidth)));
  }
  return lines.join("\n");
}

/** Prints the analysis (with --json, the body as sent) and answers the exit code: 1 when it failed, as a failed request would. */
export function printQuestionsAnalysis(ctx: Ctx, result: Result): number {
  if (ctx.json) printJson(result.text, ctx.pretty);
  else out(formatQuestionsAnalysis(result.body));
  return result.body.status === "failed" ? EXIT.other : EXIT.ok;
}

/** The first argument, a questions analysis id; a citation analysis's is refused before anything is asked. */
function questionsIdOf(ctx: Ctx): string {
  const id = arg(ctx, 0, "questions analysis id (fa_…)");
  noExtraArgs(ctx, 1);
  if (id.startsWith("ca_")) throw new UsageError(`${id} is a citation analysis: see it with geoscope analysis get ${id}`);
  return id;
}

async function getQuestionsAnalysis(ctx: Ctx, id: string, wait?: number): Promise<Result> {
  const result = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: { wait } });
  if (result.body.kind !== "questions") throw new UsageError(`${id} is a ${result.body.kind} analysis: see it with geoscope analysis get ${id}`);
  return { text: result.text, body: result.body };
}

/** Asks again (`?wait`, at most 30 s a time) until the analysis has finished or `deadline` has passed; each new status on stderr. */
function follow(ctx: Ctx, first: Result, deadline: number): Promise<Result> {
  return followUntilFinished(first, deadline, (body) => `questions analysis ${body.id}: ${body.status}`, (id, wait) => getQuestionsAnalysis(ctx, id, wait));
}

/** When `--wait [SECONDS]` gives up: never for a bare --wait, now without it. */
const deadlineOf = (budget: number | undefined) => Date.now() + (budget ?? 0) * 1000;

/** The questions to-fanout sends: all of them, or those of the given clusters and the given questions, in the analysis's order. */
export function selectQuestions(a: Analysis, clusterIds: readonly string[], questionIds: readonly string[]): QuestionBody[] {
  const clusters = new Map(a.clusters.map((c) => [c.id, c]));
  const known = new Set(a.questions.map((q) => q.id));
  for (const id of clusterIds) {
    if (!clusters.has(id)) throw new UsageError(`${a.id} has no cluster ${id}; its clusters: ${a.clusters.map((c) => `${c.id} (${c.name})`).join(", ") || "none"}`);
  }
  for (const id of questionIds) {
    if (!known.has(id)) throw new UsageError(`${a.id} has no question ${id}; its questions: ${a.questions.map((q) => q.id).join(", ") || "none"}`);
  }
  if (clusterIds.length === 0 && questionIds.length === 0) return a.questions;
  const chosen = new Set([...clusterIds.flatMap((id) => clusters.get(id)!.question_ids), ...questionIds]);
  return a.questions.filter((q) => chosen.has(q.id));
}

/** A fanout of the chosen questions in the analysis's project, each prompt naming its question; named after the topic unless --name says otherwise. */
export function fanoutRequestOf(a: Analysis, questions: readonly QuestionBody[], plan: Pick<z.input<typeof FanoutRequest>, "engines" | "runs" | "name">): z.input<typeof FanoutRequest> {
  if (!a.project_id) throw new UsageError(`${a.id} belongs to no project you can run it in`);
  return {
    prompts: questions.map((q) => ({ text: q.text, source: { kind: "question" as const, analysis_id: a.id, question_id: q.id } })),
    project: a.project_id,
    name: truncate(a.topic, 200),
    ...plan,
  };
}

const waitOptions = {
  wait: { type: "string", arg: "SECONDS", valueOptional: true, help: "wait until it has finished (progress on stderr), or at most SECONDS" },
} as const satisfies Record<string, OptionSpec>;

export const questions: Section = {
  title: "Questions analyses",
  commands: [
    {
      words: ["questions"],
      args: '"TOPIC"',
      summary: "the questions people ask about a topic, in clusters by intent (held per question; stored as fa_…)",
      options: {
        project: opt.project,
        count: { type: "string", arg: "N", help: "how many questions to ask for, 1 to 100 (default 25)" },
        ...waitOptions,
      },
      async run(ctx) {
        const topic = arg(ctx, 0, 'topic: geoscope questions "TOPIC" --project pr_… (or questions get, questions to-fanout)');
        noExtraArgs(ctx, 1);
        const count = intOption(ctx, "count");
        const body = { topic, project: projectOf(ctx), ...(count !== undefined ? { count } : {}) };
        const budget = waitBudget(ctx);
        const deadline = deadlineOf(budget);
        const created: Result = await request(ctx, createQuestions, { body });
        return printQuestionsAnalysis(ctx, budget === undefined ? created : await follow(ctx, created, deadline));
      },
    },
    {
      words: ["questions", "get"],
      args: "fa_…",
      summary: "a stored questions analysis, as `geoscope questions` printed it",
      options: waitOptions,
      async run(ctx) {
        const id = questionsIdOf(ctx);
        const budget = waitBudget(ctx);
        const deadline = deadlineOf(budget);
        const first = await getQuestionsAnalysis(ctx, id, budget === undefined ? undefined : Math.min(30, budget));
        return printQuestionsAnalysis(ctx, budget === undefined ? first : await follow(ctx, first, deadline));
      },
    },
    {
      words: ["questions", "to-fanout"],
      args: "fa_…",
      summary: "run a completed analysis's questions (all, or chosen clusters and questions) as a fanout; each prompt records its question",
      options: {
        cluster: { type: "string", arg: "c…", multiple: true, help: "this cluster's questions (repeat for more)" },
        question: { type: "string", arg: "q…", multiple: true, help: "this question (repeat for more; with --cluster, both are sent)" },
        ...runOptions,
        name: { type: "string", arg: "NAME", help: "a name for the fanout (default: the topic)" },
        estimate: { type: "boolean", help: "what the fanout would run and cost, as `fanout estimate` prints it; starts and holds nothing" },
        wait: followOption,
      },
      async run(ctx) {
        const id = questionsIdOf(ctx);
        const estimate = ctx.values.estimate === true;
        if (estimate && ctx.values.wait === true) throw new UsageError("--wait follows a fanout it created; --estimate creates none");
        const plan = planOf(ctx);
        const { body: analysis } = await getQuestionsAnalysis(ctx, id);
        if (analysis.status !== "completed") {
          note(
            analysis.status === "failed"
              ? `error: ${id} failed (${analysis.error?.code ?? "no error recorded"}): it has no questions to run`
              : `error: ${id} is ${analysis.status}: it has no questions yet. Wait for it with: geoscope questions get ${id} --wait`,
          );
          return EXIT.invalid;
        }
        const body = fanoutRequestOf(analysis, selectQuestions(analysis, strs(ctx, "cluster"), strs(ctx, "question")), plan);
        return estimate ? printEstimate(ctx, body) : createAndPrint(ctx, body);
      },
    },
  ],
};
