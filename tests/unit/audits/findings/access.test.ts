import { describe, expect, it } from "vitest";
import { allCrawlers, finding, observation, PAGE_URL, withoutHtml } from "./observation";

const ROBOTS_URL = "https://www.acme.example/robots.txt";
const robotsForbids = withoutHtml(
  { status: "blocked", http_status: null, error: "robots.txt forbids the page", robots_txt: { url: ROBOTS_URL, http_status: 200, found: true, allows_page: false } },
  { fetched: { robots: { aiCrawlers: allCrawlers(false), decidingLines: { geoscope: "Disallow: /blog/", GPTBot: "Disallow: /" } } } },
);
const hops = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ url: `https://acme.example/${i}`, status: 301, location: i === n - 1 ? PAGE_URL : `https://acme.example/${i + 1}` }));

describe("http_error", () => {
  it("passes on a 2xx page, HTML or not", () => {
    expect(finding(observation(), "http_error")).toMatchObject({ status: "pass", reason: "The page answered HTTP 200.", items: [] });
    expect(finding(withoutHtml({ status: "non_html", content_type: "application/pdf" }), "http_error").status).toBe("pass");
  });

  it("fails on a 4xx or 5xx with the status as evidence", () => {
    const f = finding(withoutHtml({ status: "client_error", http_status: 404 }), "http_error");
    expect(f.status).toBe("fail");
    expect(f.reason).toContain("404");
    expect(f.items).toHaveLength(1);
    expect(f.items[0]).toMatchObject({ subtype: "client_error", severity: "critical", details: { http_status: 404 } });
    expect(f.items[0]?.evidence).toContainEqual({ label: "HTTP status", value: 404, source: "fetch" });
    expect(finding(withoutHtml({ status: "server_error", http_status: 503 }), "http_error")).toMatchObject({ status: "fail", items: [{ subtype: "server_error" }] });
  });

  it("fails when the page did not answer, stopped on a redirect or sits at an address that is not public", () => {
    const timeout = finding(withoutHtml({ status: "fetch_error", http_status: null, error: "timed out after 15 s", robots_txt: null }), "http_error");
    expect(timeout).toMatchObject({ status: "fail", reason: "The page could not be fetched: timed out after 15 s.", items: [{ subtype: "fetch_error" }] });
    expect(finding(withoutHtml({ status: "redirect", http_status: 301, redirect_chain: hops(1), error: "Location missing" }), "http_error")).toMatchObject({
      status: "fail",
      items: [{ subtype: "redirect" }],
    });
    const privateAddress = finding(withoutHtml({ status: "blocked", http_status: null, error: "10.0.0.5 is a private address", robots_txt: null }), "http_error");
    expect(privateAddress).toMatchObject({ status: "fail", items: [{ subtype: "blocked_address" }] });
    expect(privateAddress.reason).toContain("10.0.0.5 is a private address");
  });

  it("is not applicable when robots.txt kept the audit from asking", () => {
    expect(finding(robotsForbids, "http_error")).toMatchObject({ status: "not_applicable", items: [] });
  });
});

describe("robots_blocks_page", () => {
  it("passes when robots.txt allows the page or there is none", () => {
    expect(finding(observation(), "robots_blocks_page").status).toBe("pass");
    const none = finding(observation({ fetched: { fetch: { robots_txt: { http_status: 404, found: false, allows_page: true } } } }), "robots_blocks_page");
    expect(none).toMatchObject({ status: "pass", reason: "There is no robots.txt (HTTP 404), so crawlers may fetch the page." });
  });

  it("fails with the deciding line", () => {
    const f = finding(robotsForbids, "robots_blocks_page");
    expect(f).toMatchObject({ status: "fail", severity: "critical", items: [{ subtype: "geoscope", severity: "critical" }] });
    expect(f.reason).toContain("Disallow: /blog/");
    expect(f.items[0]?.evidence).toEqual([
      { label: "robots.txt", value: ROBOTS_URL, source: "robots.txt" },
      { label: "deciding line", value: "Disallow: /blog/", source: "robots.txt" },
    ]);
  });

  it("is not applicable when robots.txt was not read or could not be", () => {
    expect(finding(withoutHtml({ status: "fetch_error", error: "DNS failure", robots_txt: null }), "robots_blocks_page").status).toBe("not_applicable");
    const unreadable = observation({ fetched: { fetch: { robots_txt: { http_status: 503, found: false, allows_page: null } } } });
    expect(finding(unreadable, "robots_blocks_page")).toMatchObject({ status: "not_applicable", reason: `robots.txt at ${ROBOTS_URL} could not be read (HTTP 503).` });
  });
});

