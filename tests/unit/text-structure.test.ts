// An answer's structure as kept (lib/visibility/text-structure.ts): what a later analysis reads
// back must be exactly what reading the answer finds (sentences, words, list items, link spans,
// prose domains), and anything that is not a kept structure of that answer is refused, so that
// the analysis reads the answer itself.
import { describe, expect, it } from "vitest";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import type { EngineId } from "@/lib/engines/types";
import { readLinks, type LinkReading } from "@/lib/visibility/links";
import { toNfc } from "@/lib/visibility/nfc";
import { analyseText, SentenceBuffer, type TextStructure } from "@/lib/visibility/text";
import { decodeStructure, encodeStructure } from "@/lib/visibility/text-structure";
import { buildRuns } from "../../bench/lib/visibility-answers";
import { envelopeOf, fixture } from "./engines/envelope";

/** What reading finds, as plain values: each sentence's text, words and list item; each span's text and label; each domain. */
function readable(text: string, s: TextStructure, links: LinkReading) {
  return {
    sentences: Array.from({ length: s.count }, (_, i) => [text.slice(s.starts[i], s.ends[i]), s.words[i], s.listRanks[i]]),
    totalWords: s.totalWords,
    spans: Array.from({ length: links.spans.count }, (_, k) => [text.slice(links.spans.start[k], links.spans.end[k]), text.slice(links.spans.labelStart[k], links.spans.labelEnd[k])]),
    domains: Array.from({ length: links.domains.count }, (_, d) => [text.slice(links.domains.start[d], links.domains.end[d]), links.domains.host[d]]),
  };
}

function read(answer: string) {
  const text = toNfc(answer).text;
  const links = readLinks(text);
  return { text, links, structure: analyseText(text, links.spans) };
}

const ENGINE_ANSWERS: [EngineId, string][] = [
  ["chatgpt", "chatgpt/crm-inline-links.json"],
  ["chatgpt", "chatgpt/multi-search.json"],
  ["claude", "claude/crm-cited-blocks.json"],
  ["gemini", "gemini/crm-grounding-supports.json"],
  ["gemini", "gemini/non-ascii.json"],
];

const WRITTEN = [
  "",
  "One line without a stop",
  "Acme Inc. costs 3.5 dollars, e.g. on acme.com. Really? Yes!\nNext line",
  "Intro.\n\n1. First, see [HubSpot](https://hubspot.com/pricing)\n   - a detail: <https://zoho.com/crm>\n   more on it\n\n3. Second\n* Another list\n* Its second, mail sales@acme.io\nAfter: pipedrive.com lists prices.",
  "日本語の文です。二つ目！ HubSpot は人気です？ 최고의 CRM은 무엇입니까.",
  "Cafe\u0301 au lait at cafe\u0301.fr — “quoted HubSpot” [ref]: https://example.com/x\n[label][ref] and ![alt](https://img.example/a.png)",
];

describe("an answer's structure kept", () => {
  it("reads back exactly what reading the answer finds, for the bench's answers, the providers' and hand-written ones", () => {
    const answers = [...buildRuns(300).map((r) => r.answer ?? ""), ...WRITTEN];
    for (const [engine, file] of ENGINE_ANSWERS) answers.push(normalizeEnvelope(envelopeOf(engine, [fixture(file)])).result.answer);
    const buffer = new SentenceBuffer();
    let withLinks = 0;
    for (const answer of answers) {
      const { text, links, structure } = read(answer);
      const bytes = encodeStructure(structure, links);
      expect(bytes).not.toBeNull();
      const kept = decodeStructure(bytes!, text, buffer);
      expect(readable(text, kept.structure, kept.links)).toEqual(readable(text, structure, links));
      if (links.spans.count > 0 && links.domains.count > 0) withLinks++;
    }
    // The answers read include links and prose domains, not only plain prose.
    expect(withLinks).toBeGreaterThan(0);
  });

  it("takes a few bytes a sentence: under a fifth of a 2 KB answer", () => {
    const sizes = buildRuns(200).map((r) => {
      const { structure, links } = read(r.answer ?? "");
      return encodeStructure(structure, links)!.length / Buffer.byteLength(r.answer ?? "");
    });
    expect(Math.max(...sizes)).toBeLessThan(0.2);
  });

  it("refuses bytes that are not a kept structure of that answer: cut short, longer, of another layout, reaching past it, or counting more than they hold", () => {
    const { text, links, structure } = read(WRITTEN[3]!);
    const bytes = encodeStructure(structure, links)!;
    const buffer = new SentenceBuffer();
    expect(() => decodeStructure(bytes.subarray(0, bytes.length - 1), text, buffer)).toThrow(/ends early/);
    expect(() => decodeStructure(Buffer.concat([bytes, Buffer.from([0])]), text, buffer)).toThrow(/after its end/);
    const otherLayout = Buffer.from(bytes);
    otherLayout[0] = 2;
    expect(() => decodeStructure(otherLayout, text, buffer)).toThrow(/another layout/);
    expect(() => decodeStructure(bytes, text.slice(0, 40), buffer)).toThrow(/past its answer/);
    // A count far beyond the bytes that follow (here 2^28 sentences) is refused before anything is made for it.
    expect(() => decodeStructure(Buffer.from([1, 0x80, 0x80, 0x80, 0x80, 0x01, 0]), text, buffer)).toThrow(/counts more than it holds/);
  });
});
