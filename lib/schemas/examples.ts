// The examples the OpenAPI document (and so the API explorer) shows: one consistent story of a
// person, her workspaces, a project and a prompt batch on two engines, with real-looking ids
// (valid ULIDs of November 2026), money strings and answers. Plain data (typing them by their
// schemas would make each schema's type depend on itself): tests/api/openapi.test.ts parses every
// example with the schema that shows it.
import { visibilitySummary, type VisibilityFacts } from "../words/visibility";

export const ids = {
  personalWorkspace: "ws_01M6DN57ABEHJZ67DGGY0ZH8NT",
  teamWorkspace: "ws_01M6GDRWX6W80V9S26W1J509ZK",
  project: "pr_01M6GDXDT8KGYAFXTZVXZHNXKE",
  apiKey: "ak_01M6KNVBV24AETQ3NZC7E7W30B",
  cliToken: "ct_01M6NAW70JW3FTRBT9AWHEXQDB",
  invitation: "iv_01M6RGTJAW8V7G4DT4TV4TNQBY",
  batch: "rq_01M7W4N5HXERYES03KX8C5YJ5R",
  chatgptRun: "dr_01M7W4N5HZGWT0SFG9MVH8BXJ1",
  claudeRun: "dr_01M7W4N5J0ABHVH2C49R0R6QV7",
  promoTransaction: "tx_01M6DN57AMPPRS94N7K6A4CTGW",
  usageTransaction: "tx_01M7W4NKJGY1VH7S3GV4ACFQ02",
} as const;

const alice = "alice@acme.example";
const prompt = "Which CRM is best for a 10-person B2B startup?";

// Accounts, workspaces, credentials

export const examplePersonalWorkspace = {
  id: ids.personalWorkspace,
  name: "alice's workspace",
  kind: "personal",
  role: "admin",
  created_at: "2026-11-02T08:14:05.131Z",
};

export const exampleWorkspace = {
  id: ids.teamWorkspace,
  name: "Acme marketing",
  kind: "team",
  role: "admin",
  created_at: "2026-11-03T10:02:44.518Z",
};

export const exampleCredential = {
  kind: "cli_token",
  id: ids.cliToken,
  name: "geoscope CLI on alice-laptop",
};

export const exampleMember = {
  id: 42,
  email: "bob@acme.example",
  name: "Bob Martin",
  role: "member",
  joined_at: "2026-11-06T14:02:51.730Z",
};

export const exampleInvitation = {
  id: ids.invitation,
  email: "carol@acme.example",
  role: "member",
  status: "pending",
  invited_by: alice,
  accepted_by: null,
  created_at: "2026-11-06T13:30:00.412Z",
  expires_at: "2026-11-13T13:30:00.412Z",
};

export const exampleInvitationCreated = {
  ...exampleInvitation,
  url: "https://geoscope.example.com/invite/Xq3Lp8Zt2Vn6Rb1Wm9Kc4Hs7Jd0Fg5Ay2Ue8Oi3T",
  emailed: true,
};

export const exampleApiKey = {
  id: ids.apiKey,
  name: "CI citations job",
  prefix: "gsk_7Hq2mZ4v",
  created_at: "2026-11-04T16:21:37.250Z",
  workspace_id: ids.teamWorkspace,
  last_used_at: "2026-11-20T09:30:00.118Z",
  revoked_at: null,
};

export const exampleApiKeyCreated = {
  ...exampleApiKey,
  last_used_at: null,
  key: "gsk_7Hq2mZ4vR1cXn8pWbT5yLd3KfG6sJa9eQ0uNw2Bx",
};

export const exampleApiKeyCreateRequest = {
  name: "CI citations job",
  workspace_id: ids.teamWorkspace,
};

export const exampleCliAuthStart = {
  device_code: "Kd82nPq5Tz0WbR4xYc7LmV1sHf9GjA3eUo6NiQ2r",
  user_code: "WDJB-MJHT",
  verification_uri: "https://geoscope.example.com/device",
  verification_uri_complete: "https://geoscope.example.com/device?code=WDJB-MJHT",
  expires_in: 600,
  interval: 5,
};

export const exampleCliAuthPoll = {
  status: "approved",
  token: "gsc_c9V2hX7nQ4pR1tZ8wK3mB6yF0dJ5sL2aG7uE4oHq",
  token_id: ids.cliToken,
  email: alice,
};

// Projects

export const exampleProjectContext = {
  primary_domain: "acme.example",
  domains: ["acme.example", "docs.acme.example"],
  brands: ["Acme", "Acme CRM"],
  competitors: ["HubSpot", "Pipedrive"],
  aliases: { HubSpot: ["HubSpot CRM", "Hubspot Sales Hub"] },
  competitor_domains: { HubSpot: ["hubspot.com"], Pipedrive: ["pipedrive.com"] },
};

export const exampleProject = {
  id: ids.project,
  name: "Acme CRM",
  slug: "acme-crm",
  workspace_id: ids.teamWorkspace,
  workspace_name: "Acme marketing",
  created_by: alice,
  created_at: "2026-11-03T10:05:12.904Z",
  context: exampleProjectContext,
};

export const exampleProjectCreateRequest = {
  name: "Acme CRM",
  workspace_id: ids.teamWorkspace,
  context: exampleProjectContext,
};

// Billing

export const examplePriceRows = [
  { product: "prompt", engine: "chatgpt", unit: "prompt", unit_price_usd: "0.02" },
  { product: "prompt", engine: "claude", unit: "prompt", unit_price_usd: "0.03" },
  { product: "prompt", engine: "gemini", unit: "prompt", unit_price_usd: "0.015" },
  { product: "questions", engine: null, unit: "question", unit_price_usd: "0.002" },
  { product: "audit", engine: null, unit: "url", unit_price_usd: "0.01" },
  { product: "citations", engine: null, unit: "analysis", unit_price_usd: "0.00" },
];

