// What a share link shows, decided once for the page, its metadata and its not-found: the shared
// object read through its API schema (so a stored body that no longer fits falls back to a
// generic summary instead of failing), and the title and plain-text description of its preview.
import { cache } from "react";
import { engineName } from "@/lib/words/format";
import type { z } from "zod";
import { queryReportOf } from "@/lib/fanouts/present";
import { Analysis, type CitationAnalysis } from "@/lib/schemas/analyses";
import { FINDING_SEVERITIES, type AuditFinding, type AuditResult } from "@/lib/schemas/audits";
import { Fanout, type FanoutQueryReport } from "@/lib/schemas/fanouts";
import type { QuestionsAnalysis } from "@/lib/schemas/questions";
import { PromptBatch, Run, type Batch } from "@/lib/schemas/runs";
import type { VisibilityAnalysis } from "@/lib/schemas/visibility";
import type { ComparisonAnalysis } from "@/lib/schemas/comparison";
import type { OpportunityAnalysis } from "@/lib/schemas/opportunities";
import { sharedObject, type SharedObject } from "@/lib/shares/read";
import type { PublicMonitor } from "@/lib/shares/present";
import { excerpt, plainAnswer } from "./answer";
import { auditResultOf, promptResultOf } from "@/lib/schemas/results";

export type GenericSummary = { what: string; subject: string | null; status: string | null; createdAt: string | null; completedAt: string | null; error: string | null };

export type ShareView =
  | { kind: "prompt_run"; run: Run }
  | { kind: "audit_run"; run: Run }
  | { kind: "questions"; analysis: QuestionsAnalysis }
  | { kind: "citations"; analysis: CitationAnalysis }
  | { kind: "fanout"; fanout: z.input<typeof Fanout>; report: z.input<typeof FanoutQueryReport> }
  | { kind: "batch"; batch: Batch; runs: Run[] }
  | { kind: "visibility"; analysis: VisibilityAnalysis }
  | { kind: "comparison"; analysis: ComparisonAnalysis }
  | { kind: "opportunities"; analysis: OpportunityAnalysis }
  | { kind: "monitor"; monitor: PublicMonitor }
  | { kind: "generic"; summary: GenericSummary };

/** One database read per request, shared by generateMetadata and the page. */
export const shareOf = cache(async (token: string): Promise<SharedObject | null> => sharedObject(token));

/** An engine as people call it: the display module's (lib/words/format.ts), which summaries use too. */
export { engineName };

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

const WHAT: Record<SharedObject["kind"], string> = { run: "run", analysis: "analysis", fanout: "fanout", batch: "prompt", monitor: "monitor" };

function genericSummary(shared: SharedObject): GenericSummary {
  const whole = (typeof shared.body === "object" && shared.body !== null ? shared.body : {}) as Record<string, unknown>;
  // A prompt batch's own fields are under `batch`.
  const body = (shared.kind === "batch" && typeof whole.batch === "object" && whole.batch !== null ? whole.batch : whole) as Record<string, unknown>;
  const input = (typeof body.input === "object" && body.input !== null ? body.input : {}) as Record<string, unknown>;
  const error = typeof body.error === "object" && body.error !== null ? text((body.error as Record<string, unknown>).message) : null;
  const kind = shared.kind === "run" || shared.kind === "analysis" ? text(body.kind) : null;
  return {
    what: `${kind ? `${kind.replace(/_/g, " ")} ` : ""}${WHAT[shared.kind]}`,
    subject: text(body.subject) ?? text(body.name) ?? text(input.prompt) ?? text(input.topic) ?? text(input.url) ?? null,
    status: text(body.status),
    createdAt: text(body.created_at),
    completedAt: text(body.completed_at),
    error,
  };
}

