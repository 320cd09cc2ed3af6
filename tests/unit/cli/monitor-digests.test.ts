// `geoscope monitor digests` (the real CLI against a stand-in API): each week's digest in a table
// with how it was sent and, below, why one was not; --json prints the API's body exactly; and
// `monitor create --digest weekly` asks for it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Digest } from "@/lib/schemas/digests";
import { NOT_MEMBER } from "@/lib/digests/deliver";
import { standInApi } from "./stand-in";

const api = standInApi();
const MONITOR = "mo_01M7VRMMR088ASXAB0JMYCMVPP";
const sent = structuredClone((z.globalRegistry.get(Digest)!.examples as unknown[])[0]) as z.input<typeof Digest>;
const notSent = { ...sent, id: "dg_01M7VS1Q2W3E4R5T6Y7V8K9M1A", week: "2026-W49", status: "not_sent", reason: NOT_MEMBER, recipient: null, sent_at: null, created_at: "2026-11-30T06:01:30.120Z" };

describe("geoscope monitor digests", { timeout: 60_000 }, () => {
  it("lists each week's digest with its status, recipient and when it went, then why one was not sent; --json prints the body as sent", async () => {
    const body = { items: [notSent, sent], next_cursor: "bmV4dA" };
    api.answer(() => ({ status: 200, body }));
    const human = await api.cli(["monitor", "digests", MONITOR, "--limit", "2"]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/monitors/${MONITOR}/digests?limit=2`]);
    const lines = human.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+WEEK\s+STATUS\s+TO\s+SENT\s+ATTEMPTS$/);
    expect(lines[1]).toMatch(new RegExp(`^${notSent.id}\\s+2026-W49\\s+not_sent\\s+-\\s+-\\s+1$`));
    expect(lines[2]).toMatch(new RegExp(`^${sent.id}\\s+2026-W48\\s+sent\\s+ana@acme.dev\\s+2026-11-23 06:01:31Z\\s+1$`));
    expect(human.stdout).toContain(`2026-W49: ${NOT_MEMBER}`);
    expect(human.stderr).toContain("more: --cursor bmV4dA");
    const json = await api.cli(["monitor", "digests", MONITOR, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(body);
  });

  it("monitor create --digest weekly asks for the digest; --digest with another value is a usage error", async () => {
    api.answer(() => ({ status: 500, body: { error: { code: "internal_error", message: "stop here", engine: null, retryable: false } } }));
    await api.cli(["monitor", "create", "best crm", "--project", "pr_01M7VRMMR088ASXAB0JMYCMVPP", "--digest", "weekly"]);
    expect(api.seen.at(-1)).toMatchObject({ method: "POST", url: "/api/v1/monitors" });
    expect(JSON.parse(api.seen.at(-1)!.body).alerts).toEqual({ digest: "weekly" });
    const wrong = await api.cli(["monitor", "create", "best crm", "--project", "pr_01M7VRMMR088ASXAB0JMYCMVPP", "--digest", "daily"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("--digest");
  });
});