export const exampleRateCard = {
  version: "2026-11-29",
  effective_from: "2026-11-29T00:00:00Z",
  currency: "USD",
  prices: examplePriceRows,
};

export const exampleBillingSummary = {
  workspace_id: ids.teamWorkspace,
  enabled: true,
  balance_usd: "24.36",
  purchased_usd: "20.00",
  promotional_usd: "4.36",
  held_usd: "0.03",
  available_usd: "24.33",
  spend_month_to_date_usd: "0.64",
  add_credit_url: "https://geoscope.example.com/account#billing",
};

export const exampleCapturedCharge = {
  status: "captured",
  amount_usd: "0.02",
  unit: "prompt",
  units: 1,
  unit_price_usd: "0.02",
  pricing_version: "2026-11-29",
};

export const exampleHeldCharge = {
  status: "held",
  amount_usd: "0.03",
  unit: "prompt",
  units: 1,
  unit_price_usd: "0.03",
  pricing_version: "2026-11-29",
};

export const exampleUsageTransaction = {
  id: ids.usageTransaction,
  kind: "usage",
  bucket: "promo",
  amount_usd: "-0.02",
  description: "prompt on chatgpt: 1 prompt at 0.02 USD",
  created_at: "2026-11-20T09:30:14.480Z",
  operation_id: ids.batch,
  run_id: ids.chatgptRun,
  actor: alice,
  api_key_id: null,
};

export const examplePromoTransaction = {
  id: ids.promoTransaction,
  kind: "promo_grant",
  bucket: "promo",
  amount_usd: "5.00",
  description: "Signup promotional credit",
  created_at: "2026-11-02T08:14:05.140Z",
  operation_id: null,
  run_id: null,
  actor: null,
  api_key_id: null,
};

export const exampleUsageRows = [
  { day: "2026-11-20", product: "prompt", engine: "chatgpt", unit: "prompt", operations: 12, units: 12, charged_usd: "0.24" },
  { day: "2026-11-20", product: "prompt", engine: "claude", unit: "prompt", operations: 11, units: 11, charged_usd: "0.33" },
  { day: "2026-11-19", product: "questions", engine: null, unit: "question", operations: 1, units: 20, charged_usd: "0.04" },
];

export const exampleUsageReport = {
  days: 30,
  total_usd: "0.61",
  rows: exampleUsageRows,
};

// Runs and results

export const exampleSources = [
  {
    url: "https://www.hubspot.com/products/crm",
    raw_url: "https://www.hubspot.com/products/crm?utm_source=chatgpt.com",
    resolution: "direct",
    domain: "hubspot.com",
    cited: true,
    search_query_observed: true,
    retrieval_observed: null,
    domain_hint: null,
    title: "Free CRM Software & Tools for Your Whole Team | HubSpot",
    citation_count: 2,
    citation_positions: [1, 3],
  },
  {
    url: "https://www.pipedrive.com/en/features/pipeline-management",
    raw_url: "https://www.pipedrive.com/en/features/pipeline-management?utm_source=chatgpt.com",
    resolution: "direct",
    domain: "pipedrive.com",
    cited: true,
    search_query_observed: true,
    retrieval_observed: null,
    domain_hint: null,
    title: "Sales Pipeline Management Software | Pipedrive",
    citation_count: 1,
    citation_positions: [2],
  },
];

export const exampleSearches = [
  { query: "best CRM for small B2B startup 2026", position: 1, search_call: 1, provider_search_id: "ws_68f1c2a4b7e08193a1d2e3f4a5b6c7d8" },
  { query: "HubSpot vs Pipedrive pricing small sales team", position: 2, search_call: 2, provider_search_id: "ws_68f1c2a9d3b48193b2c3d4e5f6a7b8c9" },
];

export const examplePromptResult = {
  answer:
    "For a 10-person B2B startup, HubSpot CRM and Pipedrive are the usual shortlist.\n\n" +
    "- **HubSpot CRM**: the free tier covers contacts, deals and email tracking, and the Starter plan adds sequences and simple automation as the team grows.\n" +
    "- **Pipedrive**: built around a visual sales pipeline; quick to set up and popular with small outbound teams.\n\n" +
    "If marketing and sales share the tool, HubSpot is the safer default; if the team is mostly closing deals, Pipedrive is lighter.",
  sources: exampleSources,
  searches: exampleSearches,
  citations_exposed: true,
  searched: true,
  search_calls: 2,
  locale_applied: { location: true, language: false },
};

export const exampleUsage = {
  input_tokens: 1840,
  output_tokens: 412,
  reasoning_tokens: 128,
  total_tokens: 2252,
  web_searches: 2,
};

export const exampleRunError = {
  code: "engine_error",
  message: "claude: the provider answered 529 (overloaded) three times; try again later.",
  engine: "claude",
  retryable: true,
};

/** The example's searcher: a market every prompt example runs in. */
const exampleLocation = { country: "US", region: "Texas", city: "Austin", timezone: "America/Chicago" };
const market = { location: exampleLocation, language: "en-US" };

const runInput = (engine: string) => ({ prompt, engine, project: ids.project, ...market });

export const exampleRun = {
  id: ids.chatgptRun,
  kind: "prompt",
  status: "completed",
  input: runInput("chatgpt"),
  created_at: "2026-11-20T09:30:00.127Z",
  engine: "chatgpt",
  model: "gpt-5-2025-08-07",
  batch_id: ids.batch,
  fanout_id: null,
  project_id: ids.project,
  created_by: alice,
  result: examplePromptResult,
  error: null,
  usage: exampleUsage,
  charge: exampleCapturedCharge,
  cost_usd: null,
  duration_ms: 14268,
  started_at: "2026-11-20T09:30:00.212Z",
  completed_at: "2026-11-20T09:30:14.480Z",
};