/** The shared object as its page shows it: parsed by its API schema, else (a stored body that no longer fits) a generic summary. */
export function viewOf(shared: SharedObject): ShareView {
  switch (shared.kind) {
    case "run": {
      const run = Run.safeParse(shared.body);
      if (run.success && run.data.kind === "prompt") return { kind: "prompt_run", run: run.data };
      if (run.success && run.data.kind === "audit") return { kind: "audit_run", run: run.data };
      break;
    }
    case "analysis": {
      const analysis = Analysis.safeParse(shared.body);
      if (analysis.success) {
        if (analysis.data.kind === "questions") return { kind: "questions", analysis: analysis.data };
        if (analysis.data.kind === "citations") return { kind: "citations", analysis: analysis.data };
        if (analysis.data.kind === "comparison") return { kind: "comparison", analysis: analysis.data };
        if (analysis.data.kind === "opportunities") return { kind: "opportunities", analysis: analysis.data };
        return { kind: "visibility", analysis: analysis.data };
      }
      break;
    }
    case "fanout": {
      const fanout = Fanout.safeParse(shared.body);
      if (fanout.success) return { kind: "fanout", fanout: shared.body, report: queryReportOf(shared.body) };
      break;
    }
    case "batch": {
      const batch = PromptBatch.safeParse(shared.body);
      if (batch.success) return { kind: "batch", batch: batch.data.batch, runs: batch.data.runs };
      break;
    }
    case "monitor": {
      // Its public copy has nulls where the API has the project, spend and alert settings: checked by the fields the page reads.
      const monitor = shared.body;
      if (typeof monitor.name === "string" && Array.isArray(monitor.entities) && Array.isArray(monitor.engines) && Array.isArray(monitor.prompts)) return { kind: "monitor", monitor };
      break;
    }
  }
  return { kind: "generic", summary: genericSummary(shared) };
}

/** A run's result as an audit document, or null for a prompt's answer (or no result yet). */
export function auditOf(run: Run): AuditResult | null {
  return auditResultOf(run.result);
}

/** An audit's findings of one status, most severe first (catalog order among equals). */
export function findingsWith(audit: AuditResult, status: AuditFinding["status"]): AuditFinding[] {
  const rank = (f: AuditFinding) => FINDING_SEVERITIES.indexOf(f.severity);
  return audit.findings.filter((f) => f.status === status).sort((a, b) => rank(a) - rank(b));
}

/** The page an audit run audits: as requested, else its input's URL. */
export function auditedUrlOf(run: Run): string {
  return auditOf(run)?.page.url ?? text(run.input.url) ?? "(no URL)";
}

/** The prompt an input (a run's, a batch's) names. */
export function promptOfInput(input: Record<string, unknown>): string {
  return text(input.prompt) ?? "(no prompt)";
}

export function promptOf(run: Run): string {
  return promptOfInput(run.input);
}

