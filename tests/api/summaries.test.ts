// Plain words (issue #42, decisions.md "Plain words beside every figure"): the `summary` of a
// visibility analysis and of a monitor tick, through the route handlers on the engine simulator,
// each sentence written out by hand from figures known by construction. A visibility analysis's
// summary is made when it is presented, so POST, GET and its share link answer the same one; a
// tick's is made from its figures and the series' change test whenever the tick is read.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { POST as shareRoute } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { GET as getMonitorRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { GET as ticksRoute } from "@/app/api/v1/monitors/[monitor_id]/ticks/route";
import { GET as listMonitorsRoute, POST as createMonitorRoute } from "@/app/api/v1/monitors/route";
import { POST as postProjects } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { GET as shareJsonRoute } from "@/app/s/[token]/json/route";
import { db } from "@/lib/db/client";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { checkMonitors } from "@/lib/monitors/ticks";
import { localDriver } from "@/lib/work/local-driver";
import { everyFigure } from "../helpers/stored-figures";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let project: string;

beforeAll(async () => {
  alice = await person("words-alice@example.com");
  const created = await call(postProjects, "POST", "/projects", {
    token: alice.cliToken,
    body: { name: "Words", workspace_id: alice.workspaceId, context: { primary_domain: "acme.example", brands: ["Acme CRM"], competitors: ["HubSpot", "Pipedrive"] } },
  });
  expect(created.status).toBe(201);
  project = created.body.id;
});

async function finishedBatch(prompt: string, engines: string[]) {
  const res = await call(postPrompts, "POST", "/prompts", { token: alice.cliToken, body: { prompt, project, engines } });
  expect(res.status).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token: alice.cliToken, params: { batch_id: id }, query: { wait: 30 } });
  expect(done.body.batch.status).toBe("completed");
  return id;
}