export const exampleRunningRun = {
  id: ids.claudeRun,
  kind: "prompt",
  status: "running",
  input: runInput("claude"),
  created_at: "2026-11-20T09:30:00.128Z",
  engine: "claude",
  model: null,
  batch_id: ids.batch,
  fanout_id: null,
  project_id: ids.project,
  created_by: alice,
  result: null,
  error: null,
  usage: null,
  charge: exampleHeldCharge,
  cost_usd: null,
  duration_ms: null,
  started_at: "2026-11-20T09:30:00.219Z",
  completed_at: null,
};

export const exampleRunSummaries = [
  {
    id: ids.claudeRun,
    kind: "prompt",
    status: "running",
    subject: prompt,
    created_at: "2026-11-20T09:30:00.128Z",
    engine: "claude",
    batch_id: ids.batch,
    fanout_id: null,
    project_id: ids.project,
    created_by: alice,
    source_count: null,
    cited_count: null,
    completed_at: null,
  },
  {
    id: ids.chatgptRun,
    kind: "prompt",
    status: "completed",
    subject: prompt,
    created_at: "2026-11-20T09:30:00.127Z",
    engine: "chatgpt",
    batch_id: ids.batch,
    fanout_id: null,
    project_id: ids.project,
    created_by: alice,
    source_count: 2,
    cited_count: 2,
    completed_at: "2026-11-20T09:30:14.480Z",
  },
];

export const exampleBatch = {
  id: ids.batch,
  kind: "prompt",
  status: "running",
  input: { prompt, engines: ["chatgpt", "claude"], project: ids.project, ...market },
  run_ids: [ids.chatgptRun, ids.claudeRun],
  created_at: "2026-11-20T09:30:00.125Z",
  updated_at: "2026-11-20T09:30:14.480Z",
  project_id: ids.project,
  created_by: alice,
};

export const examplePromptRequest = {
  prompt,
  engines: ["chatgpt", "claude"],
  project: ids.project,
  ...market,
};

/** The cursor a list answers after the example's last run (lib/http/pagination.ts: base64url of `t1:<id>`). */
export const exampleCursor = "dDE6ZHJfMDFNN1c0TjVIWkdXVDBTRkc5TVZIOEJYSjE";

// A fanout: the prompt on two engines, twice each; three runs done, one still running.

const fanoutIds = {
  fanout: "fo_01M7YSM9YBV55MFVHA19B82N75",
  chatgpt1: "dr_01M7YSM9999ASRH1CAE203QYEV",
  chatgpt2: "dr_01M7YSM9QJCJH9T32H9TMSPWFR",
  claude1: "dr_01M7YSM9ZPPBPA0VDXS31M32V1",
  claude2: "dr_01M7YSMA2EB15HFZSA548PPTR1",
  questions: "fa_01M7YSMA19P8CZYH8D2A912D4F",
} as const;

export const exampleFanoutRequest = {
  prompts: [{ text: prompt, source: { kind: "question", analysis_id: fanoutIds.questions, question_id: "q3" } }],
  name: "CRM shortlist searches",
  engines: ["chatgpt", "claude"],
  runs: 2,
  project: ids.project,
  location: { country: "US" },
  language: "en-US",
};

export const exampleFanoutEstimate = {
  prompts: 1,
  engines: ["chatgpt", "claude"],
  runs: 2,
  executions: 4,
  max_executions: 1000,
  identical_prompts: 0,
  lines: [
    { engine: "chatgpt", executions: 2, unit_price_usd: "0.02", amount_usd: "0.04" },
    { engine: "claude", executions: 2, unit_price_usd: "0.03", amount_usd: "0.06" },
  ],
  total_usd: "0.10",
  pricing_version: "2026-11-29",
  billing_enabled: true,
  available_usd: "24.33",
  sufficient: true,
  margin: {
    runs_per_engine: 2,
    at_half: 0.4055,
    at_last_rate: 0.3977,
    last_rate: { analysis_id: "va_01M8A2S4T6V8W0X2Y4Z6A8B0C2", entity: "Acme CRM", runs: 36, runs_mentioning: 12, visibility: 0.3333 },
    runs_for_5_points: 385,
    summary: ["About ±41 points per engine (2 runs each); to reach ±5, 385 runs per engine.", "At Acme CRM's last visibility (33%), about ±40 points."],
  },
};

const observedRun = (runId: string, runIndex: number, engine: "chatgpt" | "claude", done: boolean, queries: string[]) => ({
  run_id: runId,
  run_index: runIndex,
  status: done ? "completed" : "running",
  created_at: "2026-11-21T10:15:00.412Z",
  model: done ? (engine === "chatgpt" ? "gpt-5-2025-08-07" : "claude-sonnet-4-5-20250929") : null,
  searched: done ? true : null,
  shown: done ? true : null,
  search_calls: done ? queries.length : null,
  queries: queries.map((text, i) => ({ text, position: i + 1, search_call: i + 1, provider_search_id: null })),
  error: null,
  charge: done
    ? { status: "captured", amount_usd: engine === "chatgpt" ? "0.02" : "0.03", unit: "prompt", units: 1, unit_price_usd: engine === "chatgpt" ? "0.02" : "0.03", pricing_version: "2026-11-29" }
    : { status: "held", amount_usd: "0.03", unit: "prompt", units: 1, unit_price_usd: "0.03", pricing_version: "2026-11-29" },
  started_at: "2026-11-21T10:15:00.530Z",
  completed_at: done ? "2026-11-21T10:15:13.902Z" : null,
});

const fanoutSummaryFields = {
  id: fanoutIds.fanout,
  name: "CRM shortlist searches",
  status: "running",
  engines: ["chatgpt", "claude"],
  runs: 2,
  prompt_count: 1,
  execution_count: 4,
  counts: { queued: 0, running: 1, completed: 3, failed: 0 },
  query_count: 5,
  created_at: "2026-11-21T10:15:00.409Z",
  project_id: ids.project,
  created_by: alice,
  completed_at: null,
};

export const exampleFanoutSummary = fanoutSummaryFields;

