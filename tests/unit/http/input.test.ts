// The shared input parsing (lib/http/input.ts): strings no stored text may hold, at any depth and in
// field names; queries whose escapes are not UTF-8; ids in the path that hold NUL.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { parseBody, parseInput, parseParams, parseQuery, unstorableStrings } from "@/lib/http/input";
import { idOf } from "@/lib/schemas/common";
import { BudgetInput } from "@/lib/schemas/monitors";
import { ProjectCreateRequest } from "@/lib/schemas/projects";

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("was accepted");
}

describe("unstorableStrings", () => {
  it("finds NUL and unpaired surrogates anywhere, naming each field, and passes pairs and other text", () => {
    const value = { a: "ok \u{1F680} \t", b: ["x", "y\u0000"], c: { d: "\ud800", e: "\udc00z", f: "\ud83d\ude80" }, g: 1, h: null };
    expect(unstorableStrings(value, "request body")).toEqual([
      "b[1]: must not contain NUL (U+0000)",
      "c.d: must not contain an unpaired surrogate (half of a UTF-16 pair)",
      "c.e: must not contain an unpaired surrogate (half of a UTF-16 pair)",
    ]);
    expect(unstorableStrings("\u0000", "form")).toEqual(["form: must not contain NUL (U+0000)"]);
    expect(unstorableStrings({ "a\u0000": 1 }, "form")).toEqual(["form: field names must not contain NUL (U+0000)"]);
  });

  it("walks half a million levels of nesting without recursion, and shortens the path it names", () => {
    let deep: unknown = "bad\u0000";
    for (let i = 0; i < 500_000; i++) deep = [deep];
    const [problem, ...rest] = unstorableStrings({ x: deep }, "request body");
    expect(rest).toEqual([]);
    expect(problem).toMatch(/^x\[0\]\[0\]\[0\].*…: must not contain NUL \(U\+0000\)$/);
    expect(problem!.length).toBeLessThan(300);
  });

  it("names a field called __proto__, at any depth: a map parsed from the body would drop it unseen", () => {
    const value = JSON.parse('{"context":{"competitor_domains":{"__proto__":["x.com"],"Zoho":["zoho.com"]}},"list":[{"__proto__":1}]}');
    expect(unstorableStrings(value, "request body")).toEqual([
      'context.competitor_domains.__proto__: "__proto__" may not name a field (it would be dropped, not stored)',
      'list[0].__proto__: "__proto__" may not name a field (it would be dropped, not stored)',
    ]);
  });

  it("reports at most ten", () => {
    expect(unstorableStrings(Array.from({ length: 50 }, () => "\u0000"), "q")).toHaveLength(10);
  });
});

describe("parseBody and parseInput", () => {
  const schema = z.strictObject({ name: z.string(), tags: z.array(z.string()).optional() });

  it("refuses unstorable strings as invalid_request before the schema is asked", () => {
    expect(refusal(() => parseBody(schema, { name: "a\u0000b", extra: 1 }))).toEqual({
      code: "invalid_request",
      message: "name: must not contain NUL (U+0000)",
    });
    expect(refusal(() => parseInput(schema, { name: "ok", tags: ["\ud800"] }, "form")).message).toBe(
      "tags[0]: must not contain an unpaired surrogate (half of a UTF-16 pair)",
    );
    expect(parseInput(schema, { name: "ok 🚀" }, "form")).toEqual({ name: "ok 🚀" });
  });
});

describe("parseParams", () => {
  it("answers an id holding NUL as a missing object, like any malformed id", () => {
    const params = z.object({ project_id: idOf("pr") });
    expect(refusal(() => parseParams(params, { project_id: "pr_\u0000" }))).toEqual({ code: "not_found", message: 'No such project "pr_\\u0000".' });
  });
});

describe("parseQuery", () => {
  const query = z.object({ q: z.string().optional() });
  const read = (search: string) => parseQuery(query, new URL(`http://localhost/x${search}`));

  it("refuses escapes that are not UTF-8, keeps a % that starts no escape, and decodes the rest", () => {
    for (const bad of ["?q=%C3%28", "?q=%FF", "?q=%ED%A0%80", "?q=a%E2%82"]) {
      expect(refusal(() => read(bad)).message, bad).toBe("query: is not valid UTF-8 (a percent-escape encodes bytes that are not UTF-8 text)");
    }
    expect(read("?q=caf%C3%A9+%F0%9F%9A%80")).toEqual({ q: "café 🚀" });
    expect(read("?q=100%ZZ")).toEqual({ q: "100%ZZ" });
    expect(refusal(() => read("?q=%00")).message).toBe("q: must not contain NUL (U+0000)");
  });
});

describe("parseInput's message", () => {
  it("says each field's complaint once (a budget failing its pattern and its range alike), and every bad item of a list", () => {
    const budget = refusal(() => parseInput(z.object({ monthly_budget_usd: BudgetInput }), { monthly_budget_usd: "lots" }, "form")).message;
    expect(budget).toMatch(/^monthly_budget_usd: must be an amount in USD [^;]*$/);
    const competitors = refusal(() => parseInput(ProjectCreateRequest, { name: "Acme", context: { competitors: ["HubSpot", " ", "x".repeat(300)] } }, "form")).message;
    expect(competitors).toBe("context.competitors[1]: must be 1 to 100 characters after trimming spaces; context.competitors[2]: must be 1 to 100 characters after trimming spaces");
  });
});
