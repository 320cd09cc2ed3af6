// What a finding's check returns, and the small helpers the category files share.
import type { AuditFetch, FINDING_SEVERITIES, FINDING_STATUSES, FindingItem } from "@/lib/schemas/audits";
import type { AuditObservation, PageAnalysis } from "../types";

export type FindingStatus = (typeof FINDING_STATUSES)[number];
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];
export type Evidence = FindingItem["evidence"][number];

/** One problem instance; severity defaults to the finding's, subtype to null, details to {}. */
export type ItemDraft = {
  summary: string;
  severity?: FindingSeverity;
  subtype?: string | null;
  details?: Record<string, unknown>;
  evidence: Evidence[];
};

export type Outcome = { status: FindingStatus; reason: string; items: ItemDraft[] };

/** A check is pure: the same observation always gives the same outcome. */
export type Check = (observation: AuditObservation) => Outcome;

export const pass = (reason: string): Outcome => ({ status: "pass", reason, items: [] });
export const notApplicable = (reason: string): Outcome => ({ status: "not_applicable", reason, items: [] });
export const fail = (reason: string, items: ItemDraft[]): Outcome => ({ status: "fail", reason, items });
export const warn = (reason: string, items: ItemDraft[]): Outcome => ({ status: "warn", reason, items });

export const evidence = (label: string, value: unknown, source: string): Evidence => ({ label, value, source });

/** "client_error 404", "fetch_error (timeout after 15 s)", "non_html 200 (application/pdf)". */
export function describeFetch(fetch: AuditFetch): string {
  const parts: string[] = [fetch.status];
  if (fetch.http_status !== null) parts.push(String(fetch.http_status));
  const detail = fetch.error ?? fallbackDetail(fetch);
  return detail === null ? parts.join(" ") : `${parts.join(" ")} (${detail})`;
}

function fallbackDetail(fetch: AuditFetch): string | null {
  if (fetch.status === "non_html" && fetch.content_type !== "") return fetch.content_type;
  if (fetch.status === "blocked" && fetch.robots_txt?.allows_page === false) return "robots.txt forbids the page";
  return null;
}

/** A check that needs the page's HTML: not_applicable, saying why, when there was none. */
export function withAnalysis(check: (analysis: PageAnalysis, observation: AuditObservation) => Outcome): Check {
  return (observation) => {
    if (observation.analysis === null) {
      const fetch = observation.fetched.fetch;
      return notApplicable(
        fetch.status === "success" ? "The page's HTML was not analysed." : `The page was not fetched as HTML: ${describeFetch(fetch)}.`,
      );
    }
    return check(observation.analysis, observation);
  };
}

/** Null for null, undefined, empty or blank text; else the text trimmed, inner whitespace runs made one space. */
export function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = value.replace(/\s+/g, " ").trim();
  return cleaned === "" ? null : cleaned;
}

export const capitalised = (value: string): string => `${value.charAt(0).toUpperCase()}${value.slice(1)}`;

export { plural } from "../../text";

/** Quoted for a reason: “…”, long values shortened. */
export function quote(value: string, max = 80): string {
  const chars = [...value];
  return `“${chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : value}”`;
}
