// AI-access findings: the files some AI tools look for beside the page (llms.txt, a markdown copy).
import type { LlmsTxtProbe } from "@/lib/schemas/audits";
import type { FindingKey } from "./catalog";
import { type Check, evidence, fail, type ItemDraft, notApplicable, pass, plural, warn, withAnalysis } from "./check";

const MARKDOWN_LINK = 'html:<link rel="alternate" type="text/markdown">';

function probeAnswer(probe: LlmsTxtProbe): string {
  if (probe.http_status === null) return "did not answer";
  if (probe.http_status === 200) return "answered 200 with an HTML page, not a text file";
  return `answered ${probe.http_status}`;
}

// Info-level: a missing llms.txt is a suggestion, so it warns rather than fails.
const llmsTxtMissing: Check = ({ probes: { llmsTxt } }) => {
  const found = llmsTxt.filter((probe) => probe.found);
  if (found.length > 0) return pass(`${found.map((probe) => `/${probe.kind}`).join(" and ")} found at ${found.map((probe) => probe.url).join(" and ")}.`);
  if (llmsTxt.every((probe) => probe.http_status === null)) {
    return notApplicable(llmsTxt.length === 0 ? "/llms.txt was not probed." : "The site did not answer the /llms.txt probes.");
  }
  return warn(
    `${llmsTxt.map((probe) => `/${probe.kind} ${probeAnswer(probe)}`).join(" and ")}.`,
    llmsTxt.map((probe) => ({
      summary: `/${probe.kind} ${probeAnswer(probe)}`,
      subtype: probe.kind,
      details: { url: probe.url, http_status: probe.http_status },
      evidence: [evidence("URL", probe.url, probe.kind), evidence("HTTP status", probe.http_status, probe.kind)],
    })),
  );
};

// Only /llms.txt is an index that should link pages; /llms-full.txt is the content itself. The
// proposal's "# Title" first line is not checked: the probe keeps the link count, not the text.
const llmsTxtInvalid: Check = ({ probes: { llmsTxt } }) => {
  const index = llmsTxt.find((probe) => probe.kind === "llms.txt" && probe.found);
  if (index === undefined) return notApplicable("There is no /llms.txt to check (see llms_txt_missing).");
  if (index.links > 0) return pass(`/llms.txt lists ${plural(index.links, "markdown link")}.`);
  return fail("/llms.txt has no markdown links.", [
    { summary: "/llms.txt lists no links", subtype: "no_links", details: { url: index.url, links: 0 }, evidence: [evidence("URL", index.url, "llms.txt"), evidence("markdown links", 0, "llms.txt")] },
  ]);
};

const noMarkdownAlternate: Check = (observation) => {
  const alternates = observation.probes.markdownAlternates;
  if (alternates.length > 0) return pass(`A markdown version answers at ${alternates.join(" and ")}.`);
  return withAnalysis(({ markdownLinks }, { fetched: { page } }) => {
    const unanswered = markdownLinks.filter((link) => !alternates.includes(link));
    if (unanswered.length > 0) {
      return warn(
        `The page links ${plural(unanswered.length, "markdown version")}, but none answered with markdown.`,
        unanswered.map<ItemDraft>((link) => ({
          summary: `Linked markdown version does not answer: ${link}`,
          subtype: "link_not_answering",
          details: { url: link },
          evidence: [evidence("markdown link", link, MARKDOWN_LINK)],
        })),
      );
    }
    return warn("The page links no markdown version, and its address with .md appended did not answer with markdown.", [
      {
        summary: "No markdown version linked or at the page's address + .md",
        subtype: "none",
        details: { page: page.final_url },
        evidence: [evidence("markdown links", 0, MARKDOWN_LINK), evidence("page address", page.final_url, "fetch")],
      },
    ]);
  })(observation);
};

export const aiAccessChecks = {
  llms_txt_missing: llmsTxtMissing,
  llms_txt_invalid: llmsTxtInvalid,
  no_markdown_alternate: noMarkdownAlternate,
} satisfies Partial<Record<FindingKey, Check>>;
