import { describe, expect, it } from "vitest";
import { isTrackingParam, normalizeUrl, registeredDomain } from "@/lib/engines/url";

describe("source URL normalisation", () => {
  it.each([
    ["https://WWW.Example.COM/Path/Page?id=7#section-2", "https://www.example.com/Path/Page?id=7"],
    ["https://example.com/a?utm_source=openai", "https://example.com/a"],
    ["https://example.com/a?b=1&utm_medium=x&c=two%20words&UTM_Campaign=y", "https://example.com/a?b=1&c=two%20words"],
    ["https://example.com/a?gclid=abc&fbclid=def&msclkid=g&srsltid=h", "https://example.com/a"],
    ["https://example.com./a", "https://example.com/a"],
    ["https://example.com", "https://example.com/"],
    ["https://example.com:443/a", "https://example.com/a"],
    ["https://münchen.de/straße", "https://xn--mnchen-3ya.de/stra%C3%9Fe"],
    ["  https://example.com/a  ", "https://example.com/a"],
  ])("%s -> %s", (raw, expected) => {
    expect(normalizeUrl(raw)).toBe(expected);
  });

  it("keeps parameters that identify the page, spelled as the site spelled them", () => {
    expect(normalizeUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42");
    expect(normalizeUrl("https://shop.example/search?q=a+b&page=2")).toBe("https://shop.example/search?q=a+b&page=2");
  });

  it("refuses what is not an absolute web URL", () => {
    expect(normalizeUrl("not a url")).toBeNull();
    expect(normalizeUrl("/relative/path")).toBeNull();
    expect(normalizeUrl("mailto:someone@example.com")).toBeNull();
    expect(normalizeUrl("javascript:alert(1)")).toBeNull();
  });

  it("takes the registered domain from the Public Suffix List", () => {
    expect(registeredDomain("https://www.bbc.co.uk/news")).toBe("bbc.co.uk");
    expect(registeredDomain("https://a.b.example.com.au/x")).toBe("example.com.au");
    expect(registeredDomain("https://de.wikipedia.org/wiki/X")).toBe("wikipedia.org");
    expect(registeredDomain("http://127.0.0.1:4010/x")).toBeNull();
    expect(registeredDomain("http://localhost/x")).toBeNull();
  });

  it("knows tracking parameters case-insensitively", () => {
    expect(isTrackingParam("utm_content")).toBe(true);
    expect(isTrackingParam("UTM_TERM")).toBe(true);
    expect(isTrackingParam("id")).toBe(false);
  });
});