export const exampleFanout = {
  ...fanoutSummaryFields,
  prompts: [
    {
      index: 1,
      text: prompt,
      source: { kind: "question", analysis_id: fanoutIds.questions, question_id: "q3" },
      location: { country: "US" },
      language: "en-US",
      query_count: 5,
      engines: [
        {
          engine: "chatgpt",
          query_count: 4,
          shown: { completed_runs: 2, runs_shown: 2, rate: 1, interval: [0.3424, 1] },
          runs: [
            observedRun(fanoutIds.chatgpt1, 1, "chatgpt", true, ["best CRM for small B2B startup 2026", "HubSpot vs Pipedrive pricing"]),
            observedRun(fanoutIds.chatgpt2, 2, "chatgpt", true, ["best CRM for small B2B startup 2026", "Pipedrive reviews 2026"]),
          ],
        },
        {
          engine: "claude",
          query_count: 1,
          shown: { completed_runs: 1, runs_shown: 1, rate: 1, interval: [0.2065, 1] },
          runs: [
            observedRun(fanoutIds.claude1, 1, "claude", true, ["CRM for 10 person B2B startup"]),
            observedRun(fanoutIds.claude2, 2, "claude", false, []),
          ],
        },
      ],
    },
  ],
  shown: [
    { engine: "chatgpt", completed_runs: 2, runs_shown: 2, rate: 1, interval: [0.3424, 1] },
    { engine: "claude", completed_runs: 1, runs_shown: 1, rate: 1, interval: [0.2065, 1] },
  ],
  held_usd: "0.03",
  charged_usd: "0.07",
};

export const exampleFanoutQueryReport = {
  fanout_id: fanoutIds.fanout,
  status: "running",
  groups: [
    {
      prompt_index: 1,
      prompt,
      engine: "chatgpt",
      completed_runs: 2,
      queries: [
        { query: "best CRM for small B2B startup 2026", runs: 2, occurrences: 2, share: 1, share_interval: [0.3424, 1] },
        { query: "HubSpot vs Pipedrive pricing", runs: 1, occurrences: 1, share: 0.5, share_interval: [0.0945, 0.9055] },
        { query: "Pipedrive reviews 2026", runs: 1, occurrences: 1, share: 0.5, share_interval: [0.0945, 0.9055] },
      ],
    },
    {
      prompt_index: 1,
      prompt,
      engine: "claude",
      completed_runs: 1,
      queries: [{ query: "CRM for 10 person B2B startup", runs: 1, occurrences: 1, share: 1, share_interval: [0.2065, 1] }],
    },
  ],
  by_country: [
    {
      country: "US",
      prompt,
      engine: "chatgpt",
      prompt_indexes: [1],
      completed_runs: 2,
      queries: [
        { query: "best CRM for small B2B startup 2026", runs: 2, occurrences: 2, share: 1, share_interval: [0.3424, 1] },
        { query: "HubSpot vs Pipedrive pricing", runs: 1, occurrences: 1, share: 0.5, share_interval: [0.0945, 0.9055] },
        { query: "Pipedrive reviews 2026", runs: 1, occurrences: 1, share: 0.5, share_interval: [0.0945, 0.9055] },
      ],
    },
    {
      country: "US",
      prompt,
      engine: "claude",
      prompt_indexes: [1],
      completed_runs: 1,
      queries: [{ query: "CRM for 10 person B2B startup", runs: 1, occurrences: 1, share: 1, share_interval: [0.2065, 1] }],
    },
  ],
};

export const exampleRawEnvelope = {
  engine: "chatgpt",
  normalizer_version: "1",
  model_requested: "gpt-5",
  exchanges: [
    {
      request: { method: "POST", url: "https://api.openai.com/v1/responses", body: { model: "gpt-5", input: prompt, tools: [{ type: "web_search" }] } },
      response: { status: 200, headers: { "content-type": "application/json" }, body: { id: "resp_68f1c2a4b7e0", status: "completed", output: [] } },
    },
  ],
  redirects: {},
};

// A citation analysis of the example batch: both runs, the project's brand and domain.

const citationAnalysisId = "ca_01M7W4P0Q8ZK3N6D2V5R7T9XWB";
const hubspotCrm = "https://www.hubspot.com/products/crm";
const pipedrivePipeline = "https://www.pipedrive.com/en/features/pipeline-management";
const zohoCrm = "https://www.zoho.com/crm/";

export const exampleCitationAnalysisRequest = {
  ids: [ids.batch],
  brands: ["HubSpot", "Pipedrive"],
  domains: ["hubspot.com"],
};

