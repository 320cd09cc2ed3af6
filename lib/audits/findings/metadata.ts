// Metadata findings: title, description, language and Open Graph, as read from the page's <head>.
import type { FindingKey } from "./catalog";
import { capitalised, type Check, evidence, fail, notApplicable, pass, quote, text, withAnalysis } from "./check";
import type { PageAnalysis } from "../types";

export const TITLE_LENGTH = { min: 15, max: 65 } as const;
export const DESCRIPTION_LENGTH = { min: 50, max: 160 } as const;

type Field = { read: (analysis: PageAnalysis) => string | null | undefined; label: string; source: string; tag: string };

const TITLE: Field = { read: (a) => a.metadata.title, label: "title", source: "html:<title>", tag: "<title>" };
const DESCRIPTION: Field = { read: (a) => a.metadata.description, label: "meta description", source: 'html:<meta name="description">', tag: '<meta name="description">' };
const LANG: Field = { read: (a) => a.metadata.lang, label: "language", source: "html:<html lang>", tag: "<html lang>" };

function present(field: Field): Check {
  return withAnalysis((analysis) => {
    const value = text(field.read(analysis));
    if (value !== null) return pass(`The page's ${field.label} is ${quote(value)}.`);
    return fail(`The page has no ${field.label} (${field.tag} is missing or empty).`, [
      { summary: `No ${field.tag}`, evidence: [evidence(field.label, field.read(analysis) ?? null, field.source)] },
    ]);
  });
}

/** Counted in code points after whitespace runs are made one space: "café" is 4, an emoji 1. */
const length = (value: string): number => [...value].length;

function lengthWithin(field: Field, bounds: { min: number; max: number }, missingKey: FindingKey): Check {
  return withAnalysis((analysis) => {
    const value = text(field.read(analysis));
    if (value === null) return notApplicable(`The page has no ${field.label} to measure (see ${missingKey}).`);
    const n = length(value);
    if (n >= bounds.min && n <= bounds.max) return pass(`The ${field.label} has ${n} characters, within ${bounds.min} to ${bounds.max}.`);
    const short = n < bounds.min;
    return fail(`The ${field.label} has ${n} characters, ${short ? `under ${bounds.min}` : `over ${bounds.max}`}.`, [
      {
        summary: `${capitalised(field.label)} is ${short ? "too short" : "too long"}: ${n} characters`,
        subtype: short ? "too_short" : "too_long",
        details: { length: n, min: bounds.min, max: bounds.max },
        evidence: [evidence(field.label, value, field.source), evidence("characters", n, field.source)],
      },
    ]);
  });
}

const OPEN_GRAPH_KEYS = ["og:title", "og:description"] as const;

// og:title or og:description is enough to pass: either gives a shared link more than the bare
// <title>; og:image is recommended, not required.
const missingOpenGraph: Check = withAnalysis(({ metadata }) => {
  const og = metadata.open_graph ?? {};
  const filled = Object.keys(og).filter((key) => text(og[key]) !== null);
  const found = OPEN_GRAPH_KEYS.filter((key) => filled.includes(key));
  if (found.length > 0) return pass(`The page has ${found.join(" and ")}${filled.length > found.length ? ` among ${filled.length} Open Graph tags` : ""}.`);
  return fail(`The page has neither og:title nor og:description${filled.length > 0 ? ` (only ${filled.join(", ")})` : ""}.`, [
    {
      summary: "No og:title or og:description",
      details: { open_graph_tags: filled },
      evidence: OPEN_GRAPH_KEYS.map((key) => evidence(key, og[key] ?? null, `html:<meta property="${key}">`)),
    },
  ]);
});

export const metadataChecks = {
  missing_title: present(TITLE),
  title_length: lengthWithin(TITLE, TITLE_LENGTH, "missing_title"),
  missing_description: present(DESCRIPTION),
  description_length: lengthWithin(DESCRIPTION, DESCRIPTION_LENGTH, "missing_description"),
  missing_lang: present(LANG),
  missing_open_graph: missingOpenGraph,
} satisfies Partial<Record<FindingKey, Check>>;
