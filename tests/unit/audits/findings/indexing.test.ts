import { describe, expect, it } from "vitest";
import { finding, observation, PAGE_URL, withoutHtml } from "./observation";

const notFound = withoutHtml({ status: "client_error", http_status: 404 });
const withCanonical = (canonical: string | null) => observation({ analysis: { metadata: { canonical } } });

describe("noindex", () => {
  it("passes when nothing says noindex", () => {
    expect(finding(observation(), "noindex")).toMatchObject({ status: "pass", items: [] });
  });

  it("fails with one item per place that says it", () => {
    const both = finding(observation({ analysis: { metadata: { robots: "noindex, follow", x_robots_tag: "googlebot: noindex", noindex: true } } }), "noindex");
    expect(both).toMatchObject({ status: "fail", severity: "critical", reason: "The robots meta tag and the X-Robots-Tag header say noindex." });
    expect(both.items.map((item) => item.evidence)).toEqual([
      [{ label: "robots meta tag", value: "noindex, follow", source: 'html:<meta name="robots">' }],
      [{ label: "X-Robots-Tag header", value: "googlebot: noindex", source: "header:x-robots-tag" }],
    ]);
    const header = finding(observation({ analysis: { metadata: { x_robots_tag: "none", noindex: true } } }), "noindex");
    expect(header).toMatchObject({ status: "fail", reason: "The X-Robots-Tag header says noindex.", items: [{ subtype: "x_robots_tag" }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(notFound, "noindex")).toMatchObject({ status: "not_applicable", reason: "The page was not fetched as HTML: client_error 404." });
  });
});

describe("nofollow", () => {
  it("passes when nothing says nofollow", () => {
    expect(finding(observation({ analysis: { metadata: { robots: "noindex", noindex: true } } }), "nofollow").status).toBe("pass");
  });

  it("fails on a page-wide nofollow", () => {
    const f = finding(observation({ analysis: { metadata: { robots: "index, nofollow", nofollow: true } } }), "nofollow");
    expect(f).toMatchObject({ status: "fail", severity: "low", reason: "The robots meta tag says nofollow.", items: [{ subtype: "meta_robots", severity: "low" }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(notFound, "nofollow").status).toBe("not_applicable");
  });
});

describe("canonical_missing", () => {
  it("passes with a canonical", () => {
    expect(finding(observation(), "canonical_missing").status).toBe("pass");
  });

  it("fails without one, or with an empty one", () => {
    for (const canonical of [null, "  "]) {
      const f = finding(withCanonical(canonical), "canonical_missing");
      expect(f).toMatchObject({ status: "fail", items: [{ evidence: [{ label: "canonical", source: 'html:<link rel="canonical">' }] }] });
    }
  });

  it("is not applicable without HTML", () => {
    expect(finding(notFound, "canonical_missing").status).toBe("not_applicable");
  });
});

describe("canonical_elsewhere", () => {
  it("passes when the canonical is the page's address, up to scheme and host case, default port and fragment", () => {
    expect(finding(observation(), "canonical_elsewhere").status).toBe("pass");
    expect(finding(withCanonical("HTTPS://WWW.Acme.Example:443/blog/choosing-a-crm/#top"), "canonical_elsewhere").status).toBe("pass");
  });

  it("fails when it names another page, keeping the query", () => {
    const other = finding(withCanonical("https://www.acme.example/blog/crm-guide/"), "canonical_elsewhere");
    expect(other).toMatchObject({ status: "fail", items: [{ subtype: "same_host" }] });
    expect(other.items[0]?.evidence).toEqual([
      { label: "canonical", value: "https://www.acme.example/blog/crm-guide/", source: 'html:<link rel="canonical">' },
      { label: "page address (after redirects)", value: PAGE_URL, source: "fetch" },
    ]);
    expect(finding(withCanonical("https://partner.example/crm"), "canonical_elsewhere").items[0]?.subtype).toBe("other_host");
    expect(finding(withCanonical(`${PAGE_URL}?page=2`), "canonical_elsewhere").status).toBe("fail");
  });

  it("warns when it differs only by a trailing slash, the scheme or www.", () => {
    const slash = finding(withCanonical("https://www.acme.example/blog/choosing-a-crm"), "canonical_elsewhere");
    expect(slash).toMatchObject({ status: "warn", items: [{ subtype: "variant", details: { differences: ["a trailing slash"] } }] });
    const both = finding(withCanonical("http://acme.example/blog/choosing-a-crm/"), "canonical_elsewhere");
    expect(both).toMatchObject({ status: "warn", items: [{ details: { differences: ["the scheme (http or https)", "a leading www."] } }] });
  });

  it("is not applicable without a usable canonical, or without HTML", () => {
    expect(finding(withCanonical(null), "canonical_elsewhere").status).toBe("not_applicable");
    expect(finding(withCanonical("/blog/choosing-a-crm/"), "canonical_elsewhere").status).toBe("not_applicable");
    expect(finding(notFound, "canonical_elsewhere").status).toBe("not_applicable");
  });
});

describe("canonical_invalid", () => {
  it("passes on an absolute http(s) URL", () => {
    expect(finding(observation(), "canonical_invalid")).toMatchObject({ status: "pass", reason: `The canonical ${PAGE_URL} is an absolute http(s) URL.` });
  });

  it("fails on a relative path, another scheme or something that is not a URL", () => {
    expect(finding(withCanonical("/blog/choosing-a-crm/"), "canonical_invalid")).toMatchObject({ status: "fail", items: [{ subtype: "relative", severity: "medium" }] });
    expect(finding(withCanonical("ftp://acme.example/x"), "canonical_invalid").items[0]?.subtype).toBe("not_http");
    expect(finding(withCanonical("mailto:x@acme.example"), "canonical_invalid").items[0]?.subtype).toBe("not_http");
    expect(finding(withCanonical("http://"), "canonical_invalid").items[0]?.subtype).toBe("unparseable");
  });

  it("is not applicable without a canonical, or without HTML", () => {
    expect(finding(withCanonical(null), "canonical_invalid").status).toBe("not_applicable");
    expect(finding(notFound, "canonical_invalid").status).toBe("not_applicable");
  });
});