export const exampleCitationAnalysis = {
  id: citationAnalysisId,
  kind: "citations",
  status: "completed",
  subject: prompt,
  run_ids: [ids.chatgptRun, ids.claudeRun],
  created_at: "2026-11-20T09:41:12.208Z",
  completed_at: "2026-11-20T09:41:12.208Z",
  project_id: ids.project,
  created_by: alice,
  error: null,
  method: "stored_results_v1",
  brands: ["HubSpot", "Pipedrive"],
  target_domains: ["hubspot.com"],
  totals: {
    runs: 2,
    prompts: 1,
    engines: 2,
    citations: 4,
    unique_cited_urls: 2,
    unique_cited_domains: 2,
    sources_observed: 4,
    retrieved_not_cited: 1,
    citation_status_unknown: 0,
    unresolved_sources: 0,
    runs_without_citation_marks: 0,
  },
  engines: [
    { engine: "chatgpt", runs: 1, runs_with_citations: 1, citations: 3, unique_cited_domains: 2, runs_without_citation_marks: 0 },
    { engine: "claude", runs: 1, runs_with_citations: 1, citations: 1, unique_cited_domains: 1, runs_without_citation_marks: 0 },
  ],
  domains: [
    { domain: "hubspot.com", citations: 3, pages: 1, runs: 2, prompts: 1, engines: ["chatgpt", "claude"], seen_not_cited: 0 },
    { domain: "pipedrive.com", citations: 1, pages: 1, runs: 1, prompts: 1, engines: ["chatgpt"], seen_not_cited: 0 },
    { domain: "zoho.com", citations: 0, pages: 0, runs: 0, prompts: 0, engines: [], seen_not_cited: 1 },
  ],
  pages: [
    { url: hubspotCrm, domain: "hubspot.com", citations: 3, runs: 2, prompts: 1, engines: ["chatgpt", "claude"], seen_not_cited: 0 },
    { url: pipedrivePipeline, domain: "pipedrive.com", citations: 1, runs: 1, prompts: 1, engines: ["chatgpt"], seen_not_cited: 0 },
    { url: zohoCrm, domain: "zoho.com", citations: 0, runs: 0, prompts: 0, engines: [], seen_not_cited: 1 },
  ],
  retrieved_not_cited: [{ url: zohoCrm, domain: "zoho.com", runs: 1, engines: ["claude"] }],
  textual_mentions: [
    { term: "HubSpot", runs_mentioning: 2, runs: 2, prompts_mentioning: 1, prompts: 1, occurrences: 3, runs_mentioning_by_engine: { chatgpt: 1, claude: 1 } },
    { term: "Pipedrive", runs_mentioning: 2, runs: 2, prompts_mentioning: 1, prompts: 1, occurrences: 2, runs_mentioning_by_engine: { chatgpt: 1, claude: 1 } },
  ],
  domain_coverage: [
    {
      domain: "hubspot.com",
      runs: 2,
      cited_runs: 2,
      unknown_runs: 0,
      cited_rate: 1,
      cited_rate_interval: [0.3424, 1],
      prompts: 1,
      cited_prompts: 1,
      citations: 3,
      pages: [hubspotCrm],
      by_engine: [
        { engine: "chatgpt", runs: 1, cited_runs: 1, unknown_runs: 0, cited_rate: 1, cited_rate_interval: [0.2065, 1] },
        { engine: "claude", runs: 1, cited_runs: 1, unknown_runs: 0, cited_rate: 1, cited_rate_interval: [0.2065, 1] },
      ],
      prompts_cited: [prompt],
      prompts_seen_not_cited: [],
      prompts_absent: [],
    },
  ],
  by_country: [
    {
      country: "US",
      runs: 2,
      prompts: 1,
      engines: ["chatgpt", "claude"],
      citations: 4,
      unique_cited_domains: 2,
      domains: [
        { domain: "hubspot.com", citations: 3, runs: 2 },
        { domain: "pipedrive.com", citations: 1, runs: 1 },
      ],
    },
  ],
  overlap: {
    engines: 2,
    domains_by_engine_count: { "1": 1, "2": 1 },
    pages_by_engine_count: { "1": 1, "2": 1 },
    domains_cited_by_every_engine: ["hubspot.com"],
    pages_cited_by_every_engine: [hubspotCrm],
  },
  excluded_runs: [],
  charge: null,
};

export const exampleAnalysisSummary = {
  id: citationAnalysisId,
  kind: "citations",
  status: "completed",
  subject: prompt,
  run_count: 2,
  created_at: "2026-11-20T09:41:12.208Z",
  project_id: ids.project,
  created_by: alice,
  completed_at: "2026-11-20T09:41:12.208Z",
};

// Questions analyses

const questionsAnalysisId = "fa_01M7XB2Q4K8Z3V6T9R1N5P7C2D";
const questionsRunId = "dr_01M7XB2Q4MG5Y8C2H6J9K3W7TA";
const topic = "CRM software for small B2B teams";

export const exampleQuestionsRequest = { topic, count: 25, project: ids.project };

export const exampleQuestionsAnalysis = {
  id: questionsAnalysisId,
  kind: "questions",
  status: "completed",
  subject: topic,
  run_ids: [questionsRunId],
  created_at: "2026-11-20T10:02:31.412Z",
  completed_at: "2026-11-20T10:02:39.087Z",
  topic,
  requested_count: 25,
  project_id: ids.project,
  created_by: alice,
  error: null,
  questions: [
    { id: "q1", text: "What is the best CRM for a 10-person B2B startup?", cluster_id: "c1", intent: "commercial", specificity: "specific" },
    { id: "q2", text: "HubSpot vs Pipedrive: which is easier for a small sales team?", cluster_id: "c2", intent: "comparison", specificity: "specific" },
    { id: "q3", text: "How much does a CRM cost per user for a small team?", cluster_id: "c1", intent: "commercial", specificity: "broad" },
  ],
  clusters: [
    { id: "c1", name: "Choosing a CRM", intent: "commercial", question_ids: ["q1", "q3"] },
    { id: "c2", name: "Comparisons", intent: "comparison", question_ids: ["q2"] },
  ],
  provenance: {
    strategy: "llm_generation",
    prompt_version: "1",
    prompt_sha: "83522e5639d757434c549e38efd403dce2b113467f4bbf7e4bbe15b572721639",
    prompt_text: `You research what people ask answer engines about a topic.\n\nTopic: ${topic}\nNumber of questions: 25\n…`,
    run_id: questionsRunId,
    generated_at: "2026-11-20T10:02:39.087Z",
    model: "gpt-5.4-2026-10-01",
    engine: "chatgpt",
  },
  charge: { status: "captured", amount_usd: "0.006", unit: "question", units: 3, unit_price_usd: "0.002", pricing_version: "2026-11-29" },
};

// Sharing

export const exampleShareState = {
  id: "sh_01M7XD4V8N2K6P9R3T5W7Y1Z0B",
  url: "https://geoscope.example/s/4fQ9zK2mT7pX1vR8sL3nB6cW0yH5jD2gA9eU4kM7qZ1",
  target_id: ids.chatgptRun,
  target_kind: "run",
  created_at: "2026-11-20T11:15:02.644Z",
  revoked_at: null,
  rotated_from: null,
};

export const exampleShareStatus = { shared: true, share: exampleShareState };

