// Fidelity of the main-content extraction on the corpus of real-world-shaped pages
// (tests/fixtures/audits/corpus): each page's word count against the main text expected by hand
// (<name>.expected.txt, counted the same way), and its excerpt against the lead marked by hand
// (<name>.excerpt.txt: not the kicker, title, byline, dateline, caption or ad label above it).
// Prints the per-page tables.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analysePage } from "@/lib/audits/analyse";
import { countWords } from "@/lib/audits/analyse/words";

const CORPUS = join(__dirname, "../../../fixtures/audits/corpus");
const TOLERANCE = 0.3;
const REQUIRED_SHARE = 0.85;

type Row = { page: string; method: string | null; expected: number; found: number; ratio: number; ok: boolean; excerpt: string; expectedExcerpt: string };

function measure(): Row[] {
  return readdirSync(CORPUS)
    .filter((file) => file.endsWith(".html"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".html".length);
      const html = readFileSync(join(CORPUS, file), "utf8");
      const expected = countWords(readFileSync(join(CORPUS, `${name}.expected.txt`), "utf8"));
      const { content } = analysePage(html, `https://corpus.example/${name}`, {});
      const ratio = content.word_count / expected;
      const expectedExcerpt = readFileSync(join(CORPUS, `${name}.excerpt.txt`), "utf8").trimEnd();
      return { page: name, method: content.extraction_method, expected, found: content.word_count, ratio, ok: Math.abs(ratio - 1) <= TOLERANCE, excerpt: content.excerpt, expectedExcerpt };
    });
}

describe("main-content fidelity", () => {
  const rows = measure();

  it("has a corpus of at least 20 pages", () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it(`counts within ${TOLERANCE * 100}% of the expected words on at least ${REQUIRED_SHARE * 100}% of pages`, () => {
    const table = rows.map((r) => `${r.page.padEnd(24)} ${String(r.method).padEnd(14)} ${String(r.expected).padStart(6)} ${String(r.found).padStart(6)} ${r.ratio.toFixed(2).padStart(6)}${r.ok ? "" : "  outside"}`);
    console.log(["page                     method         expect  found  ratio", ...table].join("\n"));
    const share = rows.filter((r) => r.ok).length / rows.length;
    expect(share).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });

  it("gives as excerpt the lead each page's author would quote, on every page", () => {
    const misses = rows.filter((r) => r.excerpt !== r.expectedExcerpt);
    console.log(
      [`excerpt: ${rows.length - misses.length} of ${rows.length} pages open with their lead`, ...misses.map((r) => `${r.page}\n  expected: ${r.expectedExcerpt.slice(0, 90)}\n  found:    ${r.excerpt.slice(0, 90)}`)].join("\n"),
    );
    expect(misses.map((r) => r.page)).toEqual([]);
  });
});
