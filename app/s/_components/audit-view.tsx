// A shared page audit: the page audited and how it answered, the findings by status (failing and
// warnings open with their reason, why it matters, what to do and the evidence; passing and not
// applicable folded away), then what the audit read: content, the outline and metadata. Every value
// read from the page is shown as text, never as markup.
import type { ReactNode } from "react";
import { Notice, Section } from "../../_components/ui";
import { AUDIT_UNANSWERED_CODES, FINDING_CATEGORIES, type AuditFinding, type AuditResult } from "@/lib/schemas/audits";
import type { Run } from "@/lib/schemas/runs";
import { auditOf, auditedUrlOf, capitalised, findingsWith, when } from "../_lib/view";
import { Facts, Failure, Num, OutLink, ScrollTable, ShareHeading, Tag, statusTone } from "./bits";
import { plural } from "@/lib/text";

type Tone = Parameters<typeof Tag>[0]["tone"];

const SEVERITY_TONE: Record<AuditFinding["severity"], Tone> = { critical: "rose", high: "rose", medium: "amber", low: "slate", info: "slate" };
const FETCH_TONE: Record<AuditResult["fetch"]["status"], Tone> = {
  success: "emerald",
  redirect: "amber",
  client_error: "rose",
  server_error: "rose",
  blocked: "rose",
  non_html: "amber",
  fetch_error: "rose",
};
const STATUS_STYLE = {
  fail: { border: "border-l-rose-400", label: "Failing" },
  warn: { border: "border-l-amber-400", label: "Warning" },
  error: { border: "border-l-slate-400", label: "Could not check" },
} as const;

const yesNo = (value: boolean | null | undefined, unset = "unknown") => (value === true ? "yes" : value === false ? "no" : unset);
const elapsed = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const words = (key: string) => key.replace(/_/g, " ");

/** An evidence value as text: strings as they are, nothing found as "none", anything else as JSON. */
function EvidenceValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-400">none</span>;
  return <code className="font-mono whitespace-pre-wrap wrap-anywhere text-slate-800">{typeof value === "string" ? value : JSON.stringify(value)}</code>;
}

/** A URL as a link out that wraps anywhere, so a long one never widens the page. */
function UrlLink({ url }: { url: string }) {
  return (
    <OutLink href={url} className="wrap-anywhere text-indigo-700 hover:underline">
      {url}
    </OutLink>
  );
}

function robotsText(fetch: AuditResult["fetch"]): string {
  const robots = fetch.robots_txt;
  if (robots === null) return "not read";
  if (robots.allows_page === null) return `could not be read${robots.http_status !== null ? ` (HTTP ${robots.http_status})` : ""}`;
  if (!robots.found) return "none, so crawlers may fetch the page";
  return robots.allows_page ? "allows the page" : "forbids the page";
}

function FetchSection({ audit }: { audit: AuditResult }) {
  const { fetch, page } = audit;
  return (
    <Section id="fetch" title="How the page answered">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]" data-testid="fetch">
        <FactRow label="Result">
          <span className="flex flex-wrap items-center gap-2">
            <Tag tone={FETCH_TONE[fetch.status]}>{words(fetch.status)}</Tag>
            {fetch.http_status !== null ? <span>HTTP {fetch.http_status}</span> : null}
            <span className="text-slate-500">in {elapsed(fetch.elapsed_ms)}</span>
          </span>
        </FactRow>
        {fetch.error ? <FactRow label="Error">{fetch.error}</FactRow> : null}
        {page.final_url !== page.url ? (
          <FactRow label="Final URL">
            <UrlLink url={page.final_url} />
          </FactRow>
        ) : null}
        <FactRow label="Redirects">
          {fetch.redirect_chain.length === 0 ? (
            "none"
          ) : (
            <ol className="space-y-1">
              {fetch.redirect_chain.map((hop, i) => (
                <li key={i} className="wrap-anywhere">
                  <span className="font-medium tabular-nums">{hop.status}</span> {hop.url} <span className="text-slate-400">→</span> {hop.location}
                </li>
              ))}
            </ol>
          )}
        </FactRow>
        <FactRow label="Content type">{fetch.content_type || "—"}</FactRow>
        <FactRow label="robots.txt">
          {robotsText(fetch)}
          {fetch.robots_txt ? (
            <span className="block text-xs wrap-anywhere text-slate-500">
              {fetch.robots_txt.url}
              {fetch.robots_txt.http_status !== null ? ` · HTTP ${fetch.robots_txt.http_status}` : ""}
            </span>
          ) : null}
        </FactRow>
        {fetch.truncated ? <FactRow label="Body">cut at 5 MiB: only the first 5 MiB were read</FactRow> : null}
      </dl>
    </Section>
  );
}

