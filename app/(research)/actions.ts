"use server";
// The research pages' form actions: each calls the same service as the API, as the signed-in
// person, with the API's request schema and the API's access checks (a foreign id is the API's
// 404 message; nothing is created by a refused request). Starting work redirects to the page
// of what was started.
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { createCitationAnalysis } from "@/lib/analyses/create";
import { createAudit } from "@/lib/audits/create";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { estimateFanout, createFanout } from "@/lib/fanouts/create";
import { ApiError } from "@/lib/http/errors";
import { parseInput, parseParams } from "@/lib/http/input";
import { createQuestionsAnalysis } from "@/lib/questions/create";
import { createPromptBatch } from "@/lib/runs/create";
import { CitationAnalysisRequest, getAnalysis } from "@/lib/schemas/analyses";
import { AuditRequest } from "@/lib/schemas/audits";
import { FanoutRequest, type FanoutEstimate } from "@/lib/schemas/fanouts";
import { QuestionsRequest } from "@/lib/schemas/questions";
import { PromptRequest } from "@/lib/schemas/runs";
import { SHARE_ENDPOINTS, SHARE_TARGETS, ShareTargetKind, type ShareKind } from "@/lib/schemas/shares";
import { CONTEXT_LIMITS, domainNameOf, ProjectId } from "@/lib/schemas/projects";
import * as projects from "@/lib/schemas/projects";
import { getProject } from "@/lib/projects/read";
import { updateProject } from "@/lib/projects/create";
import { createShare, revokeShare, rotateShare } from "@/lib/shares/create";
import { JudgeRequest, VisibilityAnalysisRequest } from "@/lib/schemas/visibility";
import { analyseVisibility } from "@/lib/visibility/create";
import { analyseComparison } from "@/lib/comparison/create";
import { ComparisonAnalysisRequest } from "@/lib/schemas/comparison";
import { judgeAgain } from "@/lib/visibility/judge-again";
import { inFormWords, withoutBillingAddress, type FieldLabels } from "../_lib/form-words";
import { marketOf, marketsOf } from "./_lib/market";
import { promptLines } from "./_lib/lines";

export type StartState = {
  ok: boolean;
  message?: string;
  /** The refusal was 402: the page offers the way to billing. */
  needsCredit?: boolean;
};

export type EstimateState = { ok: boolean; message?: string; estimate?: z.input<typeof FanoutEstimate> };

/** `at`: when the action answered, so a page with several share forms shows the latest outcome. */
export type ShareActionState = { ok: boolean; message?: string; url?: string | null; shared?: boolean; at?: number };

function field(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : undefined;
}

function all(form: FormData, name: string): string[] {
  return form.getAll(name).filter((v): v is string => typeof v === "string" && v !== "");
}

/** A whole number typed in a form, or the text as typed (the schema then names the field). */
function int(form: FormData, name: string): number | string | undefined {
  const raw = field(form, name);
  if (raw === undefined) return undefined;
  return /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
}

/** The project the form is for, as typed: the request schema checks it with the rest of the body. */
function projectOf(form: FormData): string {
  return field(form, "project") ?? "";
}

// Each form's labels by the request paths its fields fill: refusals are shown in these words.
const MARKET_LABELS: FieldLabels = {
  "location.country": "Country",
  "location.city": "City",
  "location.region": "Region",
  "location.timezone": "Time zone",
  language: "Language",
};
const PROMPT_LABELS: FieldLabels = { prompt: "Prompt", engines: "Engines", ...MARKET_LABELS };
const QUESTIONS_LABELS: FieldLabels = { topic: "Topic", count: "Questions" };
const AUDIT_LABELS: FieldLabels = { url: "Page URL" };
const FANOUT_LABELS: FieldLabels = {
  prompts: "Prompts",
  "prompts[].text": "Prompt {n}",
  "prompts[].source": "Prompt {n}'s question",
  engines: "Engines",
  runs: "Runs of each prompt on each engine",
  name: "Name",
  ...MARKET_LABELS,
};
const CITATION_LABELS: FieldLabels = { ids: "Ticked runs and batches", entities: "Brands and competitors" };
const COMPARE_LABELS: FieldLabels = { a: "First engine", b: "Second engine", ids: "The runs compared", entities: "Brands and competitors" };
const JUDGE_LABELS: FieldLabels = { engine: "Judge engine", "judge.engine": "Judge engine", ids: "The analysis's runs", entities: "Brands and competitors" };

/** A refusal as the form shows it: in its labels; a 402 without the address the page links to. */
function refusal(error: ApiError, labels: FieldLabels): { message: string; needsCredit: boolean } {
  const needsCredit = error.code === "insufficient_credit";
  return { message: needsCredit ? withoutBillingAddress(error.message) : inFormWords(error.message, labels), needsCredit };
}