describe("ai_crawlers_blocked", () => {
  it("passes when every AI crawler may read the page", () => {
    expect(finding(observation(), "ai_crawlers_blocked")).toMatchObject({ status: "pass", reason: "robots.txt lets all 15 AI crawlers checked read the page." });
  });

  it("fails with one item per refused token, search and user crawlers weighing more than training ones", () => {
    const f = finding(
      observation({
        fetched: { robots: { aiCrawlers: { ...allCrawlers(true), GPTBot: false, "OAI-SearchBot": false, CCBot: false }, decidingLines: { GPTBot: "Disallow: /" } } },
      }),
      "ai_crawlers_blocked",
    );
    expect(f.status).toBe("fail");
    expect(f.reason).toBe("robots.txt refuses 3 of the 15 AI crawlers checked (1 of them fetching pages for answers): GPTBot, OAI-SearchBot, CCBot.");
    expect(f.items.map((item) => [item.subtype, item.severity])).toEqual([
      ["GPTBot", "medium"],
      ["OAI-SearchBot", "high"],
      ["CCBot", "medium"],
    ]);
    expect(f.items[0]).toMatchObject({ details: { token: "GPTBot", operator: "OpenAI", purpose: "training", deciding_line: "Disallow: /" } });
    expect(f.items[0]?.evidence).toContainEqual({ label: "deciding line", value: "Disallow: /", source: "robots.txt" });
    expect(f.items[1]?.evidence).toEqual([{ label: "robots.txt", value: ROBOTS_URL, source: "robots.txt" }]);
  });

  it("is not applicable without a robots.txt reading", () => {
    const unread = observation({ fetched: { fetch: { robots_txt: null }, robots: { aiCrawlers: allCrawlers(null) } } });
    expect(finding(unread, "ai_crawlers_blocked").status).toBe("not_applicable");
    const unreadable = observation({ fetched: { fetch: { robots_txt: { allows_page: null } }, robots: { aiCrawlers: allCrawlers(null) } } });
    expect(finding(unreadable, "ai_crawlers_blocked").status).toBe("not_applicable");
  });
});

describe("long_redirect_chain", () => {
  it("passes with at most 2 redirects", () => {
    expect(finding(observation(), "long_redirect_chain")).toMatchObject({ status: "pass", reason: "The page answered without a redirect." });
    expect(finding(observation({ fetched: { fetch: { redirect_chain: hops(2) } } }), "long_redirect_chain").status).toBe("pass");
  });

  it("fails over 2, each hop in the evidence, even when the fetch then stopped", () => {
    const f = finding(observation({ fetched: { fetch: { redirect_chain: hops(3) } } }), "long_redirect_chain");
    expect(f).toMatchObject({ status: "fail", reason: "The page took 3 redirects to reach (more than 2)." });
    expect(f.items).toHaveLength(1);
    expect(f.items[0]?.evidence).toEqual(hops(3).map((hop, i) => ({ label: `redirect ${i + 1}`, value: `301 ${hop.url} → ${hop.location}`, source: "fetch" })));
    expect(finding(withoutHtml({ status: "redirect", redirect_chain: hops(10), error: "too many redirects" }), "long_redirect_chain").status).toBe("fail");
  });

  it("is not applicable when no final response arrived", () => {
    expect(finding(withoutHtml({ status: "fetch_error", error: "connection refused", redirect_chain: [] }), "long_redirect_chain").status).toBe("not_applicable");
    expect(finding(robotsForbids, "long_redirect_chain").status).toBe("not_applicable");
  });
});

describe("non_html", () => {
  it("passes on HTML", () => {
    expect(finding(observation(), "non_html")).toMatchObject({ status: "pass", reason: "The page was served as HTML (text/html; charset=utf-8)." });
  });

  it("fails on another type, with the Content-Type header", () => {
    const f = finding(withoutHtml({ status: "non_html", content_type: "application/pdf" }), "non_html");
    expect(f).toMatchObject({ status: "fail", items: [{ subtype: "application/pdf", evidence: [{ label: "Content-Type", value: "application/pdf", source: "header:content-type" }] }] });
  });

  it("is not applicable without a 2xx", () => {
    expect(finding(withoutHtml({ status: "server_error", http_status: 500 }), "non_html")).toMatchObject({
      status: "not_applicable",
      reason: "There was no successful response whose type to check: server_error 500.",
    });
  });
});

describe("truncated_body", () => {
  it("passes when the whole body was read", () => {
    expect(finding(observation(), "truncated_body").status).toBe("pass");
  });

  it("fails when the body was cut at 5 MiB", () => {
    const f = finding(observation({ fetched: { fetch: { truncated: true, server_headers: { "content-length": "9000000" } } } }), "truncated_body");
    expect(f).toMatchObject({ status: "fail", severity: "low" });
    expect(f.items[0]?.evidence).toEqual([
      { label: "truncated", value: true, source: "fetch" },
      { label: "Content-Length", value: "9000000", source: "header:content-length" },
    ]);
  });

  it("is not applicable when no body was read", () => {
    expect(finding(withoutHtml({ status: "client_error", http_status: 404 }), "truncated_body").status).toBe("not_applicable");
  });
});

describe("slow_response", () => {
  it("passes at 3 s and under", () => {
    expect(finding(observation(), "slow_response")).toMatchObject({ status: "pass", reason: "The page arrived in 0.412 s." });
    expect(finding(observation({ fetched: { fetch: { elapsed_ms: 3000 } } }), "slow_response").status).toBe("pass");
  });

  it("fails over 3 s, also when the request then timed out", () => {
    const f = finding(observation({ fetched: { fetch: { elapsed_ms: 4210 } } }), "slow_response");
    expect(f).toMatchObject({ status: "fail", reason: "The page took 4.21 s to arrive, over 3 s.", items: [{ details: { elapsed_ms: 4210, redirects: 0 } }] });
    expect(finding(withoutHtml({ status: "fetch_error", error: "timed out", elapsed_ms: 15000 }), "slow_response").status).toBe("fail");
  });

  it("is not applicable when nothing answered in time to measure", () => {
    expect(finding(withoutHtml({ status: "fetch_error", error: "connection refused", elapsed_ms: 40 }), "slow_response").status).toBe("not_applicable");
  });
});
