// A page that gave no HTTP answer (decisions.md "Audits"): each network failure maps to the RunError
// code of its failed run, whose message says in words that the page could not be fetched and why,
// and whose `retryable` says whether asking again may help. The codes are the ones POST /audits's
// OpenAPI description lists.
import { describe, expect, it } from "vitest";
import { describeFailure } from "@/lib/audits/fetch";
import { unansweredError } from "@/lib/audits/run";
import { FetchTimeoutError, UnsafeUrlError } from "@/lib/net/safe-fetch";
import { AUDIT_UNANSWERED_CODES } from "@/lib/schemas/audits";
import { createAudit } from "@/lib/schemas/runs";

const errno = (code: string, message: string, extra: object = {}) => Object.assign(new Error(message), { code, ...extra });

const URL_ = "https://shop.example:8443/pricing";

describe("a page that gave no HTTP answer", () => {
  const cases: Array<[string, unknown, string, boolean, string]> = [
    ["a private address", new UnsafeUrlError("shop.example resolves to a private or reserved address"), "page_blocked", false, "shop.example resolves to a private or reserved address. Audits fetch only public addresses"],
    ["credentials in the URL", new UnsafeUrlError("URLs with credentials are not fetched", "credentials"), "page_blocked", false, "URLs with credentials are not fetched."],
    ["no DNS address", errno("ENOTFOUND", "getaddrinfo ENOTFOUND shop.example", { hostname: "shop.example" }), "page_dns_error", true, "no address found for shop.example (DNS). Check the host name"],
    ["a DNS server that does not answer", errno("EAI_AGAIN", "getaddrinfo EAI_AGAIN shop.example", { hostname: "shop.example" }), "page_dns_error", true, "no address found for shop.example (DNS)."],
    ["a refused connection", errno("ECONNREFUSED", "connect ECONNREFUSED"), "page_connection_refused", true, "shop.example:8443 refused the connection. Asking again may succeed"],
    ["a timeout", new FetchTimeoutError("no complete answer from shop.example:8443 within 10000 ms"), "page_timeout", true, "no complete answer from shop.example:8443 within 10000 ms. Asking again may succeed."],
    ["a reset connection", errno("ECONNRESET", "socket hang up"), "page_connection_error", true, "connection reset by the server. Asking again may succeed."],
    ["an unreachable host", errno("EHOSTUNREACH", "connect EHOSTUNREACH"), "page_connection_error", true, "host unreachable."],
    ["a bad certificate", errno("CERT_HAS_EXPIRED", "certificate has expired"), "page_tls_error", false, "TLS: certificate has expired. The site's HTTPS setup must be fixed"],
  ];

  it.each(cases)("%s: its code, retryable and message", (_, error, code, retryable, words) => {
    const failure = describeFailure(error);
    expect(failure.code).toBe(code);
    const runError = unansweredError(URL_, { code: failure.code!, error: failure.error });
    expect(runError).toMatchObject({ code, retryable, engine: null });
    expect(runError.message).toMatch(/^The page could not be fetched: /);
    expect(runError.message).toContain(words);
  });

  it("is not the page's doing when the audit itself was stopped", () => {
    expect(describeFailure(new FetchTimeoutError("aborted")).code).toBeNull();
  });

  it("documents every code, and whether asking again helps, in POST /audits's description", () => {
    const description = createAudit.description ?? "";
    for (const code of AUDIT_UNANSWERED_CODES) {
      expect(description).toContain(`\`${code}\``);
      const { retryable } = unansweredError(URL_, { code, error: "x" });
      // Each code's sentence names its retryable value (the four retryable ones share one).
      const after = description.slice(description.indexOf(`\`${code}\``));
      expect(after.slice(0, after.search(/`retryable` (true|false)/) + 20)).toContain(`\`retryable\` ${retryable}`);
    }
  });
});
