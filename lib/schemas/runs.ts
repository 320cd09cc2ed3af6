// Runs, batches and prompt requests (spec 2.3, 4.2, 4.4 items 1, 2, 6), with the statuses of
// decisions.md. zod only: no server code may be imported here.
import { z } from "zod";
import { RunCharge } from "./billing";
import { DateTime, EngineId, cursorParam, idOf, limitParam, trimmedText, waitParam } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleBatch, exampleCursor, examplePromptRequest, exampleRawEnvelope, exampleRun, exampleRunningRun, exampleRunSummaries } from "./examples";
import { AuditRequest, AuditResult } from "./audits";
import { CountryCode, marketFields } from "./locale";
import { ProjectId } from "./projects";
import { PromptResult, RunError, Usage } from "./results";
import { WorkspaceId } from "./workspaces";

export const RunId = idOf("dr");
export const BatchId = idOf("rq");
export const FanoutId = idOf("fo");

export const RunStatus = z.enum(["queued", "running", "completed", "failed"]).meta({
  id: "RunStatus",
  description: "`queued` until a worker starts it, `running` while it runs, then `completed` or `failed`. Finished runs never change.",
});

export const BatchStatus = z.enum(["queued", "running", "completed", "partial", "failed"]).meta({
  id: "BatchStatus",
  description:
    "`queued` while no run has started; `running` while any run is queued or running and at least one has started; then `completed` (all completed), `partial` (some failed, some completed) or `failed` (all failed).",
});

export const RunKind = z.enum(["prompt", "audit", "questions"]).meta({
  id: "RunKind",
  description: "`prompt`: one engine's answer to a prompt; `audit`: one page audit; `questions`: the generation run of a questions analysis.",
});

export const BatchKind = z.enum(["prompt"]).meta({ id: "BatchKind", description: "`prompt`: the runs of one POST /prompts." });

export const RawEnvelope = z
  .object({
    engine: z.string(),
    normalizer_version: z.string().describe("The normaliser that turned this envelope into the run's result."),
    model_requested: z.string(),
    exchanges: z
      .array(z.object({ request: z.unknown(), response: z.unknown() }).passthrough())
      .describe("Every HTTP exchange with the provider, in order: the request (secrets removed) and the full response."),
    redirects: z.record(z.string(), z.unknown()).describe("What following each redirect URL of a source gave."),
  })
  .passthrough()
  .meta({
    id: "RawEnvelope",
    description: "The provider's wire-level exchanges of one run, kept so its result can be normalised again and checked.",
    examples: [exampleRawEnvelope],
  });

export const Run = z
  .object({
    id: RunId,
    kind: RunKind,
    status: RunStatus,
    input: z
      .record(z.string(), z.unknown())
      .describe(
        "`{prompt, engine, project, location, language}` for a prompt run (a fanout's: `{prompt, engine, fanout_id, prompt_index, run_index, location, language}`; `location` and `language` as given, canonicalised, null when not given); `{url}` for an audit run; `{topic, count, analysis_id, project}` for a questions run. A shared page leaves out `project`.",
      ),
    created_at: DateTime,
    engine: z.string().nullable(),
    model: z.string().nullable().describe("The model the provider reported."),
    batch_id: BatchId.nullable(),
    fanout_id: FanoutId.nullable(),
    project_id: ProjectId.nullable().describe("Null on a shared page."),
    created_by: z.string().nullable().describe("Email of who started it; null on a shared page."),
    result: z
      .union([PromptResult, AuditResult])
      .nullable()
      .describe(
        "Set once the run has completed: a PromptResult for a prompt run, an AuditResult for an audit run; null for a questions run (its analysis holds the questions).",
      ),
    error: RunError.nullable().describe("Set once the run has failed."),
    usage: Usage.nullable(),
    charge: RunCharge.nullable().describe("Null if not billable (or billing is off), and on a shared page."),
    cost_usd: z.number().nullable().describe("Deprecated: no longer reported, always null."),
    duration_ms: z.int().nullable(),
    started_at: DateTime.nullable(),
    completed_at: DateTime.nullable(),
    raw_envelope: RawEnvelope.nullable()
      .optional()
      .describe("Only with `?include=raw_envelope`: what was sent and received, to re-check any figure. Null if none was kept."),
  })
  .meta({
    id: "Run",
    description:
      "One engine execution of a prompt (or one page audit). Every field is always present; those the spec lists as optional are null when they do not apply.",
    examples: [exampleRun],
  });

export const RunSummary = z
  .object({
    id: RunId,
    kind: RunKind,
    status: RunStatus,
    subject: z.string().describe("The prompt text, or what else the run was about."),
    created_at: DateTime,
    engine: z.string().nullable(),
    batch_id: BatchId.nullable(),
    fanout_id: FanoutId.nullable(),
    project_id: ProjectId.nullable(),
    created_by: z.string().nullable().describe("Email of who started it."),
    source_count: z.int().min(0).nullable().describe("Sources of a completed prompt run; null until then."),
    cited_count: z.int().min(0).nullable().describe("Cited sources of a completed prompt run; null until then."),
    completed_at: DateTime.nullable(),
  })
  .meta({ id: "RunSummary", examples: [exampleRunSummaries[0]] });

export const RunList = z
  .object({ items: z.array(RunSummary), next_cursor: z.string().nullable() })
  .meta({ id: "RunList", description: "Newest first.", examples: [{ items: exampleRunSummaries, next_cursor: exampleCursor }] });

