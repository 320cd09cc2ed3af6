// Input the built server must refuse cleanly, where only a real `next start` shows what a client
// gets: paths Next.js cannot percent-decode (`%ZZ`, `%C3%28`; it throws before any route runs, a
// plain-text 500 before the request guard), taken literally and answered like any malformed id;
// TRACE and the methods Next.js's route handlers refuse; and a NUL in the sign-in form's address
// (next-auth's own route, a 500 before signInEmail). And refusals that say what to send: a question id
// by its shape, an id of another kind by the kind to name.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { cliAs, signIn } from "./support";
import { expectHugeMemberIdsNotFound, expectOtherMethodsRefused, expectUndecodableIdsNotFound } from "./unroutable";

let token: string;

/** A CLI token for a fresh person, through the real device login approved in the browser. */
test.beforeAll(async ({ browser, request }) => {
  const page = await browser.newPage();
  await signIn(page, "percent@example.com");
  const start = await (await request.post("/api/v1/cli/auth/start", { data: { client_name: "e2e" } })).json();
  await page.goto(`/device?code=${encodeURIComponent(start.user_code)}`);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Approved\. The CLI is signed in/)).toBeVisible();
  const poll = await (await request.post("/api/v1/cli/auth/poll", { data: { device_code: start.device_code } })).json();
  token = poll.token;
  expect(token).toMatch(/^gsc_/);
  await page.close();
});

