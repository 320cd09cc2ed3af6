// Prompts, runs and batches: starting a prompt, following it, and reading what each engine
// answered, cited and searched.
import type { z } from "zod";
import { ENGINE_IDS } from "../../lib/schemas/common";
import { engineLabel, reportsQueries } from "../../lib/schemas/engines";
import { promptResultOf } from "../../lib/schemas/results";
import { createPrompt, getBatch, getRun, listRuns, RunStatus, type PromptBatch, type Run } from "../../lib/schemas/runs";
import { EXIT } from "../client";
import { formatAudit } from "./audits";
import { counted } from "../../lib/words/format";
import { marketLabel, marketOf, marketOptions } from "../market";
import {
  arg, date, inEngineOrder, intOption, list, noExtraArgs, note, opt, out, printJson, projectOf, request, show, str, table, truncate, waitOption,
  type Section,
} from "../command";

type RunBody = z.output<typeof Run>;
type BatchBody = z.output<typeof PromptBatch>;

export function formatRun(run: RunBody): string {
  if (run.kind === "audit") return formatAudit(run);
  const lines: string[] = [];
  const head = `${run.engine ?? run.id}${run.model ? ` (${run.model})` : ""}: ${run.status}`;
  lines.push(`== ${head} ==`);
  lines.push(`run ${run.id}${run.charge ? ` · ${run.charge.status} $${run.charge.amount_usd}` : ""}${run.duration_ms != null ? ` · ${(run.duration_ms / 1000).toFixed(1)} s` : ""}`);
  if (run.error) lines.push(`error: ${run.error.code}: ${run.error.message}`);
  const result = promptResultOf(run.result);
  if (result?.locale_applied && (result.locale_applied.location || result.locale_applied.language)) {
    const sent = [result.locale_applied.location ? "location" : null, result.locale_applied.language ? "language" : null].filter(Boolean).join(" and ");
    lines.push(`sent to ${run.engine ?? "the engine"}: ${sent}`);
  }
  if (result?.shown === false) lines.push("", "Google showed no AI Overview for this query: no answer, nothing cited (left out of visibility as no_answer).");
  if (result?.provider_cost_usd) lines.push(`vendor's own cost: $${result.provider_cost_usd}`);
  if (result && result.shown !== false) {
    lines.push("", result.answer.trim(), "");
    const cited = result.sources.filter((s) => s.cited);
    const others = result.sources.filter((s) => !s.cited);
    lines.push(`Sources (${cited.length} cited, ${result.sources.length} in all):`);
    if (result.sources.length === 0) lines.push("  (none)");
    [...cited, ...others].forEach((s, i) => {
      const flags = [s.cited ? "cited" : null, s.search_query_observed ? "in search results" : null, s.retrieval_observed ? "read" : null]
        .filter(Boolean)
        .join(", ");
      // An unresolved redirect's URL says nothing: show the domain the engine named instead.
      const where = s.resolution === "unresolved" ? `${s.domain_hint ?? s.title ?? "?"} (unresolved redirect ${truncate(s.url, 60)})` : s.url;
      const title = s.title && s.resolution !== "unresolved" ? ` "${truncate(s.title, 80)}"` : "";
      lines.push(`  ${String(i + 1).padStart(2)}. ${where}${title}${flags ? ` [${flags}]` : ""}`);
    });
    lines.push(`Searches (${result.searches.length}):`);
    // As the run page says it: an engine that does not report its searches may have run some.
    if (result.searches.length === 0) lines.push(`  (${noSearchesShown(run.engine, result.searched)})`);
    for (const q of result.searches) lines.push(`  ${q.position ?? "-"}. ${q.query}${q.search_call ? ` (call ${q.search_call})` : ""}`);
  }
  return lines.join("\n");
}

/** Why a run shows no search: it did not search, its engine does not say which it ran, or it showed none. */
export function noSearchesShown(engine: string | null, searched: boolean | null): string {
  if (searched === false) return "it did not search the web";
  if (engine && !reportsQueries(engine)) return `${engineLabel(engine)} does not say which searches it ran`;
  return "the engine showed no queries";
}

/** The market a run or batch input names, as "market: DE · Munich · de", or null. */
export function marketLine(input: Record<string, unknown>): string | null {
  const label = marketLabel(input.location as { country: string; city?: string } | null, input.language as string | null);
  return label ? `market: ${label}` : null;
}

export function formatBatch(body: BatchBody): string {
  const prompt = typeof body.batch.input.prompt === "string" ? body.batch.input.prompt : "";
  const head = [
    `batch ${body.batch.id}: ${body.batch.status}`,
    prompt ? `prompt: ${prompt}` : null,
    marketLine(body.batch.input),
    body.batch.project_id ? `project: ${body.batch.project_id}` : null,
  ]
    .filter(Boolean)
    .join("\n");
  return [head, ...inEngineOrder(body.runs, (r) => r.engine).map(formatRun)].join("\n\n");
}

/** Statuses after which a batch (or fanout) no longer changes. */
export const FINISHED = new Set(["completed", "partial", "failed"]);