async function start(projectId: string, labels: FieldLabels, work: () => Promise<string>): Promise<StartState> {
  let target: string;
  try {
    target = await work();
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, ...refusal(error, labels) };
    throw error;
  }
  if (ProjectId.safeParse(projectId).success) revalidatePath(`/projects/${projectId}`);
  redirect(target);
}

/** The engines ticked; none ticked is refused here (the API would take "none" as "all enabled"). */
function engines(form: FormData): string[] {
  const chosen = all(form, "engines");
  if (chosen.length === 0) throw new ApiError("invalid_request", "Tick at least one engine.");
  return chosen;
}

function fanoutBody(form: FormData) {
  // One per prompt line, in order, "" where a line came from no question (so kept, not dropped).
  const sources = form.getAll("source").map((v) => (typeof v === "string" ? v : ""));
  const texts = promptLines(form.get("prompts"));
  // Questions sent from a questions analysis carry where they came from ("fa_…:q3" per line).
  const prompts = texts.map((text, i) => {
    const [analysis_id, question_id] = (sources[i] ?? "").split(":");
    return analysis_id && question_id ? { text, source: { kind: "question" as const, analysis_id, question_id } } : { text };
  });
  if (prompts.length === 0) throw new ApiError("invalid_request", "Paste at least one prompt, one per line.");
  // Several countries: every prompt once per country, in prompt then country order, as the CLI's --country DE,US.
  const { locations, language } = marketsOf(form);
  const rest = { engines: engines(form), runs: int(form, "runs"), name: field(form, "name") ?? null, project: field(form, "project"), ...(language !== undefined ? { language } : {}) };
  if (locations.length <= 1) return parseInput(FanoutRequest, { prompts, ...rest, ...(locations[0] ? { location: locations[0] } : {}) }, "form");
  // Checked as typed first, so a refusal numbers the prompts as the form does.
  parseInput(FanoutRequest, { prompts, ...rest }, "form");
  return parseInput(FanoutRequest, { prompts: prompts.flatMap((prompt) => locations.map((location) => ({ ...prompt, location }))), ...rest }, "form");
}

export async function startPromptAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, PROMPT_LABELS, async () => {
    const body = parseInput(PromptRequest, { prompt: field(form, "prompt"), engines: engines(form), project, ...marketOf(form) }, "form");
    const created = await createPromptBatch(principal, body);
    return `/batches/${created.batch.id}`;
  });
}

export async function estimateFanoutAction(_prev: EstimateState, form: FormData): Promise<EstimateState> {
  const principal = await requireSessionPrincipal("/account");
  try {
    return { ok: true, estimate: await estimateFanout(principal, fanoutBody(form)) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: refusal(error, FANOUT_LABELS).message };
    throw error;
  }
}

export async function startFanoutAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, FANOUT_LABELS, async () => {
    const fanout = await createFanout(principal, fanoutBody(form));
    return `/fanouts/${fanout.id}`;
  });
}

export async function startQuestionsAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, QUESTIONS_LABELS, async () => {
    const body = parseInput(QuestionsRequest, { topic: field(form, "topic"), count: int(form, "count"), project }, "form");
    const analysis = await createQuestionsAnalysis(principal, body);
    return `/analyses/${analysis.id}`;
  });
}

export async function startAuditAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, AUDIT_LABELS, async () => {
    const run = await createAudit(principal, parseInput(AuditRequest, { url: field(form, "url")?.trim(), project }, "form"));
    return `/runs/${run.id}`;
  });
}

/**
 * A citation analysis of the ticked runs and batches (or the page's own, as hidden ids), or with
 * the form's "Analyse visibility" button (`analysis=visibility`) a visibility analysis of them
 * tracking the project's brands and competitors.
 */
export async function startCitationAnalysisAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, CITATION_LABELS, async () => {
    const ids = all(form, "ids");
    if (ids.length === 0) throw new ApiError("invalid_request", "Tick the runs or batches to analyse.");
    if (field(form, "analysis") === "visibility") {
      const id = await analyseVisibility(principal, parseInput(VisibilityAnalysisRequest, { ids }, "form"));
      return `/analyses/${id}`;
    }
    const body = parseInput(CitationAnalysisRequest, { ids, use_project_context: true }, "form");
    const analysis = await createCitationAnalysis(principal, body);
    return `/analyses/${analysis.id}`;
  });
}

/**
 * "Compare engines" on a fanout's or a monitor's page: a comparison of the page's runs (the
 * fanout's, or the monitor's last tick's) on the two engines chosen, tracking the project's brands
 * and competitors (POST /comparison-analyses); its page next.
 */
