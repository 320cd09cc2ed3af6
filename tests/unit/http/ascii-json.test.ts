// asciiJson (lib/http/respond.ts): the analyses' bodies as ASCII JSON, the same value to a parser.
import { describe, expect, it } from "vitest";
import { asciiJson } from "@/lib/http/respond";

describe("asciiJson", () => {
  const value = {
    summary: "HubSpot is named in 70% of answers (95% interval 68–72%)",
    entities: ["Société Générale", "Ørsted", "株式会社", "emoji 😀 brand"],
    separators: "a\u2028b\u2029c",
    quote: 'He said "hi" \\ there',
    n: 3,
    nested: [{ x: null, y: true }],
  };

  it("writes every character outside ASCII as a \\u escape, a character beyond the BMP as its two surrogates", () => {
    const text = asciiJson(value);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toContain("68\\u201372%");
    expect(text).toContain("Soci\\u00e9t\\u00e9 G\\u00e9n\\u00e9rale");
    expect(text).toContain("emoji \\ud83d\\ude00 brand");
    expect(text).toContain("a\\u2028b\\u2029c");
  });

  it("is the same value to a JSON parser, and JSON.stringify's text where that is ASCII already", () => {
    expect(JSON.parse(asciiJson(value))).toEqual(value);
    const plain = { a: "only ascii", b: [1, 2, { c: 'q"uote' }] };
    expect(asciiJson(plain)).toBe(JSON.stringify(plain));
  });
});
