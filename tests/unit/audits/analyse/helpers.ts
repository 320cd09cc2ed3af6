// Small builders for the analyser tests: a page from body HTML, and paragraphs of filler prose.
import { parsePage, type ParsedPage } from "@/lib/audits/analyse/dom";

export const PAGE_URL = "https://www.example.com/blog/post";

export function page(html: string, url = PAGE_URL): ParsedPage {
  return parsePage(html, url);
}

const SENTENCES = [
  "The committee met on Tuesday to discuss the proposal, which had been delayed twice since spring.",
  "Residents said the new timetable would make it easier to reach the hospital, the college and the station.",
  "Engineers expect the work to take about eighteen months, although the weather could slow things down.",
  "A public meeting will be held next month, and written comments can be sent until the end of June.",
];

/** `n` paragraphs of realistic prose (69 words each), tagged with `tag`. */
export function prose(n: number, tag = "p"): string {
  return Array.from({ length: n }, (_, i) => `<${tag}>${SENTENCES.map((s, j) => SENTENCES[(i + j) % 4] ?? s).join(" ")}</${tag}>`).join("\n");
}

/** Words in `prose(1)`. */
export const WORDS_PER_PARAGRAPH = 69;