export const runs: Section = {
  title: "Prompts and runs",
  commands: [
    {
      words: ["prompt"],
      args: '"TEXT"',
      summary: "run a prompt on each engine (each engine's prompt price is held from your credit; see `geoscope pricing`)",
      options: {
        project: opt.project,
        engines: { type: "string", arg: ENGINE_IDS.join(","), help: "engines to run on (default: every enabled engine)" },
        ...marketOptions,
        wait: { type: "boolean", help: "follow the batch to its end (progress on stderr), then print the answers" },
      },
      async run(ctx) {
        const text = arg(ctx, 0, 'prompt text: geoscope prompt "TEXT" --project pr_…');
        noExtraArgs(ctx, 1);
        const project = projectOf(ctx);
        const engines = list(str(ctx, "engines"));
        // Engines passed through as typed: the API refuses an unknown one naming it (400).
        const body = { prompt: text, project, ...(engines !== undefined ? { engines } : {}), ...marketOf(ctx) } as z.input<typeof createPrompt.body>;
        const created = await request(ctx, createPrompt, { body });
        // The 202 body, or the last GET /batches body once waited for: both a PromptBatch.
        let current: { text: string; body: BatchBody } = created;
        let batch = current.body;
        const waiting = ctx.values.wait === true;
        if (waiting) {
          note(`batch ${batch.batch.id} queued on ${inEngineOrder(batch.runs, (r) => r.engine).map((r) => r.engine).join(", ")}; waiting…`);
          let last = "";
          while (!FINISHED.has(batch.batch.status)) {
            current = await request(ctx, getBatch, { params: { batch_id: batch.batch.id }, query: { wait: 30 } });
            batch = current.body;
            const done = batch.runs.filter((r) => r.status === "completed" || r.status === "failed").length;
            const progress = `batch ${batch.batch.id}: ${batch.batch.status}, ${done}/${counted(batch.runs.length, "run")} finished (${inEngineOrder(batch.runs, (r) => r.engine).map((r) => `${r.engine} ${r.status}`).join(", ")})`;
            if (progress !== last) note(progress);
            last = progress;
          }
        }
        if (ctx.json) printJson(current.text, ctx.pretty);
        else {
          out(formatBatch(batch));
          if (!waiting) note(`Queued. Wait for it with: geoscope batches get ${batch.batch.id} --wait 30`);
        }
        return EXIT.ok;
      },
    },
    {
      words: ["runs", "list"],
      summary: "runs, newest first, across every workspace you can act in",
      options: {
        batch: { type: "string", arg: "rq_…", help: "only this batch's runs" },
        fanout: { type: "string", arg: "fo_…", help: "only this fanout's runs" },
        project: { type: "string", arg: "pr_…", help: "only this project's runs" },
        workspace: { type: "string", arg: "ws_…", help: "only this workspace's runs" },
        status: { type: "string", arg: "S", help: `only runs in this status (${RunStatus.options.join(", ")})`, values: RunStatus.options },
        engine: { type: "string", arg: "E", help: `only runs on this engine (${ENGINE_IDS.join(", ")})`, values: ENGINE_IDS },
        country: { type: "string", arg: "CC", help: "only runs made for a searcher in this country (US, DE…)" },
        limit: opt.limit,
        cursor: opt.cursor,
        wait: { ...opt.wait, help: "with --batch: hold until that batch has finished, up to 0 to 30 seconds" },
      },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const query = {
          batch: str(ctx, "batch"), fanout: str(ctx, "fanout"), project: str(ctx, "project"), workspace: str(ctx, "workspace"),
          status: str(ctx, "status") as RunBody["status"] | undefined, engine: str(ctx, "engine") as (typeof ENGINE_IDS)[number] | undefined, country: str(ctx, "country"),
          limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor"), wait: waitOption(ctx),
        };
        show(ctx, await request(ctx, listRuns, { query }), (body) => {
          const rows = body.items.map((r) => ({
            ...r, created_at: date(r.created_at), subject: truncate(r.subject, 50), cited: r.cited_count != null ? `${r.cited_count}/${r.source_count}` : null,
          }));
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          return table(rows, ["id", "status", "engine", "cited", "created_at", "subject"]);
        });
        return EXIT.ok;
      },
    },
    {
      words: ["runs", "get"],
      args: "dr_…",
      summary: "one run: a prompt's answer, its sources and searches, or a page audit's report, once finished",
      options: {
        wait: opt.wait,
        raw: { type: "boolean", help: "also the raw provider envelope: every request (secrets removed) and response, to re-check any figure" },
      },
      async run(ctx) {
        const id = arg(ctx, 0, "run id (dr_…)");
        noExtraArgs(ctx, 1);
        const include = ctx.values.raw === true ? ("raw_envelope" as const) : undefined;
        show(ctx, await request(ctx, getRun, { params: { run_id: id }, query: { wait: waitOption(ctx), include } }), (run) =>
          [
            typeof run.input.prompt === "string" ? `prompt: ${run.input.prompt}` : null,
            marketLine(run.input),
            formatRun(run),
            include ? `\nRaw envelope:\n${JSON.stringify(run.raw_envelope ?? null, null, 2)}` : null,
          ]
            .filter(Boolean)
            .join("\n"),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["batches", "get"],
      args: "rq_…",
      summary: "a batch and each engine's run",
      options: { wait: opt.wait },
      async run(ctx) {
        const id = arg(ctx, 0, "batch id (rq_…)");
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, getBatch, { params: { batch_id: id }, query: { wait: waitOption(ctx) } }), formatBatch);
        return EXIT.ok;
      },
    },
  ],
};