// Page audits

export const exampleAuditRequest = { url: "https://www.acme.example/blog/choosing-a-crm", project: ids.project };

export const exampleAuditResult = {
  page: { url: "https://www.acme.example/blog/choosing-a-crm", final_url: "https://www.acme.example/blog/choosing-a-crm/", domain: "acme.example" },
  fetch: {
    status: "success",
    http_status: 200,
    redirect_chain: [{ url: "https://www.acme.example/blog/choosing-a-crm", status: 301, location: "https://www.acme.example/blog/choosing-a-crm/" }],
    content_type: "text/html; charset=utf-8",
    server_headers: { "content-type": "text/html; charset=utf-8", "last-modified": "Tue, 03 Nov 2026 08:00:00 GMT" },
    elapsed_ms: 412,
    error: null,
    truncated: false,
    robots_txt: { url: "https://www.acme.example/robots.txt", http_status: 200, found: true, allows_page: true },
  },
  content: {
    extraction_method: "article",
    word_count: 1184,
    blocks: 31,
    code_blocks: 0,
    tables: 1,
    excerpt: "Choosing a CRM for a small B2B team comes down to three questions: who enters the data, what it must connect to, and what you can pay per seat…",
    likely_js_dependent: false,
    links: { total: 64, main: 12, navigation: 41, internal: 52, external: 12 },
    rendering_signals: { body_text_chars: 7420, scripts: 9, script_bytes: 182311, framework: null, noscript_text_chars: 0, empty_app_root: false },
  },
  structure: {
    headings: [
      { level: 1, text: "Choosing a CRM for a small B2B team" },
      { level: 2, text: "Who enters the data" },
      { level: 4, text: "Mobile entry" },
    ],
    h1_count: 1,
    level_skips: [{ from_level: 2, to_level: 4, at: "Mobile entry" }],
  },
  metadata: {
    title: "Choosing a CRM for a small B2B team | Acme",
    description: "Three questions that decide which CRM a 10-person B2B team should pick, with prices compared.",
    canonical: "https://www.acme.example/blog/choosing-a-crm/",
    lang: "en",
    robots: null,
    x_robots_tag: null,
    noindex: false,
    nofollow: false,
    open_graph: { "og:title": "Choosing a CRM for a small B2B team", "og:type": "article" },
    dates: { published: "2026-10-12T09:00:00Z", modified: "2026-11-03T08:00:00Z", last_modified_header: "Tue, 03 Nov 2026 08:00:00 GMT" },
    structured_data_types: ["Article", "BreadcrumbList"],
    structured_data_blocks: 2,
    structured_data_errors: 0,
    markdown_alternates: [],
    llms_txt: [
      { kind: "llms.txt", url: "https://www.acme.example/llms.txt", http_status: 404, found: false, links: 0 },
      { kind: "llms-full.txt", url: "https://www.acme.example/llms-full.txt", http_status: 404, found: false, links: 0 },
    ],
  },
  findings: [
    {
      key: "heading_level_skips",
      version: 1,
      name: "Heading levels skip",
      category: "structure",
      severity: "low",
      evidence_level: "observed",
      status: "fail",
      why_it_matters: "Answer engines read headings as the page's outline; a jump from h2 to h4 makes a section look like it belongs somewhere it does not.",
      recommendation: "Use the next level down for each subsection (h2, then h3), styling it as you like.",
      reason: "1 heading skips a level.",
      items: [
        {
          summary: "h2 → h4 at “Mobile entry”",
          severity: "low",
          subtype: null,
          details: { from_level: 2, to_level: 4 },
          evidence: [{ label: "heading", value: "<h4>Mobile entry</h4>", source: "html:<h4>" }],
        },
      ],
    },
    {
      key: "llms_txt_missing",
      version: 1,
      name: "No llms.txt",
      category: "ai_access",
      severity: "info",
      evidence_level: "observed",
      status: "warn",
      why_it_matters: "Some AI tools look for /llms.txt, a short markdown guide to a site's most useful pages.",
      recommendation: "Consider publishing /llms.txt listing the pages you most want AI tools to read.",
      reason: "/llms.txt answered 404.",
      items: [],
    },
  ],
};

// Visibility analyses: two entities over a fanout's three runs (one failed), as lib/visibility computes them.

