// Page audits in the CLI: the report (failing findings first with their evidence, then warnings,
// the passing and not applicable ones in a line, content, metadata and outline; unfinished and
// failed runs), and the real CLI (cli/geoscope.mjs) against a stand-in API: one URL with --wait,
// several from arguments and --file, bad URLs refused before anything is sent, --json bodies (JSON
// lines for several), the exit code of a failed run, and `runs get` of an audit run.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formatAudit } from "@/cli/commands/audits";
import { FINDING_CATALOG } from "@/lib/audits/findings/catalog";
import { exampleAuditResult, exampleRun } from "@/lib/schemas/examples";
import { Run } from "@/lib/schemas/runs";
import { standInApi } from "./stand-in";

type RunBody = z.output<typeof Run>;
type Audit = typeof exampleAuditResult;

const PROJECT = "pr_01M86BZ1B8TDMNZ120417K12ZN";
const IDS = ["dr_01M7W4N5HZGWT0SFG9MVH8BXJ1", "dr_01M7W4N5HZGWT0SFG9MVH8BXJ2", "dr_01M7W4N5HZGWT0SFG9MVH8BXJ3"];
const URL_1 = exampleAuditResult.page.url;

const noindex = {
  status: "fail",
  reason: "The robots meta tag says noindex.",
  items: [
    {
      summary: "robots meta tag: noindex",
      severity: "critical",
      subtype: "meta",
      details: {},
      evidence: [{ label: "robots meta", value: "noindex, follow", source: 'html:<meta name="robots">' }],
    },
  ],
};

/** The example audit with every catalog finding once: the example's two, noindex failing, canonical_invalid not applicable, the rest passing. */
function auditOf(url = URL_1, changes: Partial<Record<keyof Audit, unknown>> = {}): Audit {
  const given = new Map<string, Audit["findings"][number]>(exampleAuditResult.findings.map((f) => [f.key, f]));
  const findings = FINDING_CATALOG.map((entry) => {
    const base = { ...entry, version: 1, status: "pass", reason: `${entry.name}: no.`, items: [] as unknown[] };
    if (given.has(entry.key)) return given.get(entry.key)!;
    if (entry.key === "noindex") return { ...base, ...noindex };
    if (entry.key === "canonical_invalid") return { ...base, status: "not_applicable", reason: "There is no canonical URL to check." };
    return base;
  });
  return { ...exampleAuditResult, page: { ...exampleAuditResult.page, url }, findings, ...changes } as Audit;
}

function auditRun(id = IDS[0]!, status: RunBody["status"] = "completed", url = URL_1, changes: Record<string, unknown> = {}) {
  return {
    ...exampleRun,
    id,
    kind: "audit",
    status,
    input: { url },
    engine: null,
    model: null,
    batch_id: null,
    result: status === "completed" ? auditOf(url) : null,
    usage: null,
    completed_at: status === "completed" || status === "failed" ? exampleRun.completed_at : null,
    duration_ms: status === "completed" ? 1412 : null,
    ...changes,
  };
}

const parsed = (body: object): RunBody => Run.parse(body);

