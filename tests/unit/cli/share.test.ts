// `geoscope share`: the real CLI against a stand-in API. Each action's request and output (the link
// alone on stdout, notes on stderr; --json the body as sent), the id's prefix choosing the run,
// analysis, fanout or prompt batch endpoints, ids and option mixes refused before anything is
// asked, and the API's errors as exit codes.
import { describe, expect, it } from "vitest";
import { exampleShareState } from "@/lib/schemas/examples";
import { standInApi } from "./stand-in";

const RUN = "dr_01M86BZ1B8TDMNZ120417K12ZN";
const QUESTIONS = "fa_01M7XB2Q4K8Z3V6T9R1N5P7C2D";
const CITATIONS = "ca_01M7W4P0Q8ZK3N6D2V5R7T9XWB";
const FANOUT = "fo_01M7W4P0Q8ZK3N6D2V5R7T9XWC";
const BATCH = "rq_01M86BZ1B8TDMNZ120417K12ZN";
const MONITOR = "mo_01M86BZ1B8TDMNZ120417K12ZN";
const URL_1 = "http://127.0.0.1:3000/s/4fQ9zK2mT7pX1vR8sL3nB6cW0yH5jD2gA9eU4kM7qZ1";
const URL_2 = "http://127.0.0.1:3000/s/9zQ4fK2mT7pX1vR8sL3nB6cW0yH5jD2gA9eU4kM7qZ2";

const state = { ...exampleShareState, target_id: RUN, url: URL_1, created_at: "2026-11-20T11:15:02.644Z" };
const rotated = { ...state, id: "sh_01M7XD4V8N2K6P9R3T5W7Y1Z0C", url: URL_2, rotated_from: state.id };
const revoked = { ...state, revoked_at: "2026-11-21T08:00:00.000Z" };

const api = standInApi();
const requests = () => api.seen.map((s) => `${s.method} ${s.url}`);
const conflict = (message: string) => ({ status: 409, body: { error: { code: "conflict", message, engine: null, retryable: false } } });