/** The preview's title and description (at most 200 characters of plain text). */
export function previewOf(view: ShareView): { title: string; description: string } {
  switch (view.kind) {
    case "prompt_run": {
      const { run } = view;
      const title = `${engineName(run.engine)} on: ${excerpt(promptOf(run), 90)}`;
      const answer = promptResultOf(run.result);
      const body = answer ? plainAnswer(answer.answer) : run.error ? `The run failed: ${run.error.message}` : `The run is ${run.status}.`;
      return { title, description: excerpt(body || "The engine gave an empty answer.") };
    }
    case "audit_run": {
      const { run } = view;
      const title = `Page audit: ${excerpt(auditedUrlOf(run), 90)}`;
      const audit = auditOf(run);
      if (!audit) return { title, description: excerpt(run.error ? `The audit failed: ${run.error.message}` : `The audit is ${run.status}.`) };
      const failing = findingsWith(audit, "fail");
      const warnings = findingsWith(audit, "warn");
      const counts = `${failing.length} failing, ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}`;
      const named = failing.length ? failing : warnings;
      return { title, description: excerpt(named.length ? `${counts}: ${named.map((f) => f.name).join(", ")}.` : `${counts}: no problems found.`) };
    }
    case "questions": {
      const { analysis } = view;
      const title = `Questions people ask about ${excerpt(analysis.topic, 90)}`;
      const body = analysis.questions.length
        ? `${analysis.questions.length} questions in ${analysis.clusters.length} ${analysis.clusters.length === 1 ? "cluster" : "clusters"}: ${analysis.questions.map((q) => q.text).join(" · ")}`
        : analysis.error
          ? `The analysis failed: ${analysis.error.message}`
          : `The analysis is ${analysis.status}.`;
      return { title, description: excerpt(body) };
    }
    case "citations": {
      const { analysis } = view;
      const n = analysis.totals.runs;
      const title = `What ${n} ${n === 1 ? "answer" : "answers"} cited`;
      const top = analysis.domains.filter((d) => d.citations > 0).slice(0, 5);
      const body = top.length
        ? `${analysis.subject}. Most cited: ${top.map((d) => `${d.domain} (${d.citations})`).join(", ")}.`
        : `${analysis.subject}. No answer cited a page.`;
      return { title, description: excerpt(body) };
    }
    case "fanout": {
      const { fanout, report } = view;
      const title = `Fanout: ${excerpt(fanout.name, 90)}`;
      const top = report.groups
        .flatMap((g) => g.queries.map((q) => ({ ...q, engine: g.engine, completed: g.completed_runs })))
        .sort((a, b) => b.share - a.share || b.runs - a.runs)
        .slice(0, 3);
      const size = `${fanout.prompt_count} ${fanout.prompt_count === 1 ? "prompt" : "prompts"} on ${fanout.engines.map(engineName).join(", ")}, ${fanout.runs} ${fanout.runs === 1 ? "run" : "runs"} each: ${fanout.query_count} ${fanout.query_count === 1 ? "query" : "queries"} observed.`;
      const most = top.length ? ` Most issued: ${top.map((q) => `“${q.query}” (${engineName(q.engine)}, ${q.runs}/${q.completed} runs)`).join(", ")}.` : "";
      return { title, description: excerpt(size + most) };
    }
    case "batch": {
      const { batch, runs } = view;
      const title = `${runs.map((r) => engineName(r.engine)).join(", ") || "Answer engines"} on: ${excerpt(promptOfInput(batch.input), 90)}`;
      const answered = runs.map((r) => ({ r, answer: promptResultOf(r.result) })).find((x) => x.answer);
      const body = answered
        ? `${engineName(answered.r.engine)}: ${plainAnswer(answered.answer!.answer) || "an empty answer."}`
        : `The prompt is ${batch.status}.`;
      return { title, description: excerpt(body) };
    }
    case "visibility": {
      const { analysis } = view;
      const n = analysis.totals.runs;
      const title = `How often ${n} ${n === 1 ? "answer names" : "answers name"} ${analysis.entities.map((e) => e.name).slice(0, 4).join(", ")}${analysis.entities.length > 4 ? "…" : ""}`;
      // Its summary first: the preview says in words what the page leads with.
      const body = `${analysis.summary.join(" ")} ${analysis.subject}.`;
      return { title, description: excerpt(body) };
    }
    case "comparison": {
      const { analysis } = view;
      const title = `${engineName(analysis.a)} and ${engineName(analysis.b)} compared on ${analysis.prompts_compared} ${analysis.prompts_compared === 1 ? "prompt" : "prompts"}`;
      return { title, description: excerpt(`${analysis.summary.join(" ")} ${analysis.subject}.`) };
    }
    case "opportunities": {
      const { analysis } = view;
      return { title: `Opportunities for ${analysis.brand}`, description: excerpt(`${analysis.summary.join(" ")} ${analysis.subject}.`) };
    }
    case "monitor": {
      const { monitor } = view;
      const title = `Monitor: ${excerpt(monitor.name, 90)}`;
      const body = `How often answer engines name ${monitor.entities.map((e) => e.name).slice(0, 4).join(", ")}${monitor.entities.length > 4 ? "…" : ""}: ${monitor.prompts.length} ${monitor.prompts.length === 1 ? "prompt" : "prompts"} on ${monitor.engines.map(engineName).join(", ")}, re-run every ${monitor.schedule.every}.`;
      return { title, description: excerpt(body) };
    }
    case "generic": {
      const { summary } = view;
      const title = summary.subject ? `${capitalised(summary.what)}: ${excerpt(summary.subject, 90)}` : capitalised(summary.what);
      const body = [summary.subject, summary.status ? `Status: ${summary.status}.` : null, summary.error].filter(Boolean).join(" ");
      return { title, description: excerpt(body || "A read-only page shared from geoscope.") };
    }
  }
}

export function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "2026-11-20 09:30 UTC", or "—". */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—";
}
