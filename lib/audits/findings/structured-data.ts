// Structured-data findings: the page's JSON-LD (microdata and RDFa are not read).
import type { FindingKey } from "./catalog";
import { type Check, evidence, fail, notApplicable, pass, plural, withAnalysis } from "./check";
import type { PageAnalysis } from "../types";

const JSON_LD = "json-ld";

function jsonLd({ metadata }: PageAnalysis) {
  return { types: metadata.structured_data_types ?? [], blocks: metadata.structured_data_blocks ?? 0, errors: metadata.structured_data_errors ?? 0 };
}

// A block that parses but names no @type says nothing an engine can use, so types decide.
const noStructuredData: Check = withAnalysis((analysis) => {
  const { types, blocks, errors } = jsonLd(analysis);
  if (types.length > 0) return pass(`The page's JSON-LD describes it as ${types.join(", ")}.`);
  const reason =
    blocks === 0 && errors === 0
      ? "The page has no JSON-LD structured data."
      : `None of the page's JSON-LD gives a schema.org type (${plural(blocks, "block")}, ${errors} that ${errors === 1 ? "does" : "do"} not parse).`;
  return fail(reason, [
    {
      summary: blocks === 0 && errors === 0 ? "No JSON-LD on the page" : "No usable JSON-LD type",
      details: { blocks, errors },
      evidence: [evidence("JSON-LD blocks", blocks, JSON_LD), evidence("schema.org types", types, JSON_LD)],
    },
  ]);
});

// Only the count of broken blocks is known, so each item stands for one of them.
const structuredDataErrors: Check = withAnalysis((analysis) => {
  const { blocks, errors } = jsonLd(analysis);
  if (errors === 0) return blocks === 0 ? notApplicable("The page has no JSON-LD to check.") : pass(`All ${plural(blocks, "JSON-LD block")} parse.`);
  return fail(
    `${plural(errors, "JSON-LD block")} on the page ${errors === 1 ? "does" : "do"} not parse as JSON.`,
    Array.from({ length: errors }, (_, i) => ({
      summary: `JSON-LD block that does not parse (${i + 1} of ${errors})`,
      subtype: "parse_error",
      details: { broken_block: i + 1, broken_blocks: errors },
      evidence: [evidence("JSON-LD blocks that do not parse", errors, JSON_LD)],
    })),
  );
});

const noAuthorOrPublisher: Check = withAnalysis((analysis) => {
  if (analysis.hasAuthorOrPublisher) return pass("The page's JSON-LD names an author or a publisher.");
  const { blocks } = jsonLd(analysis);
  return fail(blocks === 0 ? "The page has no JSON-LD, so it names no author or publisher there." : "The page's JSON-LD names neither an author nor a publisher.", [
    { summary: "No author or publisher in JSON-LD", details: { blocks }, evidence: [evidence("author or publisher", null, JSON_LD)] },
  ]);
});

export const structuredDataChecks = {
  no_structured_data: noStructuredData,
  structured_data_errors: structuredDataErrors,
  no_author_or_publisher: noAuthorOrPublisher,
} satisfies Partial<Record<FindingKey, Check>>;
