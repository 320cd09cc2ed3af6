// Content findings: is there main text in the served HTML, enough of it, and how old.
import type { AuditContent } from "@/lib/schemas/audits";
import type { FindingKey } from "./catalog";
import { type Check, evidence, fail, notApplicable, pass, plural, quote, text, withAnalysis } from "./check";

export const THIN_CONTENT_WORDS = 300;
/** Below this, a page whose main content is the whole body (no block stood out) has none to speak of. */
export const MIN_BODY_FALLBACK_WORDS = 100;
export const STALE_AFTER_DAYS = 365;

const DAY_MS = 86_400_000;
const PAGE_DATE = "html:<meta> or json-ld";
const LAST_MODIFIED = "header:last-modified";

/** no_main_content fails exactly when this holds; thin_content then has nothing to measure. */
function mainContentMissing(content: AuditContent): boolean {
  return content.word_count === 0 || content.extraction_method === null || (content.extraction_method === "body" && content.word_count < MIN_BODY_FALLBACK_WORDS);
}

const likelyJsDependent: Check = withAnalysis(({ content }) => {
  if (content.likely_js_dependent === null) return notApplicable("The audit could not tell whether the page needs JavaScript.");
  if (!content.likely_js_dependent) return pass(`The served HTML carries the content itself (${plural(content.word_count, "word")} of main content).`);
  return fail(`The served HTML looks like a JavaScript app shell, with ${plural(content.word_count, "word")} of main content before any script runs.`, [
    {
      summary: "Content appears only after JavaScript runs",
      details: { rendering_signals: content.rendering_signals, word_count: content.word_count },
      evidence: [
        evidence("words in the main content", content.word_count, "html"),
        ...Object.entries(content.rendering_signals).map(([signal, value]) => evidence(signal, value, "html")),
      ],
    },
  ]);
});

const noMainContent: Check = withAnalysis(({ content }) => {
  const method = content.extraction_method;
  if (!mainContentMissing(content)) return pass(`Main content was found (${method}, ${plural(content.word_count, "word")}).`);
  const reason =
    content.word_count === 0 || method === null
      ? "No main text was found in the served HTML (0 words)."
      : `No main content block was found, and the whole page body holds only ${plural(content.word_count, "word")} (under ${MIN_BODY_FALLBACK_WORDS}).`;
  return fail(reason, [
    {
      summary: content.word_count === 0 ? "No main text in the HTML" : `Only ${plural(content.word_count, "word")} in the page body`,
      subtype: method,
      details: { extraction_method: method, word_count: content.word_count },
      evidence: [evidence("extraction method", method, "html"), evidence("words in the main content", content.word_count, "html")],
    },
  ]);
});

const thinContent: Check = withAnalysis(({ content }) => {
  if (mainContentMissing(content)) return notApplicable("No main content was found to measure (see no_main_content).");
  if (content.word_count >= THIN_CONTENT_WORDS) return pass(`The main content has ${plural(content.word_count, "word")}.`);
  return fail(`The main content has ${plural(content.word_count, "word")}, under ${THIN_CONTENT_WORDS}.`, [
    { summary: `${plural(content.word_count, "word")} of main content`, details: { word_count: content.word_count }, evidence: [evidence("words in the main content", content.word_count, "html")] },
  ]);
});

type DateKind = "modified" | "published" | "last_modified_header";

const DATE_WORDS: Record<DateKind, string> = { modified: "modified date", published: "published date", last_modified_header: "Last-Modified header" };
const DATE_SOURCES: Record<DateKind, string> = { modified: PAGE_DATE, published: PAGE_DATE, last_modified_header: LAST_MODIFIED };

/** In the order stale_content trusts them: the page's own modified date, then its published date, then the server's. */
const DATE_KINDS: DateKind[] = ["modified", "published", "last_modified_header"];

function datesOf(metadata: { dates?: Partial<Record<DateKind, string | null>> }): { kind: DateKind; value: string }[] {
  return DATE_KINDS.flatMap((kind) => {
    const value = text(metadata.dates?.[kind]);
    return value === null ? [] : [{ kind, value }];
  });
}

/** ISO 8601 and HTTP dates; a string without a four-digit year is not read (Date.parse("3") is 2003). */
function parseDate(value: string): Date | null {
  if (!/\d{4}/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const noDates: Check = withAnalysis(({ metadata }) => {
  const dates = datesOf(metadata);
  if (dates.length > 0) return pass(`The page has a date: ${dates.map(({ kind, value }) => `${DATE_WORDS[kind]} ${value}`).join(", ")}.`);
  return fail("The page states no published or modified date, and the server sent no Last-Modified header.", [
    { summary: "No date found", evidence: DATE_KINDS.map((kind) => evidence(DATE_WORDS[kind], null, DATE_SOURCES[kind])) },
  ]);
});

const staleContent: Check = withAnalysis(({ metadata }, { now }) => {
  const newest = datesOf(metadata)[0];
  if (newest === undefined) return notApplicable("The page has no date to judge its age by (see no_dates).");
  const date = parseDate(newest.value);
  const label = DATE_WORDS[newest.kind];
  if (date === null) return notApplicable(`The ${label} ${quote(newest.value)} could not be read as a date.`);
  const days = Math.floor((now.getTime() - date.getTime()) / DAY_MS);
  const age = days < 0 ? "after the audit ran" : `${plural(days, "day")} before the audit`;
  if (days <= STALE_AFTER_DAYS) return pass(`The ${label} is ${newest.value}, ${age}.`);
  return fail(`The ${label} is ${newest.value}, ${age} (over ${STALE_AFTER_DAYS}).`, [
    { summary: `Last changed ${plural(days, "day")} ago`, subtype: newest.kind, details: { date: newest.value, age_days: days }, evidence: [evidence(label, newest.value, DATE_SOURCES[newest.kind])] },
  ]);
});

export const contentChecks = {
  likely_js_dependent: likelyJsDependent,
  no_main_content: noMainContent,
  thin_content: thinContent,
  no_dates: noDates,
  stale_content: staleContent,
} satisfies Partial<Record<FindingKey, Check>>;