describe("formatAudit", () => {
  const text = formatAudit(parsed(auditRun()));
  const lines = text.split("\n");

  it("starts with the run, its status and URL, then the fetch summary", () => {
    expect(lines[0]).toBe(`audit ${IDS[0]}: completed · ${URL_1}`);
    expect(text).toContain("\nFetch: success · HTTP 200 · 412 ms · text/html; charset=utf-8\n");
    expect(text).toContain("\n  final URL: https://www.acme.example/blog/choosing-a-crm/ (after 1 redirect)\n");
    expect(text).toContain("\n  robots.txt: allows the page (https://www.acme.example/robots.txt, HTTP 200)\n");
  });

  it("lists failing findings first, most severe first, with items, evidence and the fix; then warnings", () => {
    const at = (line: string) => {
      const i = lines.indexOf(line);
      expect(i, line).toBeGreaterThan(-1);
      return i;
    };
    const order = [
      at("Failing (2)"),
      at("✗ [critical] Page asks not to be indexed — The robots meta tag says noindex."),
      at("  - robots meta tag: noindex"),
      at('      robots meta: noindex, follow  (html:<meta name="robots">)'),
      at("✗ [low] Heading levels skip — 1 heading skips a level."),
      at("  - h2 → h4 at “Mobile entry”"),
      at("      heading: <h4>Mobile entry</h4>  (html:<h4>)"),
      at("Warnings (1)"),
      at("! [info] No llms.txt — /llms.txt answered 404."),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines[at("✗ [low] Heading levels skip — 1 heading skips a level.") + 3]).toMatch(/^ {2}Fix: Use the next level down/);
  });

  it("counts the passing and not applicable findings in a line each, naming them", () => {
    expect(text).toMatch(/\nPassed \(29, none of these found\): Page could not be loaded, robots\.txt blocks\n/);
    expect(text).toContain("\nNot applicable (1): Invalid canonical URL — There is no canonical URL to check.\n");
    expect(text).not.toMatch(/\n[✗!] \[\w+\] Page could not be loaded/);
  });

  it("then content, metadata and the outline indented by level", () => {
    expect(text).toContain("\nContent: article · 1184 words · 31 blocks · 0 code blocks · 1 table\n  links: 64 (main 12, navigation 41, internal 52, external 12)\n  likely JavaScript-dependent: no\n");
    expect(text).toContain("\n  title: Choosing a CRM for a small B2B team | Acme\n");
    expect(text).toContain("\n  lang: en · robots: - · noindex: no · nofollow: no\n");
    expect(text).toContain("\n  JSON-LD: Article, BreadcrumbList (2 blocks, 0 errors)\n");
    expect(text).toContain("\n  llms.txt: llms.txt not found (HTTP 404) · llms-full.txt not found (HTTP 404)\n");
    expect(text.endsWith("\nOutline (3 headings, 1 h1)\n  h1 Choosing a CRM for a small B2B team\n    h2 Who enters the data\n        h4 Mobile entry")).toBe(true);
  });

  it("fits 80 columns below the header", () => {
    for (const line of lines.slice(1)) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it("for a page with no HTML, says there is no content, metadata or outline, and gives the llms.txt probes", () => {
    const fetch = { ...exampleAuditResult.fetch, status: "client_error", http_status: 404, redirect_chain: [], error: null };
    const content = { ...exampleAuditResult.content, extraction_method: null, word_count: 0 };
    const page = { ...exampleAuditResult.page, final_url: URL_1 };
    const gone = formatAudit(parsed(auditRun(IDS[0], "completed", URL_1, { result: auditOf(URL_1, { fetch, content, page }) })));
    expect(gone).toContain("\nFetch: client_error · HTTP 404 · 412 ms · text/html; charset=utf-8\n  robots.txt:");
    expect(gone).not.toContain("final URL");
    expect(gone.endsWith("\n\nContent, metadata, outline: none (no HTML page was analysed)\nllms.txt: llms.txt not found (HTTP 404) · llms-full.txt not found (HTTP 404)")).toBe(true);
  });

  it("shows at most 30 headings of a long outline", () => {
    const headings = Array.from({ length: 45 }, (_, i) => ({ level: i === 0 ? 1 : 2, text: `Section ${i}` }));
    const long = formatAudit(parsed(auditRun(IDS[0], "completed", URL_1, { result: auditOf(URL_1, { structure: { headings, h1_count: 1, level_skips: [] } }) })));
    const outline = long.slice(long.indexOf("Outline (45 headings, 1 h1)")).split("\n");
    expect(outline).toHaveLength(1 + 30 + 1);
    expect(outline.at(-1)).toBe("  … and 15 more");
  });

  it("says how to wait for an unfinished audit, and gives a failed one's error", () => {
    expect(formatAudit(parsed(auditRun(IDS[0], "queued")))).toBe(
      [`audit ${IDS[0]}: queued · ${URL_1}`, "captured $0.02", `Not audited yet. Wait for it with: geoscope runs get ${IDS[0]} --wait 30`].join("\n"),
    );
    const failed = auditRun(IDS[0], "failed", URL_1, { charge: null, error: { code: "internal_error", message: "The audit could not be completed.", engine: null, retryable: true } });
    expect(formatAudit(parsed(failed))).toBe([`audit ${IDS[0]}: failed · ${URL_1}`, "2026-11-20 09:30:14Z", "error: internal_error: The audit could not be completed."].join("\n"));
    // A page that gave no HTTP answer: said in words, with whether asking again may help.
    const unanswered = auditRun(IDS[0], "failed", URL_1, {
      charge: { status: "released", amount_usd: "0.00", unit: "url", units: 1, unit_price_usd: "0.01", pricing_version: "2026-11-01" },
      error: { code: "page_dns_error", message: "The page could not be fetched: no address found for www.acme.example (DNS). Check the host name; asking again may succeed once it resolves.", engine: null, retryable: true },
    });
    expect(formatAudit(parsed(unanswered))).toBe(
      [
        `audit ${IDS[0]}: failed · ${URL_1}`,
        "2026-11-20 09:30:14Z · nothing charged (hold released)",
        "",
        "The page could not be fetched: no address found for www.acme.example (DNS).",
        "Check the host name; asking again may succeed once it resolves.",
        "(page_dns_error; asking again may succeed)",
      ].join("\n"),
    );
  });
});

// ---------- the real CLI against a stand-in API ----------

const api = standInApi();
const requests = () => api.seen.map((s) => `${s.method} ${s.url}`);

/** POSTs answer the queued runs in order; GETs answer `states[id]`'s next body (the last one again once used up). */
function script(queued: object[], states: Record<string, object[]>) {
  let posted = 0;
  api.answer((method, url) => {
    if (method === "POST") return { status: 202, body: queued[posted++] };
    const id = url.pathname.split("/").at(-1)!;
    const list = states[id]!;
    return { status: 200, body: list.length > 1 ? list.shift() : list[0] };
  });
}

// Each test runs the CLI once or a few times (about half a second each, more on a busy machine).
describe("geoscope audit", { timeout: 30_000 }, () => {
  it("one URL with --wait: POST /audits, GET /runs/{id}?wait=30 until it has finished, then the report", async () => {
    script([auditRun(IDS[0], "queued")], { [IDS[0]!]: [auditRun(IDS[0], "running"), auditRun()] });
    const result = await api.cli(["audit", URL_1, "--project", PROJECT, "--wait"]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual(["POST /api/v1/audits", `GET /api/v1/runs/${IDS[0]}?wait=30`, `GET /api/v1/runs/${IDS[0]}?wait=30`]);
    expect(JSON.parse(api.seen[0]!.body)).toEqual({ url: URL_1, project: PROJECT });
    expect(result.stdout).toBe(`${formatAudit(parsed(auditRun()))}\n`);
    // Progress while unfinished; the finished line is the report's first, not printed twice.
    expect(result.stderr).toBe([`audit ${IDS[0]}: queued · ${URL_1}`, `audit ${IDS[0]}: running · ${URL_1}`, ""].join("\n"));
  });

  it("several URLs from arguments and --file (comments and blank lines skipped): starts all, waits for all, a table then each report", async () => {
    const urls = [URL_1, "https://www.acme.example/pricing", "http://docs.acme.example/start"];
    const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-audit-")), "urls.txt");
    writeFileSync(file, `# pages to check\n${urls[1]}\n\n  ${urls[2]}  \n${URL_1}\n`);
    const done = urls.map((url, i) => auditRun(IDS[i], "completed", url));
    script(
      urls.map((url, i) => auditRun(IDS[i], "queued", url)),
      Object.fromEntries(IDS.map((id, i) => [id, [auditRun(id, "running", urls[i]), done[i]!]])),
    );
    const result = await api.cli(["audit", URL_1, "--file", file, "--project", PROJECT, "--wait", "60"]);
    expect(result.code, result.stderr).toBe(0);
    expect(api.seen.filter((s) => s.method === "POST").map((s) => JSON.parse(s.body).url)).toEqual(urls);
    expect(requests().slice(0, 3)).toEqual(Array(3).fill("POST /api/v1/audits"));
    for (const id of IDS) expect(requests()).toContain(`GET /api/v1/runs/${id}?wait=30`);
    expect(result.stderr).toContain("1 repeated URL(s) audited once");
    const [summary, ...reports] = result.stdout.trimEnd().split(`\n\n${"=".repeat(80)}\n`);
    expect(summary!.split("\n")).toEqual([
      "STATUS     FETCH    HTTP  FAIL  WARN  URL",
      `completed  success  200   2     1     ${urls[0]}`,
      `completed  success  200   2     1     ${urls[1]}`,
      `completed  success  200   2     1     ${urls[2]}`,
    ]);
    expect(reports).toEqual(done.map((run) => formatAudit(parsed(run))));
  });

  it("several URLs without --wait: the run ids and how to read them", async () => {
    const urls = [URL_1, "https://www.acme.example/pricing"];
    script(urls.map((url, i) => auditRun(IDS[i], "queued", url)), {});
    const result = await api.cli(["audit", ...urls, "--project", PROJECT]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual(["POST /api/v1/audits", "POST /api/v1/audits"]);
    expect(result.stdout.split("\n")).toEqual([expect.stringMatching(/^ID +STATUS +URL$/), `${IDS[0]}  queued  ${urls[0]}`, `${IDS[1]}  queued  ${urls[1]}`, ""]);
    expect(result.stderr).toContain(`geoscope runs get ${IDS[0]} --wait 30`);
  });

  it("refuses anything but absolute http(s) URLs before sending anything, naming them all", async () => {
    script([auditRun(IDS[0], "queued")], {});
    const result = await api.cli(["audit", URL_1, "ftp://files.acme.example/a", "www.acme.example/blog", "--project", PROJECT, "--wait"]);
    expect(result.code).toBe(2);
    expect(api.seen).toEqual([]);
    expect(result.stderr).toContain("not an absolute http(s) URL: ftp://files.acme.example/a, www.acme.example/blog (did you mean https://www.acme.example/blog?); nothing was started");
    const none = await api.cli(["audit", "--project", PROJECT]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no URL");
    const noProject = await api.cli(["audit", URL_1]);
    expect(noProject.code).toBe(2);
    expect(noProject.stderr).toContain("--project pr_… is required");
    expect(api.seen).toEqual([]);
  });

  it("--json: one URL, exactly the final body; several, one body a line", async () => {
    script([auditRun(IDS[0], "queued")], { [IDS[0]!]: [auditRun()] });
    const one = await api.cli(["audit", URL_1, "--project", PROJECT, "--wait", "--json"]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(JSON.stringify(auditRun()));

    const urls = [URL_1, "https://www.acme.example/pricing"];
    const done = urls.map((url, i) => auditRun(IDS[i], "completed", url));
    script(urls.map((url, i) => auditRun(IDS[i], "queued", url)), { [IDS[0]!]: [done[0]!], [IDS[1]!]: [done[1]!] });
    const several = await api.cli(["audit", ...urls, "--project", PROJECT, "--wait", "--json"]);
    expect(several.code, several.stderr).toBe(0);
    expect(several.stdout).toBe(done.map((body) => `${JSON.stringify(body)}\n`).join(""));
  });

  it("exits 1 when an audit run failed, after printing every report", async () => {
    const urls = [URL_1, "https://www.acme.example/pricing"];
    const failed = auditRun(IDS[1], "failed", urls[1], { error: { code: "internal_error", message: "The audit could not be completed.", engine: null, retryable: true } });
    script(urls.map((url, i) => auditRun(IDS[i], "queued", url)), { [IDS[0]!]: [auditRun()], [IDS[1]!]: [failed] });
    const result = await api.cli(["audit", ...urls, "--project", PROJECT, "--wait"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`failed     -        -     -     -     ${urls[1]}`);
    expect(result.stdout).toContain("error: internal_error: The audit could not be completed.");
  });

  it("runs get of an audit run prints the report", async () => {
    api.answer(() => ({ status: 200, body: auditRun() }));
    const result = await api.cli(["runs", "get", IDS[0]!]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual([`GET /api/v1/runs/${IDS[0]}`]);
    expect(result.stdout).toBe(`${formatAudit(parsed(auditRun()))}\n`);
  });
});