async function get(request: APIRequestContext, path: string, withToken: boolean) {
  const response = await request.get(path, withToken ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(response.headers()["content-type"], path).toContain("application/json");
  expect(response.headers()["x-request-id"], path).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  return { status: response.status(), error: (await response.json()).error };
}

test("an undecodable id in a path is a missing object: 401 without a credential, then 404 naming the segment as sent", async ({ request }) => {
  const cases: [string, string][] = [
    ["/api/v1/projects/%ZZ", 'No such project "%ZZ".'],
    ["/api/v1/projects/%C3%28", 'No such project "%C3%28".'],
    ["/api/v1/runs/dr_%E2%82", 'No such run "dr_%E2%82".'],
    ["/api/v1/workspaces/%ZZ/members", 'No such workspace "%ZZ".'],
    ["/api/v1/fanouts/100%", 'No such fanout "100%".'],
  ];
  for (const [path, message] of cases) {
    const anonymous = await get(request, path, false);
    expect(anonymous.status, path).toBe(401);
    expect(anonymous.error.code).toBe("unauthenticated");
    const signedIn = await get(request, path, true);
    expect(signedIn.status, path).toBe(404);
    expect(signedIn.error).toEqual({ code: "not_found", message, engine: null, retryable: false });
  }
  // A path that decodes is untouched: its id arrives decoded, as before.
  expect((await get(request, "/api/v1/projects/caf%C3%A9", true)).error.message).toBe('No such project "café".');
});

test("every {id} path, methods Next.js cannot serve and member ids past PostgreSQL's integer answer in the envelope", async ({ baseURL, request }) => {
  const me = await (await request.get("/api/v1/me", { headers: { authorization: `Bearer ${token}` } })).json();
  const workspaceId = me.workspaces[0].id as string;
  expect(await expectUndecodableIdsNotFound(baseURL!, token, workspaceId)).toBeGreaterThan(60);
  await expectOtherMethodsRefused(baseURL!, token, workspaceId);
  await expectHugeMemberIdsNotFound(baseURL!, token, workspaceId);
});

test("an undecodable path that no route serves is the usual 404, naming the path as sent", async ({ request }) => {
  for (const path of ["/api/v1/projects%ZZ", "/api/v1/nope/%C3%28", "/api/v1/version/%ZZ"]) {
    const answer = await get(request, path, false);
    expect(answer.status, path).toBe(404);
    expect(answer.error).toEqual({ code: "not_found", message: `No endpoint GET ${path}.`, engine: null, retryable: false });
  }
});

test("pages with an undecodable token answer as for any unknown token", async ({ page }) => {
  const share = await page.goto("/s/%ZZ");
  expect(share!.status()).toBe(404);
  const invitation = await page.goto("/invite/%C3%28");
  expect(invitation!.status()).toBe(200);
  await expect(page.getByText("This invitation link is not valid.")).toBeVisible();
});

test("a sign-in address holding NUL is next-auth's sign-in error, not a 500", async ({ request }) => {
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const response = await request.post("/api/auth/signin/email", {
    form: { csrfToken, callbackUrl: "/account", json: "true", email: "a\u0000b@example.com" },
  });
  expect(response.status()).toBe(200);
  expect((await response.json()).url).toContain("error=EmailSignin");
});

test("a field named __proto__ in a JSON body is refused, naming it, not dropped unseen", async ({ request }) => {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  // Raw text: a JavaScript object literal would make "__proto__" its prototype, not a field.
  const body = '{"name":"Proto","context":{"competitors":["Zoho CRM"],"competitor_domains":{"__proto__":["evil.example"],"Zoho CRM":["zoho.com"]}}}';
  const created = await request.post("/api/v1/projects", { headers, data: body });
  expect(created.status()).toBe(400);
  expect((await created.json()).error).toMatchObject({
    code: "invalid_request",
    message: 'context.competitor_domains.__proto__: "__proto__" may not name a field (it would be dropped, not stored)',
  });
  const listed = await (await request.get("/api/v1/projects", { headers })).json();
  expect(listed.items.map((p: { name: string }) => p.name)).not.toContain("Proto");
});

test("a prompt's question id of another shape is refused by its shape, not repeated back in the message", async ({ request }) => {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const project = (await (await request.post("/api/v1/projects", { headers, data: { name: "Question ids" } })).json()).id;
  // A questions analysis of the project: before, a question id it does not have came back whole in the message.
  const asked = await (await request.post("/api/v1/questions", { headers, data: { topic: "crm for agencies", count: 3, project } })).json();
  const answered = await (await request.get(`/api/v1/analyses/${asked.id}?wait=30`, { headers })).json();
  expect(answered.status).toBe("completed");
  const analysis = asked.id;
  for (const questionId of ["Q1", "é".repeat(100_000)]) {
    const prompts = [{ text: "which crm", source: { analysis_id: analysis, question_id: questionId } }];
    for (const path of ["/api/v1/fanouts", "/api/v1/fanouts/estimate"]) {
      const refused = await request.post(path, { headers, data: { prompts, engines: ["chatgpt"], runs: 1, project } });
      expect(refused.status(), path).toBe(400);
      expect((await refused.json()).error.message, path).toBe("prompts[0].source.question_id: must be a question id of the analysis: q followed by its number, such as q3");
    }
  }
});

test("an id of another kind where an analysis goes says which kind to name, through the API and the real CLI", async ({ request }) => {
  const fanoutId = "fo_01JD4M9RZ6XQ7W8V5T3S2R1P0N";
  const refused = await request.post("/api/v1/opportunity-analyses", { headers: { authorization: `Bearer ${token}` }, data: { analysis: fanoutId } });
  expect(refused.status()).toBe(400);
  const said = "analysis: must be a visibility analysis id: va_ followed by 26 letters and digits, such as va_01JD4M9RZ6XQ7W8V5T3S2R1P0N";
  expect((await refused.json()).error.message).toBe(said);
  // Before: "must be an id like fa_01J...", a kind of id `geoscope opportunities` does not take.
  const cli = cliAs({ token: () => token });
  const out = await cli(["opportunities", fanoutId]);
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain(said);
  const generic = await request.get("/api/v1/analyses?project=nope", { headers: { authorization: `Bearer ${token}` } });
  expect(generic.status()).toBe(400);
  expect((await generic.json()).error.message).toMatch(/^project: must be an id: pr_ followed by 26 letters and digits, such as pr_01JD4M9RZ6XQ7W8V5T3S2R1P0N/);
});
