// Word counting across scripts: UAX #29-shaped tokens for spaced scripts, Intl.Segmenter for the rest.
import { describe, expect, it } from "vitest";
import { countWords } from "@/lib/audits/analyse/words";

describe("countWords", () => {
  it("counts spaced-script words, keeping contractions, decimals and abbreviations whole", () => {
    expect(countWords("Hello, world! It's 3.14 — don't stop")).toBe(6);
    expect(countWords("U.S.A. and e-mail")).toBe(4);
    expect(countWords("Ça va? L’été, c’est ça.")).toBe(5);
    expect(countWords("Привет мир, как дела?")).toBe(4);
    expect(countWords("नमस्ते दुनिया")).toBe(2);
  });

  it("counts nothing in empty, blank or punctuation-only text", () => {
    expect(countWords("")).toBe(0);
    expect(countWords(" \n\t ")).toBe(0);
    expect(countWords("— … · !!! ###")).toBe(0);
  });

  it("segments scripts written without spaces into words, not characters or runs", () => {
    const japanese = countWords("東京都は日本の首都です。");
    expect(japanese).toBeGreaterThan(2);
    expect(japanese).toBeLessThan(10);
    expect(countWords("สวัสดีครับ ยินดีต้อนรับ")).toBeGreaterThanOrEqual(3);
    expect(countWords("我们今天去公园散步")).toBeGreaterThan(2);
  });

  it("mixes scripts in one text", () => {
    expect(countWords("Tokyo 東京 2024")).toBe(3);
  });

  it("stays linear on long text", () => {
    const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20_000);
    // CPU time of this process, not wall time: a busy machine slows the clock, not the work.
    const started = process.cpuUsage();
    expect(countWords(text)).toBe(160_000);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(2_000);
  });
});
