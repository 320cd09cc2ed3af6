"use server";
// "Find opportunities" on a visibility analysis's page: the list made as POST
// /opportunity-analyses makes it (free, at once), then its page. A refusal (the analysis tracks
// no brand) goes back to the analysis, saying why.
import { redirect } from "next/navigation";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseInput } from "@/lib/http/input";
import { auditPages } from "@/lib/opportunities/audit";
import { findOpportunities } from "@/lib/opportunities/create";
import { OpportunityAnalysisRequest } from "@/lib/schemas/opportunities";

export async function findOpportunitiesAction(form: FormData): Promise<void> {
  const analysis = String(form.get("analysis_id") ?? "");
  const back = /^va_[0-9A-HJKMNP-TV-Z]{26}$/.test(analysis) ? `/analyses/${analysis}` : "/";
  const principal = await requireSessionPrincipal(back);
  let made: string;
  try {
    const brand = String(form.get("brand") ?? "").trim();
    made = (await findOpportunities(principal, parseInput(OpportunityAnalysisRequest, { analysis, ...(brand ? { brand } : {}) }, "form"))).id;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    redirect(`${back}?opportunities=${encodeURIComponent(error.message)}#opportunities`);
  }
  redirect(`/analyses/${made}`);
}

export type AuditPagesState = { ok: boolean; message?: string; needsCredit?: boolean; runs?: string[] };

/** "Audit these pages": an audit of each ticked page, as POST /audits starts one; the runs started, or why none was. */
export async function auditPagesAction(_prev: AuditPagesState, form: FormData): Promise<AuditPagesState> {
  const list = String(form.get("analysis_id") ?? "");
  const principal = await requireSessionPrincipal(`/analyses/${list}`);
  try {
    const runs = await auditPages(principal, list, form.getAll("url").map(String));
    return { ok: true, runs };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const needsCredit = error.code === "insufficient_credit";
    return { ok: false, message: needsCredit ? error.message.replace(/ Add credit at \S+$/, "") : error.message, needsCredit };
  }
}