const visibilityExampleBase = {
  "id": "va_01M8A2S4T6V8W0X2Y4Z6A8B0C2",
  "kind": "visibility",
  "status": "completed",
  "subject": "best crm for a small agency",
  "run_count": 3,
  "created_at": "2026-11-20T09:41:07.512Z",
  "completed_at": "2026-11-20T09:41:07.512Z",
  "project_id": ids.project,
  "created_by": alice,
  "error": null,
  "method": "visibility-v2",
  "interval_method": "t",
  "entities": [
    {
      "name": "Acme CRM",
      "role": "brand",
      "aliases": [
        "Acme"
      ],
      "domains": [
        "acme.example"
      ],
      "case_sensitive": false
    },
    {
      "name": "HubSpot",
      "role": "competitor",
      "aliases": [
        "HubSpot CRM"
      ],
      "domains": [
        "hubspot.com"
      ],
      "case_sensitive": false
    }
  ],
  "run_ids": [
    "dr_01M8A2R1B7C3D4E5F6G7H8J9K0",
    "dr_01M8A2R1B7C3D4E5F6G7H8J9K1",
    "dr_01M8A2R1B7C3D4E5F6G7H8J9K2"
  ],
  "excluded_runs": [
    {
      "run_id": "dr_01M8A2R1B7C3D4E5F6G7H8J9K2",
      "reason": "failed"
    }
  ],
  "totals": {
    "runs": 2,
    "prompts": 1,
    "engines": 2,
    "mentions": 5,
    "mentions_not_counted": {
      "prompt_echo": 0,
      "absence": 1,
      "link": 0
    }
  },
  "rows": [
    {
      "name": "Acme CRM",
      "role": "brand",
      "runs": 2,
      "runs_mentioning": 2,
      "visibility": 1,
      "visibility_interval": [
        0.3424,
        1
      ],
      "share_of_voice": 0.6667,
      "share_of_voice_basis": "runs mentioning any tracked entity",
      "share_of_voice_n": 3,
      "average_position": 1.5,
      "average_position_interval": [
        1,
        2
      ],
      "position_counts": {
        "1": 1,
        "2": 1
      },
      "runs_top1": 1,
      "top1_rate": 0.5,
      "top1_rate_interval": [
        0.0945,
        0.9055
      ],
      "runs_top3": 2,
      "top3_rate": 1,
      "top3_rate_interval": [
        0.3424,
        1
      ],
      "prominence": 0.3461,
      "prominence_interval": [
        0,
        1
      ],
      "runs_citing": 1,
      "cited_rate": 0.5,
      "cited_rate_interval": [
        0.0945,
        0.9055
      ],
      "mentioned_and_cited": 1,
      "mentioned_not_cited": 1,
      "cited_not_mentioned": 0,
      "mentions": 3,
      "mentions_not_counted": {
        "prompt_echo": 0,
        "absence": 0,
        "link": 0
      },
      "by_engine": [
        {
          "engine": "chatgpt",
          "runs": 1,
          "runs_mentioning": 1,
          "visibility": 1,
          "visibility_interval": [
            0.2065,
            1
          ],
          "share_of_voice": 0.5,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 2,
          "average_position": 2,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 0,
            "2": 1
          },
          "runs_top1": 0,
          "top1_rate": 0,
          "top1_rate_interval": [
            0,
            0.7935
          ],
          "runs_top3": 1,
          "top3_rate": 1,
          "top3_rate_interval": [
            0.2065,
            1
          ],
          "prominence": 0.2756,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 0,
          "cited_rate": 0,
          "cited_rate_interval": [
            0,
            0.7935
          ],
          "mentioned_and_cited": 0,
          "mentioned_not_cited": 1,
          "cited_not_mentioned": 0,
          "mentions": 2,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 0,
            "link": 0
          }
        },
        {
          "engine": "claude",
          "runs": 1,
          "runs_mentioning": 1,
          "visibility": 1,
          "visibility_interval": [
            0.2065,
            1
          ],
          "share_of_voice": 1,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 1,
          "average_position": 1,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 0
          },
          "runs_top1": 1,
          "top1_rate": 1,
          "top1_rate_interval": [
            0.2065,
            1
          ],
          "runs_top3": 1,
          "top3_rate": 1,
          "top3_rate_interval": [
            0.2065,
            1
          ],
          "prominence": 0.4167,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 1,
          "cited_rate_interval": [
            0.2065,
            1
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 0,
          "cited_not_mentioned": 0,
          "mentions": 1,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 0,
            "link": 0
          }
        }
      ],
      "by_prompt": [
        {
          "prompt": "best crm for a small agency",
          "runs": 2,
          "runs_mentioning": 2,
          "visibility": 1,
          "visibility_interval": [
            0.3424,
            1
          ],
          "share_of_voice": 0.6667,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 3,
          "average_position": 1.5,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 1
          },
          "runs_top1": 1,
          "top1_rate": 0.5,
          "top1_rate_interval": [
            0.0945,
            0.9055
          ],
          "runs_top3": 2,
          "top3_rate": 1,
          "top3_rate_interval": [
            0.3424,
            1
          ],
          "prominence": 0.3461,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 0.5,
          "cited_rate_interval": [
            0.0945,
            0.9055
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 1,
          "cited_not_mentioned": 0,
          "mentions": 3,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 0,
            "link": 0
          }
        }
      ],
      "by_country": [
        {
          "country": "US",
          "runs": 2,
          "runs_mentioning": 2,
          "visibility": 1,
          "visibility_interval": [
            0.3424,
            1
          ],
          "share_of_voice": 0.6667,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 3,
          "average_position": 1.5,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 1
          },
          "runs_top1": 1,
          "top1_rate": 0.5,
          "top1_rate_interval": [
            0.0945,
            0.9055
          ],
          "runs_top3": 2,
          "top3_rate": 1,
          "top3_rate_interval": [
            0.3424,
            1
          ],
          "prominence": 0.3461,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 0.5,
          "cited_rate_interval": [
            0.0945,
            0.9055
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 1,
          "cited_not_mentioned": 0,
          "mentions": 3,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 0,
            "link": 0
          }
        }
      ]
    },
    {
      "name": "HubSpot",
      "role": "competitor",
      "runs": 2,
      "runs_mentioning": 1,
      "visibility": 0.5,
      "visibility_interval": [
        0.0945,
        0.9055
      ],
      "share_of_voice": 0.3333,
      "share_of_voice_basis": "runs mentioning any tracked entity",
      "share_of_voice_n": 3,
      "average_position": 1,
      "average_position_interval": [
        1,
        2
      ],
      "position_counts": {
        "1": 1,
        "2": 0
      },
      "runs_top1": 1,
      "top1_rate": 0.5,
      "top1_rate_interval": [
        0.0945,
        0.9055
      ],
      "runs_top3": 1,
      "top3_rate": 0.5,
      "top3_rate_interval": [
        0.0945,
        0.9055
      ],
      "prominence": 0.1016,
      "prominence_interval": [
        0,
        1
      ],
      "runs_citing": 1,
      "cited_rate": 0.5,
      "cited_rate_interval": [
        0.0945,
        0.9055
      ],
      "mentioned_and_cited": 1,
      "mentioned_not_cited": 0,
      "cited_not_mentioned": 0,
      "mentions": 1,
      "mentions_not_counted": {
        "prompt_echo": 0,
        "absence": 1,
        "link": 0
      },
      "by_engine": [
        {
          "engine": "chatgpt",
          "runs": 1,
          "runs_mentioning": 1,
          "visibility": 1,
          "visibility_interval": [
            0.2065,
            1
          ],
          "share_of_voice": 0.5,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 2,
          "average_position": 1,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 0
          },
          "runs_top1": 1,
          "top1_rate": 1,
          "top1_rate_interval": [
            0.2065,
            1
          ],
          "runs_top3": 1,
          "top3_rate": 1,
          "top3_rate_interval": [
            0.2065,
            1
          ],
          "prominence": 0.2032,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 1,
          "cited_rate_interval": [
            0.2065,
            1
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 0,
          "cited_not_mentioned": 0,
          "mentions": 1,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 0,
            "link": 0
          }
        },
        {
          "engine": "claude",
          "runs": 1,
          "runs_mentioning": 0,
          "visibility": 0,
          "visibility_interval": [
            0,
            0.7935
          ],
          "share_of_voice": 0,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 1,
          "average_position": null,
          "average_position_interval": null,
          "position_counts": {
            "1": 0,
            "2": 0
          },
          "runs_top1": 0,
          "top1_rate": 0,
          "top1_rate_interval": [
            0,
            0.7935
          ],
          "runs_top3": 0,
          "top3_rate": 0,
          "top3_rate_interval": [
            0,
            0.7935
          ],
          "prominence": 0,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 0,
          "cited_rate": 0,
          "cited_rate_interval": [
            0,
            0.7935
          ],
          "mentioned_and_cited": 0,
          "mentioned_not_cited": 0,
          "cited_not_mentioned": 0,
          "mentions": 0,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 1,
            "link": 0
          }
        }
      ],
      "by_prompt": [
        {
          "prompt": "best crm for a small agency",
          "runs": 2,
          "runs_mentioning": 1,
          "visibility": 0.5,
          "visibility_interval": [
            0.0945,
            0.9055
          ],
          "share_of_voice": 0.3333,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 3,
          "average_position": 1,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 0
          },
          "runs_top1": 1,
          "top1_rate": 0.5,
          "top1_rate_interval": [
            0.0945,
            0.9055
          ],
          "runs_top3": 1,
          "top3_rate": 0.5,
          "top3_rate_interval": [
            0.0945,
            0.9055
          ],
          "prominence": 0.1016,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 0.5,
          "cited_rate_interval": [
            0.0945,
            0.9055
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 0,
          "cited_not_mentioned": 0,
          "mentions": 1,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 1,
            "link": 0
          }
        }
      ],
      "by_country": [
        {
          "country": "US",
          "runs": 2,
          "runs_mentioning": 1,
          "visibility": 0.5,
          "visibility_interval": [
            0.0945,
            0.9055
          ],
          "share_of_voice": 0.3333,
          "share_of_voice_basis": "runs mentioning any tracked entity",
          "share_of_voice_n": 3,
          "average_position": 1,
          "average_position_interval": [
            1,
            2
          ],
          "position_counts": {
            "1": 1,
            "2": 0
          },
          "runs_top1": 1,
          "top1_rate": 0.5,
          "top1_rate_interval": [
            0.0945,
            0.9055
          ],
          "runs_top3": 1,
          "top3_rate": 0.5,
          "top3_rate_interval": [
            0.0945,
            0.9055
          ],
          "prominence": 0.1016,
          "prominence_interval": [
            0,
            1
          ],
          "runs_citing": 1,
          "cited_rate": 0.5,
          "cited_rate_interval": [
            0.0945,
            0.9055
          ],
          "mentioned_and_cited": 1,
          "mentioned_not_cited": 0,
          "cited_not_mentioned": 0,
          "mentions": 1,
          "mentions_not_counted": {
            "prompt_echo": 0,
            "absence": 1,
            "link": 0
          }
        }
      ]
    }
  ],
  "charge": null
};