export async function compareEnginesAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, COMPARE_LABELS, async () => {
    const ids = all(form, "ids");
    if (ids.length === 0) throw new ApiError("invalid_request", "There are no runs to compare yet.");
    const id = await analyseComparison(principal, parseInput(ComparisonAnalysisRequest, { ids, a: field(form, "a"), b: field(form, "b") }, "form"));
    return `/analyses/${id}`;
  });
}

/**
 * "Judge these answers" on a visibility analysis's page: a judged analysis of the same runs and
 * entities (POST /visibility-analyses with `judge`), held and charged per counted run; a 402 is
 * said in words with the way to billing. Goes to the new analysis, which the judge finishes.
 */
export async function judgeVisibilityAction(_prev: StartState, form: FormData): Promise<StartState> {
  const principal = await requireSessionPrincipal("/account");
  const project = projectOf(form);
  return start(project, JUDGE_LABELS, async () => {
    const { analysis_id } = parseParams(getAnalysis.params, { analysis_id: field(form, "analysis_id") ?? "" });
    const sentiment = form.get("sentiment") === "on";
    const discover = form.get("discover") === "on";
    if (!sentiment && !discover) throw new ApiError("invalid_request", "Tick sentiment, other brands named, or both: otherwise the judge has nothing to do.");
    const judge = parseInput(JudgeRequest, { engine: field(form, "engine"), sentiment, discover }, "form");
    return `/analyses/${await judgeAgain(principal, analysis_id, judge)}`;
  });
}

/** The shared object named by the form, its id checked as the API checks the path's (malformed = missing). */
function targetOf(form: FormData): { kind: ShareKind; id: string } {
  const kind = ShareTargetKind.safeParse(field(form, "kind"));
  if (!kind.success) throw new ApiError("invalid_request", `kind: must be ${ShareTargetKind.options.join(", ")}`);
  const { param } = SHARE_TARGETS[kind.data];
  return { kind: kind.data, id: parseParams(SHARE_ENDPOINTS[kind.data].get.params, { [param]: field(form, "id") ?? "" })[param]! };
}

async function sharing(work: () => Promise<Omit<ShareActionState, "ok">>): Promise<ShareActionState> {
  try {
    return { ok: true, ...(await work()), at: Date.now() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message, at: Date.now() };
    throw error;
  }
}

export async function shareAction(_prev: ShareActionState, form: FormData): Promise<ShareActionState> {
  const principal = await requireSessionPrincipal("/account");
  return sharing(async () => {
    const { kind, id } = targetOf(form);
    const share = await createShare(principal, kind, id);
    return { shared: true, url: share.url, message: "Anyone with this link can read it." };
  });
}

export async function rotateShareAction(_prev: ShareActionState, form: FormData): Promise<ShareActionState> {
  const principal = await requireSessionPrincipal("/account");
  return sharing(async () => {
    const { kind, id } = targetOf(form);
    const share = await rotateShare(principal, kind, id);
    return { shared: true, url: share.url, message: "A new link: the old one no longer works." };
  });
}

export async function revokeShareAction(_prev: ShareActionState, form: FormData): Promise<ShareActionState> {
  const principal = await requireSessionPrincipal("/account");
  return sharing(async () => {
    const { kind, id } = targetOf(form);
    await revokeShare(principal, kind, id);
    return { shared: false, url: null, message: "The link no longer works." };
  });
}

/** One row of the project page's brands and competitors form, as typed. */
type EntityRow = { name: string; role: "brand" | "competitor"; aliases: string[]; domains: string[] };

export type EntitiesState = { ok: boolean; message?: string };

