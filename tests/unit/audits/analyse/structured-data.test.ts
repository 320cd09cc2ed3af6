// JSON-LD blocks: count, parse errors, top-level @types, author or publisher, dates.
import { describe, expect, it } from "vitest";
import { readStructuredData, unwrapJsonLd } from "@/lib/audits/analyse/structured-data";
import { page } from "./helpers";

const ld = (json: string, type = "application/ld+json") => `<script type="${type}">${json}</script>`;
const sd = (html: string) => readStructuredData(page(html));

describe("blocks and errors", () => {
  it("counts JSON-LD blocks (type parameters and case allowed) and no other scripts", () => {
    const r = sd(ld('{"@type":"Article"}') + ld('{"@type":"Person"}', "Application/LD+JSON; charset=utf-8") + ld('{"@type":"X"}', "application/json") + "<script>var a</script>");
    expect(r).toMatchObject({ blocks: 2, errors: 0, types: ["Article", "Person"] });
  });

  it("counts a block that is not strict JSON as an error (trailing comma, empty, truncated)", () => {
    expect(sd(ld('{"@type":"Article",}') + ld("  ") + ld('{"@type":') + ld('{"@type":"Ok"}'))).toMatchObject({ blocks: 4, errors: 3, types: ["Ok"] });
  });

  it("strips an HTML comment or CDATA wrapper first", () => {
    expect(unwrapJsonLd('<!-- {"a":1} -->')).toBe('{"a":1}');
    expect(unwrapJsonLd('//<![CDATA[\n{"a":1}\n//]]>')).toBe('{"a":1}');
    expect(unwrapJsonLd('<!--//<![CDATA[\n{"a":1}\n//]]>-->')).toBe('{"a":1}');
    expect(sd(ld('<!-- {"@type":"WebSite"} -->'))).toMatchObject({ errors: 0, types: ["WebSite"] });
  });

  it("is empty without JSON-LD", () => {
    expect(sd("<p>x</p>")).toEqual({ blocks: 0, errors: 0, types: [], hasAuthorOrPublisher: false, datePublished: null, dateModified: null });
  });
});

describe("types", () => {
  it("flattens arrays and @graph, keeps order, lists each once, and not nested values' types", () => {
    const r = sd(
      ld('[{"@type":"Organization"},{"@type":["WebPage","ItemPage"]}]') +
        ld('{"@context":"https://schema.org","@graph":[{"@type":"Article","author":{"@type":"Person"}},{"@graph":[{"@type":"BreadcrumbList"}]},{"@type":"WebPage"}]}'),
    );
    expect(r.types).toEqual(["Organization", "WebPage", "ItemPage", "Article", "BreadcrumbList"]);
  });
});

describe("author or publisher", () => {
  it("finds an author or publisher at any depth", () => {
    expect(sd(ld('{"@type":"Article","author":"Ann"}')).hasAuthorOrPublisher).toBe(true);
    expect(sd(ld('{"@graph":[{"@type":"WebPage","mainEntity":{"@type":"Article","publisher":{"@id":"#org"}}}]}')).hasAuthorOrPublisher).toBe(true);
    expect(sd(ld('{"@type":"Article","author":[{"@type":"Person","name":"B"}]}')).hasAuthorOrPublisher).toBe(true);
  });

  it("does not count an empty one, or one outside JSON-LD", () => {
    expect(sd(ld('{"@type":"Article","author":"","publisher":{}}')).hasAuthorOrPublisher).toBe(false);
    expect(sd(ld('{"@type":"Article","author":[]}')).hasAuthorOrPublisher).toBe(false);
    expect(sd('<meta name="author" content="Ann"><a rel="author" href="/ann">Ann</a>').hasAuthorOrPublisher).toBe(false);
  });
});

describe("dates", () => {
  it("takes the first datePublished and dateModified at any depth, as written", () => {
    const r = sd(ld('{"@graph":[{"@type":"WebPage"},{"@type":"Article","datePublished":"2024-01-02T03:04:05Z","dateModified":{"@value":"2024-02-01"}}]}') + ld('{"datePublished":"1999"}'));
    expect(r).toMatchObject({ datePublished: "2024-01-02T03:04:05Z", dateModified: "2024-02-01" });
  });
});
