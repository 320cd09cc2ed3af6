// The contract against the built server (issue #42, "The contract says what the server accepts"):
// requests generated from the served openapi.json itself, by json-schema-faker (a kept generator,
// pinned), must be accepted, or refused only for a reason the document states for that operation.
// First the documented examples, as a generated client would send them (ids replaced by those of
// the objects made before), must create each object: a project, a questions analysis, a prompt
// batch, a fanout, a citation and a visibility analysis, a monitor. Then, for every operation with
// a JSON body or parameters, generated requests (fixed seeds) with every id a seeded object's of
// that kind. Starts its own server (own port, own PGlite folder) besides the shared e2e one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { generate } from "json-schema-faker";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";

type Json = Record<string, any>;
type Operation = { method: string; path: string; op: Json };

const ID = /^([a-z]{2})_[0-9A-HJKMNP-TV-Z]{26}$/;
const SEEDS = [1, 2, 3, 4, 5];

/**
 * The only 400s a generated request may get: each a message pattern and the words of the
 * document (the operation's description, or a description of a schema or parameter the operation
 * uses) that state the rule. The test checks the words are there for that operation, so a rule
 * the document stops stating fails here. Everything else must be 2xx, or a documented 402, 403,
 * 404 or 409 of the operation's own responses.
 */
const REFUSALS: { message: RegExp; says: string | string[] }[] = [
  // A well-formed tag whose language or region CLDR does not know: a pattern cannot list them.
  { message: /language: unknown language tag/, says: "is refused with 400 `unknown language tag`" },
  // A city of another country (Location's description).
  { message: /city: "[^"]*" is not a city of/, says: "is refused with 400 naming both" },
  // Cross-field rules, each stated in its operation's description.
  { message: /judge\.sentiment: asks for nothing/, says: "a `judge` that asks for nothing" },
  { message: /entities: must be given when use_project_context is false/, says: "`use_project_context: false` without `entities`" },
  { message: /entities\[\d+\]\.name: repeats entities\[\d+\]\.name/, says: "differ only in case or spaces" },
  { message: /entities: (are required|the project's context names no brand)/, says: "names no brand or competitor" },
  { message: /context\.(aliases|competitor_domains)\.[^:]*: names no (brand or )?competitor/, says: "names no competitor" },
  { message: /schedule\.weekday: is only for every: "week"/, says: ['a weekday is only for `every: "week"`', 'Weeks only, refused with 400 with `every: "day"`'] },
  { message: /^(engines|judge\.engine): .*(not enabled|not an enabled engine|are not enabled engines)/, says: "not enabled on this server" },
  { message: /max_executions/, says: "max_executions" },
  { message: /prompts\[\d+\]\.source: (no questions analysis|questions analysis \S+ has no question)/, says: "or a `question_id` it does not have, is refused with 400" },
  // What no schema can know: a webhook URL's host must resolve to a public address.
  { message: /alerts\.webhook_url: /, says: "an address that is not public" },
  // A filter naming no entity of the analysis or monitor, an engine or a version the monitor's series lacks.
  { message: /^entity: /, says: ["a name the analysis does not track is refused", "Another name is 400 listing them"] },
  { message: /^engine: "[^"]*" is not an engine of this monitor's version/, says: "An engine the version does not run is 400" },
  { message: /^version: must be a whole number from 1 to/, says: "Above the current version is 400" },
  // An analysis's own names and engines: a brand it does not track, an engine with no run among the ids, the same engine twice.
  { message: /^brand: "[^"]*" is not tracked by this analysis/, says: "a `brand` it does not track" },
  // An opportunity list of an analysis of another kind (its field's description).
  { message: /^analysis: \S+ is an? [a-z ]+; opportunities are read from a visibility analysis/, says: "an analysis of another kind answers 400 naming it" },
  { message: /^(a|b): \S+ has no runs among those the ids name/, says: "400 naming the one that has none" },
  { message: /^b: must differ from a/, says: "It must differ from `a`" },
  // A device code only POST /cli/auth/start gives.
  { message: /^device_code: unknown device code/, says: "no login was started with" },
];

function describedWords(operation: Operation, doc: Json): string {
  const words: string[] = [operation.op.description ?? "", operation.op.summary ?? ""];
  const seen = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== "object") return;
    const o = node as Json;
    if (typeof o.$ref === "string") {
      const id = o.$ref.split("/").pop()!;
      if (!seen.has(id)) {
        seen.add(id);
        walk(doc.components.schemas[id]);
      }
    }
    if (typeof o.description === "string") words.push(o.description);
    for (const [key, value] of Object.entries(o)) if (key !== "examples" && key !== "responses") walk(value);
  };
  walk({ parameters: operation.op.parameters, body: operation.op.requestBody });
  return words.join("\n");
}