/** The rows of the brands and competitors form (`rows` of them; `name.N`, `role.N`, `aliases.N`, `domains.N`), blank rows left out. */
function entityRows(form: FormData, prefix = ""): { row: number; entity: EntityRow }[] {
  const count = Number(field(form, `${prefix}rows`) ?? 0);
  const out: { row: number; entity: EntityRow }[] = [];
  const commaList = (name: string) =>
    (field(form, name) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  for (let i = 0; i < Math.min(count, 200); i++) {
    const name = (field(form, `${prefix}name.${i}`) ?? "").trim();
    const aliases = commaList(`${prefix}aliases.${i}`);
    const domains = commaList(`${prefix}domains.${i}`);
    if (!name && aliases.length === 0 && domains.length === 0) continue;
    out.push({ row: i + 1, entity: { name, role: field(form, `${prefix}role.${i}`) === "brand" ? "brand" : "competitor", aliases, domains } });
  }
  return out;
}

/** What a row refuses, in the form's words (its row number and labels): each field's problem, each bad item named once. */
function rowRefusals({ row, entity }: { row: number; entity: EntityRow }, earlier: Map<string, number>): string[] {
  const at = `Row ${row}`;
  const out: string[] = [];
  const first = earlier.get(entity.name.toLowerCase());
  if (!entity.name) out.push(`${at}, Name: give the name these other names and domains belong to.`);
  else if ([...entity.name].length > 100) out.push(`${at}, Name: must be 1 to 100 characters.`);
  else if (first !== undefined) out.push(`${at}, Name: ${entity.name} is already row ${first}.`);
  if (entity.aliases.length > CONTEXT_LIMITS.aliases) out.push(`${at}, Other names: at most ${CONTEXT_LIMITS.aliases}.`);
  for (const long of entity.aliases.filter((a) => [...a].length > 100)) out.push(`${at}, Other names: "${long.slice(0, 40)}…" is longer than 100 characters.`);
  if (entity.role === "brand" && entity.domains.length) out.push(`${at}, Domains: a brand's domains are the project's (Primary domain and Other domains, on the account page); leave this empty.`);
  else {
    if (entity.domains.length > CONTEXT_LIMITS.domains) out.push(`${at}, Domains: at most ${CONTEXT_LIMITS.domains}.`);
    for (const bad of entity.domains.filter((d) => domainNameOf(d) === null)) out.push(`${at}, Domains: "${bad}" must be a domain name like acme.com (a URL is cut to its host).`);
  }
  return out;
}

/**
 * The project page's brands and competitors, with their other names (aliases) and competitors'
 * domains: the stored context is sent with only these four
 * fields replaced, and only when the form's rows differ from those it showed (`was.…`).
 */
export async function saveEntitiesAction(_prev: EntitiesState, form: FormData): Promise<EntitiesState> {
  const principal = await requireSessionPrincipal("/account");
  try {
    const { project_id } = parseParams(projects.updateProject.params, { project_id: field(form, "project_id") ?? "" });
    const rows = entityRows(form);
    const earlier = new Map<string, number>();
    const refused: string[] = [];
    for (const row of rows) {
      refused.push(...rowRefusals(row, earlier));
      if (row.entity.name && !earlier.has(row.entity.name.toLowerCase())) earlier.set(row.entity.name.toLowerCase(), row.row);
    }
    if (refused.length) return { ok: false, message: refused.join(" ") };
    const shown = entityRows(form, "was.").map((r) => r.entity);
    if (JSON.stringify(rows.map((r) => r.entity)) === JSON.stringify(shown)) return { ok: true, message: "Nothing changed." };
    const stored = await getProject(principal, project_id);
    const typed = rows.map((r) => r.entity);
    const context = {
      ...stored.context,
      brands: typed.filter((e) => e.role === "brand").map((e) => e.name),
      competitors: typed.filter((e) => e.role === "competitor").map((e) => e.name),
      aliases: Object.fromEntries(typed.filter((e) => e.aliases.length).map((e) => [e.name, e.aliases])),
      competitor_domains: Object.fromEntries(typed.filter((e) => e.role === "competitor" && e.domains.length).map((e) => [e.name, e.domains])),
    };
    await updateProject(principal, project_id, parseInput(projects.ProjectUpdateRequest, { context }, "form"));
    revalidatePath(`/projects/${project_id}`);
    return { ok: true, message: `Saved: ${context.brands.length} ${context.brands.length === 1 ? "brand" : "brands"}, ${context.competitors.length} ${context.competitors.length === 1 ? "competitor" : "competitors"}.` };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: inFormWords(error.message, { "context.brands": "Brands", "context.competitors": "Competitors" }) };
    throw error;
  }
}

/**
 * A judged visibility analysis's "Track as competitor": adds one discovered name to the
 * project's competitors (the rest of its context kept, as PATCH /projects would with the whole
 * context), then back to the analysis. A name the project already tracks changes nothing.
 */
export async function addCompetitorAction(form: FormData): Promise<void> {
  const principal = await requireSessionPrincipal("/account");
  const analysisId = field(form, "analysis_id") ?? "";
  const back = /^va_[0-9A-HJKMNP-TV-Z]{26}$/.test(analysisId) ? `/analyses/${analysisId}` : "/";
  const name = (field(form, "name") ?? "").trim();
  let outcome = "added";
  try {
    const { project_id } = parseParams(projects.updateProject.params, { project_id: field(form, "project_id") ?? "" });
    const stored = await getProject(principal, project_id);
    const context = stored.context ?? {};
    const tracked = [...(context.brands ?? []), ...(context.competitors ?? [])].map((n) => n.toLowerCase());
    if (name === "") outcome = "refused";
    else if (tracked.includes(name.toLowerCase())) outcome = "tracked";
    else {
      const next = { ...context, competitors: [...(context.competitors ?? []), name] };
      await updateProject(principal, project_id, parseInput(projects.ProjectUpdateRequest, { context: next }, "form"));
      revalidatePath(`/projects/${project_id}`);
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    outcome = "refused";
  }
  revalidatePath(back);
  redirect(`${back}?competitor=${encodeURIComponent(name)}&outcome=${outcome}#discovered`);
}