// Each test runs the CLI a few times (about half a second each, more on a busy machine).
describe("geoscope share", { timeout: 30_000 }, () => {
  it("shares: POST …/share, the URL alone on stdout, how to revoke it on stderr", async () => {
    api.answer(() => ({ status: 200, body: state }));
    const result = await api.cli(["share", RUN]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual([`POST /api/v1/runs/${RUN}/share`]);
    expect(result.stdout).toBe(`${URL_1}\n`);
    expect(result.stderr).toBe(`shared run ${RUN} (${state.id}); anyone with this link can read it. Revoke it with: geoscope share ${RUN} --revoke\n`);
  });

  it("--rotate: POST …/share/rotate, the new URL, and that the old link no longer works", async () => {
    api.answer(() => ({ status: 200, body: rotated }));
    const result = await api.cli(["share", RUN, "--rotate"]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual([`POST /api/v1/runs/${RUN}/share/rotate`]);
    expect(result.stdout).toBe(`${URL_2}\n`);
    expect(result.stderr).toBe(`new link to run ${RUN} (${rotated.id}, replacing ${state.id}); the old link no longer works\n`);
  });

  it("--revoke: DELETE …/share and a confirmation; with --json nothing, as the 204 has no body", async () => {
    api.answer(() => ({ status: 204 }));
    const result = await api.cli(["share", RUN, "--revoke"]);
    expect(result.code, result.stderr).toBe(0);
    expect(requests()).toEqual([`DELETE /api/v1/runs/${RUN}/share`]);
    expect(result.stdout).toBe(`revoked: the link to ${RUN} no longer works\n`);
    expect(await api.cli(["share", RUN, "--revoke", "--json"])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("--status: GET …/share; shared with its URL and date, not shared, or not shared since a revocation", async () => {
    const cases = [
      [{ shared: true, share: state }, `shared: ${URL_1} (since 2026-11-20 11:15:02Z)\n`],
      [{ shared: false, share: null }, "not shared\n"],
      [{ shared: false, share: revoked }, "not shared (last link revoked 2026-11-21 08:00:00Z)\n"],
    ] as const;
    for (const [body, printed] of cases) {
      api.answer(() => ({ status: 200, body }));
      const result = await api.cli(["share", RUN, "--status"]);
      expect(result.code, result.stderr).toBe(0);
      expect(requests()).toEqual([`GET /api/v1/runs/${RUN}/share`]);
      expect(result.stdout).toBe(printed);
    }
  });

  it("--json prints the API's body exactly, and no note", async () => {
    api.answer(() => ({ status: 200, body: state }));
    const result = await api.cli(["share", RUN, "--json"]);
    expect(result).toEqual({ code: 0, stdout: JSON.stringify(state), stderr: "" });
    api.answer(() => ({ status: 200, body: { shared: true, share: state } }));
    expect((await api.cli(["share", RUN, "--status", "--json"])).stdout).toBe(JSON.stringify({ shared: true, share: state }));
  });

  it("sends fa_ and ca_ ids to the analysis endpoints", async () => {
    for (const id of [QUESTIONS, CITATIONS]) {
      api.answer(() => ({ status: 200, body: { ...state, target_id: id, target_kind: "analysis" } }));
      const result = await api.cli(["share", id]);
      expect(result.code, result.stderr).toBe(0);
      expect(requests()).toEqual([`POST /api/v1/analyses/${id}/share`]);
      expect(result.stderr).toContain(`shared analysis ${id} (`);
      await api.cli(["share", id, "--rotate"]);
      expect(requests()).toEqual([`POST /api/v1/analyses/${id}/share/rotate`]);
    }
  });

  it("sends fo_ ids to the fanout endpoints, rq_ ids to the prompt batch endpoints and mo_ ids to the monitor endpoints, each action", async () => {
    for (const [id, collection, kind, noun] of [[FANOUT, "fanouts", "fanout", "fanout"], [BATCH, "batches", "batch", "prompt batch"], [MONITOR, "monitors", "monitor", "monitor"]] as const) {
      const shared = { ...state, target_id: id, target_kind: kind };
      api.answer(() => ({ status: 200, body: shared }));
      const created = await api.cli(["share", id]);
      expect(created.code, created.stderr).toBe(0);
      expect(requests()).toEqual([`POST /api/v1/${collection}/${id}/share`]);
      expect(created.stdout).toBe(`${URL_1}\n`);
      expect(created.stderr).toBe(`shared ${noun} ${id} (${state.id}); anyone with this link can read it. Revoke it with: geoscope share ${id} --revoke\n`);

      api.answer(() => ({ status: 200, body: { ...rotated, target_id: id, target_kind: kind } }));
      const newLink = await api.cli(["share", id, "--rotate"]);
      expect(requests()).toEqual([`POST /api/v1/${collection}/${id}/share/rotate`]);
      expect(newLink.stderr).toBe(`new link to ${noun} ${id} (${rotated.id}, replacing ${state.id}); the old link no longer works\n`);

      api.answer(() => ({ status: 200, body: { shared: true, share: shared } }));
      const status = await api.cli(["share", id, "--status", "--json"]);
      expect(requests()).toEqual([`GET /api/v1/${collection}/${id}/share`]);
      expect(status.stdout).toBe(JSON.stringify({ shared: true, share: shared }));

      api.answer(() => ({ status: 204 }));
      const revoked = await api.cli(["share", id, "--revoke"]);
      expect(requests()).toEqual([`DELETE /api/v1/${collection}/${id}/share`]);
      expect(revoked.stdout).toBe(`revoked: the link to ${id} no longer works\n`);
    }
  });

  it("refuses another kind of id, naming the ones it takes, before asking", async () => {
    for (const id of ["pr_01M86BZ1B8TDMNZ120417K12ZN", "sh_01M7XD4V8N2K6P9R3T5W7Y1Z0B", "fo01M86BZ1B8TDMNZ120417K12ZN"]) {
      const result = await api.cli(["share", id]);
      expect(result.code, id).toBe(2);
      expect(result.stderr).toContain(`share takes the id of a run (dr_…), analysis (fa_…, ca_…, va_…, cm_… or op_…), fanout (fo_…), prompt batch (rq_…) or monitor (mo_…), not ${id}`);
      expect(api.seen).toEqual([]);
    }
    const missing = await api.cli(["share"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing id of a run, analysis, fanout, prompt batch or monitor (dr_…, fa_…, ca_…, va_…, cm_…, op_…, fo_…, rq_… or mo_…)");
    expect((await api.cli(["share", RUN, QUESTIONS])).code).toBe(2);
  });

  it("refuses more than one of --status, --rotate and --revoke, before asking", async () => {
    for (const options of [["--rotate", "--revoke"], ["--status", "--rotate", "--revoke"]]) {
      const result = await api.cli(["share", RUN, ...options]);
      expect(result.code, options.join(" ")).toBe(2);
      expect(result.stderr).toContain("cannot go together: give one of --status, --rotate, --revoke, or none to share");
      expect(api.seen).toEqual([]);
    }
  });

  it("answers the API's errors with their exit codes and messages: 409 is 8, 404 is 4", async () => {
    api.answer(() => conflict("The run has not finished (it is running); share it once it has."));
    const running = await api.cli(["share", RUN]);
    expect(running.code).toBe(8);
    expect(running.stdout).toBe("");
    expect(running.stderr).toBe("error: The run has not finished (it is running); share it once it has.\n");

    api.answer(() => conflict("The run is not shared: there is no link to rotate."));
    const json = await api.cli(["share", RUN, "--rotate", "--json"]);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout).error.code).toBe("conflict");

    api.answer(() => ({ status: 404, body: { error: { code: "not_found", message: "No such run.", engine: null, retryable: false } } }));
    const unknown = await api.cli(["share", RUN, "--status"]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toBe("error: No such run.\n");
  });

  it("is in --help with its options", async () => {
    const top = await api.cli(["--help"]);
    expect(top.stdout).toMatch(/\n {2}share dr_…\|fa_…\|ca_…\|va_…\|cm_…\|op_…\|fo_…\|rq_…\|mo_… \[--status\] \[--rotate\] \[--revoke\]/);
    const own = await api.cli(["share", "--help"]);
    expect(own.stdout).toContain("Usage: geoscope share dr_…|fa_…|ca_…|va_…|cm_…|op_…|fo_…|rq_…|mo_… [--status] [--rotate] [--revoke]");
    for (const option of ["--status", "--rotate", "--revoke"]) expect(own.stdout).toContain(`  ${option} `);
  });
});