export const Batch = z
  .object({
    id: BatchId,
    kind: BatchKind,
    status: BatchStatus,
    input: z.record(z.string(), z.unknown()).describe("`{prompt, engines, project, location, language}` (`location` and `language` null when not given; no `project` on a shared page)."),
    run_ids: z.array(RunId),
    created_at: DateTime,
    updated_at: DateTime.describe("When the batch or one of its runs last changed."),
    project_id: ProjectId.nullable(),
    created_by: z.string().nullable().describe("Email of who started it."),
  })
  .meta({ id: "Batch", description: "The runs one prompt request started, one per engine.", examples: [exampleBatch] });

export const PromptBatch = z
  .object({ batch: Batch, runs: z.array(Run) })
  .meta({ id: "PromptBatch", examples: [{ batch: exampleBatch, runs: [exampleRun, exampleRunningRun] }] });

export const PromptRequest = z
  .strictObject({
    prompt: trimmedText(1, 4000).describe("The prompt: 1 to 4000 characters (Unicode code points; most emoji count one) after leading and trailing whitespace is trimmed, so whitespace only is refused. Stored and sent to the engines trimmed. NUL (U+0000) and unpaired surrogates are refused."),
    engines: z
      .array(EngineId)
      .min(1, { error: "must have at least 1 engine when given" })
      .optional()
      .describe("Engine ids (`chatgpt`, `claude`, `gemini`); every enabled engine when omitted. A repeated engine runs once."),
    project: ProjectId.describe("The project the work belongs to (`pr_…`); required."),
    ...marketFields,
  })
  .meta({ id: "PromptRequest", examples: [examplePromptRequest] });

export const createAudit = defineEndpoint({
  method: "POST", path: "/audits", operationId: "createAudit", summary: "Audit a page: can answer engines reach, read and cite it",
  description:
    "Queues one audit run (kind `audit`, subject the URL) and holds the audit price. Wait with GET /runs/{run_id}?wait=30: its result is the audit document, and the hold is captured. A page that answers, however badly (404, 5xx, not HTML, a redirect out of reach, robots.txt forbidding it), gives a completed audit that says so. A page that gave no HTTP answer at all fails the run, its hold released (nothing charged) and its result null, with a RunError saying why: `page_blocked` (an address that is not public; `retryable` false), `page_dns_error` (no address for the host), `page_connection_refused`, `page_timeout` (no answer within 10 s), `page_connection_error` (all four `retryable` true), `page_tls_error` (`retryable` false). A failure of the service also fails the run (`internal_error`, `retryable` true).",
  tags: ["Runs"], auth: "bearer", body: AuditRequest, response: Run, status: 202,
  errors: ["insufficient_credit", "rate_limited"],
});

export const RunsQuery = z.object({
  batch: BatchId.optional().describe("Only this batch's runs."),
  fanout: FanoutId.optional().describe("Only this fanout's runs."),
  project: ProjectId.optional().describe("Only this project's runs."),
  workspace: WorkspaceId.optional().describe("Only this workspace's runs."),
  status: RunStatus.optional().describe("Only runs in this status."),
  engine: EngineId.optional().describe("Only runs on this engine (`chatgpt`, `claude` or `gemini`)."),
  country: CountryCode.optional().describe("Only runs made for a searcher in this country (its input's `location.country`), any case."),
  limit: limitParam,
  cursor: cursorParam,
  wait: waitParam.describe("With `batch`: seconds to wait for that batch to finish, 0 to 30, default 0. Refused without `batch`."),
});

export const createPrompt = defineEndpoint({
  method: "POST", path: "/prompts", operationId: "createPrompt", summary: "Run a prompt on each engine; runs are queued",
  description:
    "Creates a batch with one queued run per engine, and holds each run's price from the workspace's credit, all at once or not at all. Returns at once; wait with GET /batches/{batch_id}?wait=30.",
  tags: ["Runs"], auth: "bearer", body: PromptRequest, response: PromptBatch, status: 202,
  errors: ["insufficient_credit", "rate_limited"],
});
export const listRuns = defineEndpoint({
  method: "GET", path: "/runs", operationId: "listRuns", summary: "Runs, newest first, across every workspace the credential can act in",
  description: "With `batch` and `wait`, holds until that batch has finished (or `wait` seconds passed).",
  tags: ["Runs"], auth: "bearer", query: RunsQuery, response: RunList, status: 200,
});
export const getRun = defineEndpoint({
  method: "GET", path: "/runs/{run_id}", operationId: "getRun", summary: "One run, with its result once finished",
  description:
    "A run of any kind (prompt, audit, questions). With `wait=N` (up to 30) the request returns as soon as the run has finished, or after N seconds with it unfinished. `include=raw_envelope` adds the provider's raw exchanges. A run the caller cannot reach answers 404.",
  tags: ["Runs"], auth: "bearer", params: z.object({ run_id: RunId }),
  query: z.object({
    wait: waitParam,
    include: z
      .enum(["raw_envelope"])
      .optional()
      .describe("`raw_envelope` adds the run's raw provider envelope (large, so never in the default body or in lists)."),
  }),
  response: Run, status: 200,
});
export const getBatch = defineEndpoint({
  method: "GET", path: "/batches/{batch_id}", operationId: "getBatch", summary: "A batch and its runs",
  description:
    "The runs one POST /prompts started, one per engine, with the batch's status derived from them. With `wait=N` (up to 30) the request returns as soon as every run has finished.",
  tags: ["Runs"], auth: "bearer", params: z.object({ batch_id: BatchId }), query: z.object({ wait: waitParam }), response: PromptBatch,
  status: 200,
});

export type Run = z.infer<typeof Run>;
export type RunSummary = z.infer<typeof RunSummary>;
export type Batch = z.infer<typeof Batch>;
export type PromptBatch = z.infer<typeof PromptBatch>;
export type PromptRequest = z.infer<typeof PromptRequest>;
export type BatchStatus = z.infer<typeof BatchStatus>;
export type RunStatus = z.infer<typeof RunStatus>;