describe("a visibility analysis's summary", () => {
  // ChatGPT and Gemini name Acme CRM and HubSpot (Acme first); Claude names only HubSpot. Nobody names Pipedrive.
  const both = answerDirective("Acme CRM suits agencies best. HubSpot is the popular choice.");
  const hubspot = answerDirective("HubSpot is the popular choice for agencies.");

  it("says each entity's count with its n and interval, the engines, and who is named first; POST, GET and the share link answer the same", async () => {
    const batches = [await finishedBatch(`crm for agencies ${both}`, ["chatgpt", "gemini"]), await finishedBatch(`crm for agencies ${hubspot}`, ["claude"])];
    const posted = await call(postVisibility, "POST", "/visibility-analyses", { token: alice.cliToken, body: { ids: batches } });
    expect(posted.status, posted.text).toBe(201);
    // Wilson 95%: 2 of 3 [0.2077, 0.9385]; 3 of 3 [0.4385, 1]; 0 of 3 [0, 0.5615]; rounded outward.
    expect(posted.body.summary).toEqual([
      "Acme CRM is named in 2 of 3 answers (about 67%, 95% interval 20–94%); HubSpot in 3 (about 100%, 43–100%); Pipedrive in 0 (about 0%, 0–57%).",
      "Across engines, Claude (API) names Acme CRM least (0 of 1) and ChatGPT (API) and Gemini (API) most (1 of 1 each).",
      "Acme CRM is named first, before the other tracked names, in 2 of 3 answers (about 67%, 95% interval 20–94%).",
    ]);

    const id = posted.body.id as string;
    const read = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(read.status).toBe(200);
    expect(read.text).toBe(posted.text);

    // Not the body remembered when POST answered: one presented again from the stored figures.
    await db().analysis.update({ where: { id }, data: { subject: "worded again", result: (await everyFigure(id)) as never } });
    const again = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(again.body.subject).toBe("worded again");
    expect(again.body.summary).toEqual(posted.body.summary);

    const shared = await call(shareRoute, "POST", `/analyses/${id}/share`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(shared.status, shared.text).toBeLessThan(300);
    const token = new URL(shared.body.url).pathname.split("/").pop()!;
    const json = await (await shareJsonRoute(new Request(`http://localhost/s/${token}.json`), { params: Promise.resolve({ token }) })).json();
    expect(json.summary).toEqual(posted.body.summary);
  });
});

describe("a monitor tick's summary", () => {
  let monitorId = "";

  /** Until the tick has closed: its jobs run, the scheduler's sweep closes it once its fanout has finished (failed runs retry meanwhile). */
  const closed = async (tickId: string) => {
    await expect
      .poll(
        async () => {
          await localDriver().drained();
          await checkMonitors(new Date());
          await localDriver().drained();
          return (await db().monitorTick.findUniqueOrThrow({ where: { id: tickId } })).completedAt !== null;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
  };
  const tickNow = async () => {
    const res = await call(runRoute, "POST", `/monitors/${monitorId}/run`, { token: alice.cliToken, params: { monitor_id: monitorId } });
    expect(res.status, res.text).toBe(202);
    return res.body as { id: string; status: string; summary: string[] };
  };
  const ticks = async () => (await call(ticksRoute, "GET", `/monitors/${monitorId}/ticks`, { token: alice.cliToken, params: { monitor_id: monitorId } })).body.items as { id: string; summary: string[] }[];

  beforeAll(async () => {
    // Two prompts answer "Acme CRM …" but refuse their first ten attempts, so the first tick's
    // Acme prompts all fail (Acme in 0 of 10 answers, HubSpot in 10 of 10); from the second tick
    // on every prompt answers (Acme in 20 of 30, HubSpot in 10 of 30).
    const acme = answerDirective("Acme CRM is the best pick for agencies.");
    const hubspot = answerDirective("HubSpot is the most popular CRM.");
    const res = await call(createMonitorRoute, "POST", "/monitors", {
      token: alice.cliToken,
      body: {
        project, name: "Words", engines: ["gemini"], runs: 10,
        prompts: [{ text: `which crm should an agency pick words ${acme} [[sim:bad_request*10]]` }, { text: `which crm suits a small agency words ${acme} [[sim:bad_request*10]]` }, { text: `most popular crm words ${hubspot}` }],
      },
    });
    expect(res.status, res.text).toBe(201);
    monitorId = res.body.id;
  });

  it("says where a tick without figures stands", async () => {
    const started = await tickNow();
    expect(started.summary).toEqual([started.status === "queued" ? "Queued: no answers yet." : "Running: the figures come once its answers are in."]);
    await closed(started.id);
  });

  it("the first tick: each entity's count, and no comparison", async () => {
    const [first] = await ticks();
    // Wilson 95%: 0 of 10 [0, 0.2775]; 10 of 10 [0.7225, 1].
    expect(first!.summary).toEqual(["Acme CRM is named in 0 of 10 answers (about 0%, 95% interval 0–28%); HubSpot in 10 (about 100%, 72–100%); Pipedrive in 0 (about 0%, 0–28%)."]);
  });

  it("the second tick: the changes the series' test calls changes, each with its n; one engine's cells not said twice", async () => {
    await closed((await tickNow()).id);
    const [second] = await ticks();
    // Wilson 95%: 20 of 30 [0.4878, 0.8077]; 10 of 30 [0.1923, 0.5122]; 0 of 30 [0, 0.1135].
    expect(second!.summary).toEqual([
      "Acme CRM is named in 20 of 30 answers (about 67%, 95% interval 48–81%); HubSpot in 10 (about 33%, 19–52%); Pipedrive in 0 (0%, 0–12%).",
      "Since the previous tick, Acme CRM's visibility rose 67 points, from about 0% (0 of 10 answers) to about 67% (20 of 30), more than chance explains.",
      "Since the previous tick, HubSpot's visibility fell 67 points, from about 100% (10 of 10 answers) to about 33% (10 of 30), more than chance explains.",
    ]);
    // The monitor's last tick, alone or in the list, says the same.
    const monitor = await call(getMonitorRoute, "GET", `/monitors/${monitorId}`, { token: alice.cliToken, params: { monitor_id: monitorId } });
    expect(monitor.body.last_tick.summary).toEqual(second!.summary);
    const listed = await call(listMonitorsRoute, "GET", "/monitors", { token: alice.cliToken, query: { project } });
    expect(listed.body.items.find((m: { id: string }) => m.id === monitorId).last_tick.summary).toEqual(second!.summary);
  });

  it("a third tick with the same answers: nothing is called a change", async () => {
    await closed((await tickNow()).id);
    const [third] = await ticks();
    expect(third!.summary).toEqual([
      "Acme CRM is named in 20 of 30 answers (about 67%, 95% interval 48–81%); HubSpot in 10 (about 33%, 19–52%); Pipedrive in 0 (0%, 0–12%).",
      "No visibility changed beyond chance since the previous tick (30 answers then, 30 now).",
    ]);
  });
});
