// Stage 2 of a page audit (lib/audits/types.ts): the HTML parsed once and read by small pure
// analysers into PageAnalysis.
import type { PageAnalysis } from "../types";
import { parsePage } from "./dom";
import { analyseHeadings, pageH1Count } from "./headings";
import { countLinks } from "./links";
import { contentFigures, extractMainContent } from "./main-content";
import { markdownLinks } from "./markdown-links";
import { readMetadata } from "./metadata";
import { isLikelyJsDependent, readRenderingSignals } from "./rendering";
import { readStructuredData } from "./structured-data";

export function analysePage(html: string, pageUrl: string, headers: Record<string, string>): PageAnalysis {
  const page = parsePage(html, pageUrl);
  const main = extractMainContent(page);
  const structured = readStructuredData(page);
  const signals = readRenderingSignals(page);
  const metadata = readMetadata(page, headers, structured);
  return {
    content: {
      // Without a lead in the main content, the excerpt is what the page says it is about.
      ...contentFigures(main, metadata.description ?? metadata.open_graph["og:description"] ?? null),
      likely_js_dependent: isLikelyJsDependent(signals),
      links: countLinks(page, main),
      rendering_signals: signals,
    },
    structure: analyseHeadings(main),
    metadata: {
      ...metadata,
      structured_data_types: structured.types,
      structured_data_blocks: structured.blocks,
      structured_data_errors: structured.errors,
    },
    pageH1Count: pageH1Count(page),
    markdownLinks: markdownLinks(page),
    hasAuthorOrPublisher: structured.hasAuthorOrPublisher,
  };
}
