// The fanout queries CSV: RFC 4180 quoting, the formula guard, the header and one line per query.
import { describe, expect, it } from "vitest";
import { csvCell, csvOf, FANOUT_QUERY_COLUMNS, fanoutQueriesCsv } from "@/app/(research)/_lib/csv";

describe("csvCell", () => {
  it("leaves plain text and numbers alone", () => {
    expect(csvCell("best crm 2026")).toBe("best crm 2026");
    expect(csvCell(3)).toBe("3");
    expect(csvCell(0.6667)).toBe("0.6667");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("")).toBe("");
  });

  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell('the "best" crm')).toBe('"the ""best"" crm"');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
  });

  it("puts an apostrophe before text a spreadsheet would run as a formula", () => {
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1 crm")).toBe("'+1 crm");
    expect(csvCell("-cheap crm")).toBe("'-cheap crm");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe("\"'\rx\"");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("writes numbers as numbers, never guarded", () => {
    expect(csvCell(-1)).toBe("-1");
  });
});

describe("csvOf", () => {
  it("ends every line with CRLF, header first", () => {
    expect(csvOf(["a", "b"], [[1, "x,y"], [2, null]])).toBe('a,b\r\n1,"x,y"\r\n2,\r\n');
  });
});

describe("fanoutQueriesCsv", () => {
  const report = {
    fanout_id: "fo_01JZ0000000000000000000000",
    status: "completed" as const,
    groups: [
      {
        prompt_index: 1,
        prompt: 'Which CRM, "really", is best?',
        engine: "chatgpt" as const,
        completed_runs: 3,
        queries: [
          { query: "best crm", runs: 3, occurrences: 4, share: 1, share_interval: [0.4385, 1] as [number, number] },
          { query: "=cmd|' /C calc'!A0", runs: 1, occurrences: 1, share: 0.3333, share_interval: [0.0615, 0.7923] as [number, number] },
        ],
      },
      { prompt_index: 1, prompt: 'Which CRM, "really", is best?', engine: "claude" as const, completed_runs: 3, queries: [] },
      {
        prompt_index: 2,
        prompt: "crm pricing",
        engine: "chatgpt" as const,
        completed_runs: 2,
        queries: [{ query: "crm pricing 2026", runs: 2, occurrences: 2, share: 1, share_interval: [0.3424, 1] as [number, number] }],
      },
    ],
    by_country: [],
  };

  it("has the header and one line per prompt × engine × query, quoted and guarded, with each prompt's market", () => {
    const csv = fanoutQueriesCsv(report, new Map([[2, "fa_01JZ0000000000000000000001:q3"]]), new Map([[2, { country: "DE", language: "de" }]]));
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(FANOUT_QUERY_COLUMNS.join(","));
    expect(lines[0]).toBe("prompt_index,prompt,engine,query,runs,completed_runs,share,share_low,share_high,occurrences,prompt_source,country,language,fanout_id");
    expect(lines[1]).toBe('1,"Which CRM, ""really"", is best?",chatgpt,best crm,3,3,100%,43%,100%,4,,,,fo_01JZ0000000000000000000000');
    expect(lines[2]).toBe('1,"Which CRM, ""really"", is best?",chatgpt,\'=cmd|\' /C calc\'!A0,1,3,33%,6.1%,80%,1,,,,fo_01JZ0000000000000000000000');
    expect(lines[3]).toBe("2,crm pricing,chatgpt,crm pricing 2026,2,2,100%,34%,100%,2,fa_01JZ0000000000000000000001:q3,DE,de,fo_01JZ0000000000000000000000");
    expect(lines[4]).toBe("");
    expect(lines).toHaveLength(5);
  });

  it("is only the header when nothing was searched", () => {
    expect(fanoutQueriesCsv({ ...report, groups: [] })).toBe(`${FANOUT_QUERY_COLUMNS.join(",")}\r\n`);
  });
});