/** One label–value row of a two-column definition list that stacks on a phone. */
function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 sm:contents">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function Evidence({ evidence }: { evidence: AuditFinding["items"][number]["evidence"] }) {
  if (evidence.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1.5 rounded-md bg-slate-50 px-3 py-2 text-xs" data-testid="evidence">
      {evidence.map((e, i) => (
        <li key={i} className="min-w-0">
          <span className="text-slate-500">{e.label}: </span>
          <EvidenceValue value={e.value} />
          {e.source ? <span className="ml-2 wrap-anywhere text-slate-400">({e.source})</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** A failing, warning or erroring finding, open: what was found, why it matters, what to do, the evidence. */
function FindingCard({ finding }: { finding: AuditFinding }) {
  const style = STATUS_STYLE[finding.status as keyof typeof STATUS_STYLE] ?? STATUS_STYLE.error;
  return (
    <article className={`rounded-md border border-l-4 border-slate-200 ${style.border} p-3 sm:p-4`} data-testid="finding" data-key={finding.key} data-status={finding.status}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <h3 className="font-semibold break-words">{finding.name}</h3>
        <Tag tone={SEVERITY_TONE[finding.severity]}>{finding.severity}</Tag>
        <span className="text-xs text-slate-500">
          {words(finding.category)} · {finding.evidence_level}
        </span>
      </div>
      {finding.reason ? <p className="mt-1.5 break-words text-slate-800">{finding.reason}</p> : null}
      {finding.items.length ? (
        <ul className="mt-3 space-y-3">
          {finding.items.map((item, i) => (
            <li key={i} className="min-w-0 text-sm">
              <span className="font-medium break-words">{item.summary}</span>
              {item.severity !== finding.severity ? (
                <span className="ml-2">
                  <Tag tone={SEVERITY_TONE[item.severity]}>{item.severity}</Tag>
                </span>
              ) : null}
              <Evidence evidence={item.evidence} />
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="font-medium text-slate-500">Why it matters</dt>
          <dd className="break-words text-slate-700">{finding.why_it_matters}</dd>
        </div>
        {finding.status !== "error" ? (
          <div>
            <dt className="font-medium text-slate-500">What to do</dt>
            <dd className="break-words text-slate-700">{finding.recommendation}</dd>
          </div>
        ) : null}
      </dl>
    </article>
  );
}

function FindingGroup({ id, title, findings, description }: { id: string; title: string; findings: AuditFinding[]; description?: string }) {
  if (findings.length === 0) return null;
  return (
    <Section id={id} title={`${title} (${findings.length})`} description={description}>
      <div className="space-y-4">
        {findings.map((f) => (
          <FindingCard key={f.key} finding={f} />
        ))}
      </div>
    </Section>
  );
}

/** Passing or not applicable findings, folded: each name with its reason, and what it checks on demand. */
function FoldedGroup({ id, title, findings, note }: { id: string; title: string; findings: AuditFinding[]; note: string }) {
  if (findings.length === 0) return null;
  return (
    <details id={id} className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid={id}>
      <summary className="cursor-pointer font-semibold">
        {title} ({findings.length}) <span className="font-normal text-slate-500">· {note}</span>
      </summary>
      <ul className="mt-3">
        {findings.map((f) => (
          <li key={f.key} className="border-t border-slate-100 py-2 text-sm first:border-t-0" data-testid="folded-finding">
            <span className="font-medium">{f.name}</span> <span className="text-xs text-slate-400">{words(f.category)}</span>
            {f.reason ? <p className="break-words text-slate-600">{f.reason}</p> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Counts({ audit }: { audit: AuditResult }) {
  const count = (status: AuditFinding["status"]) => audit.findings.filter((f) => f.status === status).length;
  const items: Array<[string, number, string]> = [
    ["Failing", count("fail"), "text-rose-700"],
    ["Warnings", count("warn"), "text-amber-800"],
    ["Passed", count("pass"), "text-emerald-700"],
    ["Not applicable", count("not_applicable"), "text-slate-700"],
  ];
  if (count("error")) items.push(["Could not check", count("error"), "text-slate-700"]);
  return (
    <dl className="mb-10 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="counts">
      {items.map(([label, value, tone]) => (
        <div key={label} className="rounded-md border border-slate-200 bg-white px-3 py-2 shadow-sm">
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className={`text-lg font-semibold tabular-nums ${value ? tone : "text-slate-400"}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The findings by category: how many fail, warn and pass in each, failing categories first. */
function ByCategory({ audit }: { audit: AuditResult }) {
  const rows = FINDING_CATEGORIES.map((category) => {
    const of = audit.findings.filter((f) => f.category === category);
    const n = (status: AuditFinding["status"]) => of.filter((f) => f.status === status).length;
    return { category, fail: n("fail"), warn: n("warn"), pass: n("pass"), other: n("not_applicable") + n("error") };
  })
    .filter((r) => r.fail + r.warn + r.pass + r.other > 0)
    .sort((a, b) => b.fail - a.fail || b.warn - a.warn);
  return (
    <Section id="categories" title="By category" description="Failing categories first.">
      <ScrollTable label="Findings by category" columns={[{ label: "Category", text: true }, { label: "Failing" }, { label: "Warnings" }, { label: "Passed" }, { label: "Other" }]}>
        {rows.map((r) => (
          <tr key={r.category} data-testid="category-row">
            <td className="font-medium">{capitalised(words(r.category)).replace(/^Ai /, "AI ")}</td>
            <Num>{r.fail ? <span className="font-semibold text-rose-700">{r.fail}</span> : 0}</Num>
            <Num>{r.warn ? <span className="font-semibold text-amber-800">{r.warn}</span> : 0}</Num>
            <Num>{r.pass}</Num>
            <Num>{r.other}</Num>
          </tr>
        ))}
      </ScrollTable>
    </Section>
  );
}

function LlmsTxt({ probes }: { probes: AuditResult["metadata"]["llms_txt"] }) {
  if (probes.length === 0) return <>not checked</>;
  return (
    <ul className="space-y-0.5">
      {probes.map((p) => (
        <li key={p.kind}>
          {p.kind}: {p.found ? `found, ${plural(p.links, "link")}` : `not found${p.http_status !== null ? ` (HTTP ${p.http_status})` : ""}`}
        </li>
      ))}
    </ul>
  );
}

/** What a page with no HTML leaves to show: that, and the site's llms.txt, which was probed all the same. */
function NoHtmlSection({ audit }: { audit: AuditResult }) {
  return (
    <Section id="content" title="Content, outline and metadata">
      <p className="text-sm text-slate-600">No HTML page was analysed, so there is no content, outline or metadata to show.</p>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
        <FactRow label="llms.txt">
          <LlmsTxt probes={audit.metadata.llms_txt} />
        </FactRow>
      </dl>
    </Section>
  );
}

function ContentSection({ audit }: { audit: AuditResult }) {
  const { content: c } = audit;
  const facts: Array<[string, ReactNode]> = [
    ["Found by", c.extraction_method ? words(c.extraction_method) : "—"],
    ["Words", c.word_count],
    ["Blocks", c.blocks],
    ["Code blocks", c.code_blocks],
    ["Tables", c.tables],
    ["Needs JavaScript", yesNo(c.likely_js_dependent)],
    ["Links", `${c.links.total} (main ${c.links.main}, navigation ${c.links.navigation})`],
    ["Internal / external", `${c.links.internal} / ${c.links.external}`],
  ];
  return (
    <Section id="content" title="Content" description="The page's main content, as the audit found it (it does not run JavaScript).">
      <Facts items={facts.map(([label, value]) => [label, String(value)])} />
      {c.excerpt ? <blockquote className="mt-4 border-l-2 border-slate-200 pl-3 text-sm break-words text-slate-600">{c.excerpt}</blockquote> : null}
    </Section>
  );
}

function OutlineSection({ structure }: { structure: AuditResult["structure"] }) {
  const { headings } = structure;
  return (
    <Section id="outline" title="Outline" description={`${plural(headings.length, "heading")} in the main content, ${plural(structure.h1_count, "h1")}.`}>
      {headings.length === 0 ? (
        <p className="text-sm text-slate-500">No headings in the main content.</p>
      ) : (
        <ol className="space-y-1 text-sm" data-testid="outline">
          {headings.map((h, i) => (
            <li key={i} className="flex min-w-0 items-baseline gap-2" style={{ paddingLeft: `${Math.min(h.level - 1, 5) * 1}rem` }}>
              <span className="shrink-0 font-mono text-xs text-slate-400">h{h.level}</span>
              <span className="min-w-0 break-words">{h.text}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function MetadataSection({ metadata: m }: { metadata: AuditResult["metadata"] }) {
  const og = Object.entries(m.open_graph);
  const dates = [
    m.dates.published ? `published ${m.dates.published}` : null,
    m.dates.modified ? `modified ${m.dates.modified}` : null,
    m.dates.last_modified_header ? `Last-Modified header ${m.dates.last_modified_header}` : null,
  ].filter(Boolean);
  const none = <span className="text-slate-400">none</span>;
  return (
    <Section id="metadata" title="Metadata">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]" data-testid="metadata">
        <FactRow label="Title">{m.title ?? none}</FactRow>
        <FactRow label="Description">{m.description ?? none}</FactRow>
        <FactRow label="Canonical">{m.canonical ? <UrlLink url={m.canonical} /> : none}</FactRow>
        <FactRow label="Language">{m.lang ?? none}</FactRow>
        <FactRow label="Robots">
          {m.robots || m.x_robots_tag ? [m.robots ? `meta: ${m.robots}` : null, m.x_robots_tag ? `X-Robots-Tag: ${m.x_robots_tag}` : null].filter(Boolean).join(" · ") : none}
          <span className="block text-xs text-slate-500">
            noindex {yesNo(m.noindex, "not set")} · nofollow {yesNo(m.nofollow, "not set")}
          </span>
        </FactRow>
        <FactRow label="Open Graph">
          {og.length ? (
            <ul className="space-y-0.5">
              {og.map(([key, value]) => (
                <li key={key} className="break-words">
                  <span className="text-slate-500">{key}:</span> {value}
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </FactRow>
        <FactRow label="Dates">{dates.length ? dates.join(" · ") : none}</FactRow>
        <FactRow label="Structured data">
          {m.structured_data_blocks ? (
            <>
              {m.structured_data_types.join(", ") || "no @type"}{" "}
              <span className="text-slate-500">
                ({plural(m.structured_data_blocks, "JSON-LD block")}
                {m.structured_data_errors ? `, ${m.structured_data_errors} not parsed` : ""})
              </span>
            </>
          ) : (
            none
          )}
        </FactRow>
        <FactRow label="llms.txt">
          <LlmsTxt probes={m.llms_txt} />
        </FactRow>
        <FactRow label="Markdown version">
          {m.markdown_alternates.length ? (
            <ul className="space-y-0.5">
              {m.markdown_alternates.map((url) => (
                <li key={url}>
                  <UrlLink url={url} />
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </FactRow>
      </dl>
    </Section>
  );
}

const UNANSWERED: ReadonlySet<string> = new Set(AUDIT_UNANSWERED_CODES);
const NOT_FETCHED = "The page could not be fetched: ";

/**
 * An audit whose page gave no HTTP answer: that it could not be fetched, why, whether asking
 * again may help, and (signed in) that nothing was charged. There is no report to show.
 */
function NotFetched({ run, error }: { run: Run; error: NonNullable<Run["error"]> }) {
  const why = error.message.startsWith(NOT_FETCHED) ? error.message.slice(NOT_FETCHED.length) : error.message;
  return (
    <div className="mb-10" data-testid="not-fetched">
      <Notice tone="error">
        <p className="font-semibold">The page could not be fetched, so there is nothing to report on.</p>
        <p className="mt-1 break-words">{capitalised(why)}</p>
        <p className="mt-2 text-xs">
          {run.charge?.status === "released" ? "Nothing was charged. " : ""}
          {error.retryable ? "Auditing it again later may succeed." : "Auditing it again will not help until this changes."}{" "}
          <span className="font-mono">({error.code})</span>
        </p>
      </Notice>
    </div>
  );
}

export function AuditView({ run }: { run: Run }) {
  const url = auditedUrlOf(run);
  const audit = auditOf(run);
  const unanswered = run.status === "failed" && run.error && UNANSWERED.has(run.error.code) ? run.error : null;
  return (
    <>
      <ShareHeading kicker="Page audit: can answer engines reach, read and cite this page?" title={<UrlLink url={url} />}>
        <Facts
          items={[
            ["Date", when(run.completed_at ?? run.created_at)],
            ...(audit
              ? ([
                  ["Fetch", `${words(audit.fetch.status)}${audit.fetch.http_status !== null ? ` · HTTP ${audit.fetch.http_status}` : ""}`],
                  ["Domain", audit.page.domain ?? "—"],
                ] as Array<[string, ReactNode]>)
              : []),
            ...(unanswered ? ([["Fetch", "no HTTP answer"]] as Array<[string, ReactNode]>) : []),
            ...(run.status === "completed" ? [] : ([["Status", <Tag tone={statusTone(run.status)}>{run.status}</Tag>]] as Array<[string, ReactNode]>)),
          ]}
        />
      </ShareHeading>
      {unanswered ? <NotFetched run={run} error={unanswered} /> : run.status === "failed" ? <Failure what="The audit" message={run.error?.message} /> : null}
      {audit ? (
        <>
          <Counts audit={audit} />
          <ByCategory audit={audit} />
          <FetchSection audit={audit} />
          <FindingGroup id="failing" title="Failing" findings={findingsWith(audit, "fail")} description="Most severe first." />
          <FindingGroup id="warnings" title="Warnings" findings={findingsWith(audit, "warn")} />
          <FindingGroup id="errors" title="Could not check" findings={findingsWith(audit, "error")} description="The check itself failed; its result is unknown." />
          <div className="mb-10">
            <FoldedGroup id="passed" title="Passed" findings={audit.findings.filter((f) => f.status === "pass")} note="none of these problems found" />
            <FoldedGroup id="not-applicable" title="Not applicable" findings={audit.findings.filter((f) => f.status === "not_applicable")} note="needs something the audit did not get" />
          </div>
          {audit.content.extraction_method === null ? (
            <NoHtmlSection audit={audit} />
          ) : (
            <>
              <ContentSection audit={audit} />
              <OutlineSection structure={audit.structure} />
              <MetadataSection metadata={audit.metadata} />
            </>
          )}
        </>
      ) : run.status !== "failed" ? (
        <p className="text-slate-600">{capitalised(`this audit is ${run.status}; it has no report yet.`)}</p>
      ) : null}
    </>
  );
}