const visibilityExample = {
  ...visibilityExampleBase,
  "rows": visibilityExampleBase.rows.map((row) => ({ ...row, "sentiment": null })),
  "judge": null,
  "discovered": null,
  "agreement": null,
  "charge": null,
};

// Its summary as the server words it, so the example never says what the templates do not.
export const exampleVisibilityAnalysis = { ...visibilityExample, "summary": visibilitySummary(visibilityExample as unknown as VisibilityFacts) };

export const exampleMention = {
  "run_id": "dr_01M8A2R1B7C3D4E5F6G7H8J9K0",
  "engine": "chatgpt",
  "prompt": "best crm for a small agency",
  "entity": "HubSpot",
  "alias": "HubSpot CRM",
  "start": 42,
  "end": 53,
  "sentence": "**HubSpot CRM** is free to start.",
  "list_rank": 1,
  "counted": true,
  "reason": null
};

export const exampleMonitorEstimate = {
  prompts: 10,
  engines: ["chatgpt", "claude"],
  runs: 3,
  executions_per_tick: 60,
  max_executions: 1000,
  ticks_per_month: 5,
  lines: [
    { engine: "chatgpt", executions: 30, unit_price_usd: "0.02", amount_usd: "0.60" },
    { engine: "claude", executions: 30, unit_price_usd: "0.03", amount_usd: "0.90" },
  ],
  judge: { engine: "claude", runs: 60, unit_price_usd: "0.006", amount_usd: "0.36" },
  per_tick_usd: "1.86",
  per_month_usd: "9.30",
  monthly_budget_usd: "25.00",
  ticks_within_budget: 5,
  pricing_version: "2026-11-29",
  billing_enabled: true,
  margin: {
    runs_per_engine: 30,
    at_half: 0.1685,
    at_last_rate: null,
    last_rate: null,
    runs_for_5_points: 385,
    summary: ["About ±17 points per engine (30 runs each); to reach ±5, 385 runs per engine."],
  },
  detectable_change: {
    entities: 2,
    min_change: 10,
    at_half: 0.347,
    at_last_rate: null,
    summary: ["A change between two ticks is alerted 8 times in 10 when it is at least 35 points (from 50%)."],
  },
};