/** Every id of a kind we have made replaced by that one: a generated client uses ids it got back. */
function withIds<T>(value: T, ids: Map<string, string>): T {
  if (typeof value === "string") {
    const kind = ID.exec(value)?.[1];
    return (kind && ids.has(kind) ? ids.get(kind)! : value) as T;
  }
  if (Array.isArray(value)) return value.map((v) => withIds(v, ids)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, ids)])) as T;
  return value;
}

function namesAnId(value: unknown): boolean {
  if (typeof value === "string") return ID.test(value);
  if (Array.isArray(value)) return value.some(namesAnId);
  if (value && typeof value === "object") return Object.values(value).some(namesAnId);
  return false;
}

test("the documented examples create each object; a context field PATCHed alone is merged; a city of another country is refused; requests generated from openapi.json are accepted, or refused for a reason the document states", async () => {
  test.setTimeout(900_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-contract-"));
  const env = serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir, GEOSCOPE_VALIDATE_RESPONSES: "true" });
  let server: NextServer | undefined;
  try {
    await runScript("db-migrate", [], env);
    server = nextServer(await freePort(), env);
    await server.start();
    const base = `${server.base}/api/v1`;
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "contract@example.com", "--api-key", "contract"], env)) as { workspace_id: string; api_key: { key: string } };
    await runScript("admin", ["credit:add", "--workspace", created.workspace_id, "--usd", "5000.00"], env);
    const token = created.api_key.key;

    const send = async (method: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${base}${pathname}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      let json: Json | undefined;
      try {
        json = text ? (JSON.parse(text) as Json) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, text, body: json };
    };

    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
    const schemaOf = (ref: Json): Json => (ref.$ref ? doc.components.schemas[String(ref.$ref).split("/").pop()!] : ref);
    const operation = (method: string, p: string): Operation => ({ method, path: p, op: doc.paths[p][method.toLowerCase()] });
    const example = (o: Operation) => schemaOf(o.op.requestBody.content["application/json"].schema).examples[0] as Json;

    // 1. The documented examples, ids replaced by ours, create each object.
    const ids = new Map<string, string>([["ws", created.workspace_id]]);
    const finished = async (pathname: string, status: (b: Json) => string) => {
      for (let i = 0; i < 20; i++) {
        const read = await send("GET", `${pathname}?wait=30`);
        if (["completed", "partial", "failed"].includes(status(read.body!))) return read.body!;
      }
      throw new Error(`${pathname} did not finish`);
    };
    const make = async (method: string, p: string, kind: string, idOf: (b: Json) => string) => {
      const o = operation(method, p);
      const body = withIds(example(o), ids);
      const res = await send(method, p, body);
      expect([201, 202], `${method} ${p} with its documented example ${JSON.stringify(body)}: ${res.text}`).toContain(res.status);
      ids.set(kind, idOf(res.body!));
      return res.body!;
    };
    await make("POST", "/projects", "pr", (b) => b.id);
    const questions = await make("POST", "/questions", "fa", (b) => b.id);
    await finished(`/analyses/${questions.id}`, (b) => b.status);
    const batch = await make("POST", "/prompts", "rq", (b) => b.batch.id);
    ids.set("dr", batch.runs[0].id);
    await finished(`/batches/${batch.batch.id}`, (b) => b.batch.status);
    const fanout = await make("POST", "/fanouts", "fo", (b) => b.id);
    expect((await finished(`/fanouts/${fanout.id}`, (b) => b.status)).status).toBe("completed");
    await make("POST", "/citation-analyses", "ca", (b) => b.id);
    await make("POST", "/visibility-analyses", "va", (b) => b.id);
    await make("POST", "/monitors", "mo", (b) => b.id);
    for (const [kind, id] of ids) expect(id, kind).toMatch(ID);

    // The context the example made, then a PATCH of one context field alone: merged, not replaced,
    // so HubSpot stays a competitor (decisions.md "Updating a project's context").
    const project = ids.get("pr")!;
    const domains = await send("PATCH", `/projects/${project}`, { context: { competitor_domains: { HubSpot: ["https://www.hubspot.com/products/crm"] } } });
    expect(domains.status, domains.text).toBe(200);
    expect(domains.body!.context.competitors).toEqual(example(operation("POST", "/projects")).context.competitors);
    expect(domains.body!.context.competitor_domains).toEqual({ HubSpot: ["www.hubspot.com"] });

    // A city of another country is refused naming both; one the place data lacks is run, and
    // each run says which city reached its provider.
    const tokyo = await send("POST", "/prompts", { prompt: "best crm", project, engines: ["chatgpt"], location: { country: "DE", city: "Tokyo" } });
    expect(tokyo.status, tokyo.text).toBe(400);
    expect(tokyo.body!.error.message).toMatch(/^location\.city: "Tokyo" is not a city of Germany \(DE\) in the place data: it is in Japan \(JP\)/);
    const village = await send("POST", "/prompts", { prompt: "best crm", project, engines: ["chatgpt", "gemini"], location: { country: "DE", city: "Kleinkleckersdorf" } });
    expect(village.status, village.text).toBe(202);
    const done = await finished(`/batches/${village.body!.batch.id}`, (b) => b.batch.status);
    const applied = Object.fromEntries(done.runs.map((r: Json) => [r.engine, r.result.locale_applied]));
    expect(applied).toEqual({ chatgpt: { location: true, language: false, city: "Kleinkleckersdorf" }, gemini: { location: true, language: false, city: "Berlin" } });

    // 2. Generated requests for every operation with a JSON body or parameters, DELETEs last.
    const operations: Operation[] = [];
    for (const [p, item] of Object.entries<Json>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const o = operation(method.toUpperCase(), p);
        if (o.op.requestBody || o.op.parameters?.length) operations.push(o);
      }
    }
    operations.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    // The CLI's own sign-out acts on the credential it is sent: not one to generate for with ours.
    const skipped = new Set(["DELETE /cli/auth/token"]);
    const unexplained: string[] = [];
    let sent = 0;
    let accepted = 0;
    const refusedFor = new Map<string, number>();
    for (const o of operations) {
      if (skipped.has(`${o.method} ${o.path}`)) continue;
      const words = describedWords(o, doc);
      const codes = Object.keys(o.op.responses);
      for (const seed of SEEDS) {
        const options = { seed, maxItems: 3, maxDepth: 10, optionalsProbability: 0.5, useExamplesValue: false, useDefaultValue: false };
        let pathname = o.path;
        const query = new URLSearchParams();
        for (const [i, param] of (o.op.parameters ?? []).entries()) {
          // A cursor is only ever a previous page's; waiting is not what is under test.
          if (param.in === "query" && (param.name === "cursor" || param.name === "wait")) continue;
          if (param.in === "query" && !param.required && (seed + i) % 2 === 0) continue;
          const value = withIds(await generate({ ...param.schema, components: doc.components }, { ...options, seed: seed * 100 + i }), ids);
          if (param.in === "path") pathname = pathname.replace(`{${param.name}}`, encodeURIComponent(String(value)));
          else query.set(param.name, String(value));
        }
        const body = o.op.requestBody
          ? withIds(await generate({ ...o.op.requestBody.content["application/json"].schema, components: doc.components }, options), ids)
          : undefined;
        const target = `${pathname}${query.size ? `?${query}` : ""}`;
        const res = await send(o.method, target, body);
        sent++;
        const what = `${o.method} ${target} ${body === undefined ? "" : JSON.stringify(body)} -> ${res.status} ${res.text.slice(0, 400)}`;
        if (res.status < 300) {
          accepted++;
          continue;
        }
        if (res.status >= 500 || !res.body?.error || !codes.includes(String(res.status))) {
          unexplained.push(`undocumented status: ${what}`);
          continue;
        }
        const { code, message } = res.body.error as { code: string; message: string };
        // 404 for an id the caller has no object of: in the path, anywhere in the request, or
        // where the document says a field's id answers 404 (the run ids of an analysis).
        const pathId = o.op.parameters?.some((p: Json) => p.in === "path");
        if (code === "not_found" && (pathId || namesAnId(body) || namesAnId(Object.fromEntries(query)) || words.includes("answers 404 naming it"))) continue;
        if (code === "insufficient_credit" || code === "conflict" || code === "permission_denied") continue;
        const refusal = REFUSALS.find((r) => r.message.test(message));
        const says = refusal ? [refusal.says].flat() : [];
        if (code === "invalid_request" && says.some((w) => words.includes(w))) {
          refusedFor.set(refusal!.message.source, (refusedFor.get(refusal!.message.source) ?? 0) + 1);
          continue;
        }
        unexplained.push(`${refusal ? `the document does not say "${says.join('" or "')}" for this operation` : "refused for a reason the document does not state"}: ${what}`);
      }
    }
    console.log(`contract: ${sent} generated requests to ${operations.length - skipped.size} operations, ${accepted} accepted; documented refusals: ${JSON.stringify(Object.fromEntries(refusedFor))}`);
    expect(unexplained, unexplained.join("\n\n")).toEqual([]);
    // Most generated requests go through: the document describes what the server takes.
    expect(accepted / sent).toBeGreaterThan(0.5);
    expect(server.stderr()).not.toMatch(/⨯|unhandled error/);
  } finally {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
