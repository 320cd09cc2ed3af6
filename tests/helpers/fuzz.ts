// Fuzzing the route handlers of every endpoint with a body or a query (tests/api/fuzz.test.ts,
// scripts/fuzz.ts): valid inputs generated from the request schema, then mutated
// (./fuzz-inputs.ts). Every answer must be below 500 (and, in `npm run fuzz`, come within SLOW_MS:
// `npm test` asserts no durations, a loaded CI machine must not fail it), every 4xx must be
// the error envelope and leave the database as it was, and what the spec or decisions.md refuses
// must be refused (400 naming the field, 404 for a path segment naming nothing). Seeded: case i
// of an endpoint is the same for the same seed, whatever the number of cases. No vitest import.
import fc from "fast-check";
import { startDeviceLogin } from "@/lib/auth/create";
import { runBillingAdminCommand } from "@/lib/billing/admin";
import { ERROR_CODES, ERROR_STATUS } from "@/lib/http/errors";
import type { EndpointDefinition } from "@/lib/schemas/endpoint";
import { endpoints } from "@/lib/schemas/registry";
import { createWorkspace } from "@/lib/schemas/workspaces";
import { readingsKept } from "@/lib/visibility/run-observations";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { noCapacityDriver } from "./drivers";
import { dbFingerprint, fingerprintChanges } from "./fingerprint";
import {
  BODY_MUTATIONS,
  JUNK_SEGMENTS,
  mutateBody,
  mutateQuery,
  QUERY_MUTATIONS,
  serialize,
  validInput,
  validQuery,
  type Draw,
  type Expectation,
  type InputPools,
  type Mutated,
} from "./fuzz-inputs";
import { jsonSchemaOf, type Schema } from "./json-schema";
import { seedObjects, type WorkspaceObjects } from "./objects";
import { person, type Person } from "./people";
import { encodeSegment, fillPath, handlerOf, send, sendJson, type Handler, type RawRequest, type RawResponse } from "./routes";

/**
 * No request here needs more than milliseconds; one that takes this long does work out of
 * proportion to its input (a walk quadratic in nesting depth once took 16 s on an 80 KB body).
 * Generous, so that a loaded machine never trips it.
 */
export const SLOW_MS = 10_000;

// ---------------------------------------------------------------------------------------------
// The world the fuzzers act in

export type FuzzWorld = {
  alice: Person;
  team: WorkspaceObjects;
  pools: InputPools;
  /** Puts back the work driver prepareFuzzWorld() replaced. */
  restoreDriver(): void;
};

/**
 * Alice, her team workspace with one finished object of every kind and a plain member, credit
 * enough for anything, and then a work driver that accepts work but starts none: nothing changes
 * the database between two requests, so "a refused request changed nothing" is exact.
 */
export async function prepareFuzzWorld(): Promise<FuzzWorld> {
  const alice = await person("alice@example.com");
  const carol = await person("carol@example.com");
  const teamId = (await sendJson(createWorkspace, { token: alice.cliToken, body: { name: "Fuzzed team" }, expected: 201 })).id as string;
  await runBillingAdminCommand("credit:add", ["--workspace", teamId, "--usd", "100000.00", "--note", "fuzz"]);
  const team = await seedObjects(alice, teamId, { member: carol, team: true });
  const deviceCode = (await startDeviceLogin("fuzz laptop")).device_code;
  await localDriver().drained();
  const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
  const previous = holder.__geoscopeLocalDriver;
  holder.__geoscopeLocalDriver = noCapacityDriver();
  const ids: Record<string, string[]> = {
    ws: [team.workspaceId, alice.workspaceId],
    pr: [team.projectId],
    dr: [team.promptRunId, team.auditRunId, team.fanoutRunId],
    rq: [team.batchId],
    fo: [team.fanoutId],
    fa: [team.questionsAnalysisId],
    ca: [team.citationAnalysisId],
    va: [team.visibilityAnalysisId],
    cm: [team.comparisonAnalysisId],
    ak: [team.apiKeyId],
    iv: [team.invitationId!],
    mo: [team.monitorId],
    mt: [team.tickId],
  };
  return {
    alice,
    team,
    pools: { ids, questionIds: team.questionIds, deviceCode },
    restoreDriver: () => void (holder.__geoscopeLocalDriver = previous),
  };
}

/** Every endpoint with a body or a query: what is fuzzed. */
export function fuzzedEndpoints(): EndpointDefinition[] {
  return endpoints.filter((e) => e.body || e.query);
}

/** The path parameters of `endpoint`, naming Alice's own (finished) objects. */
function paramsFor(endpoint: EndpointDefinition, world: FuzzWorld): Record<string, string> {
  const t = world.team;
  const byName: Record<string, string | undefined> = {
    run_id: t.promptRunId,
    batch_id: t.batchId,
    fanout_id: t.fanoutId,
    // Only a visibility analysis has mentions (another kind's id is 404 there, as a missing one).
    analysis_id: endpoint.path.endsWith("/mentions") ? t.visibilityAnalysisId : t.questionsAnalysisId,
    workspace_id: t.workspaceId,
    member_id: t.memberId === undefined ? undefined : String(t.memberId),
    project_id: t.projectId,
    key_id: t.apiKeyId,
    invitation_id: t.invitationId,
    monitor_id: t.monitorId,
    tick_id: t.tickId,
  };
  return Object.fromEntries(
    Object.keys(endpoint.params?.shape ?? {}).map((name) => {
      const value = byName[name];
      if (value === undefined) throw new Error(`paramsFor() in tests/helpers/fuzz.ts has no object for {${name}} of ${endpoint.operationId}`);
      return [name, value];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Cases

export type FuzzCase = {
  index: number;
  mutation: string;
  expect: Expectation;
  /** For a 400: the field its message must name, or one of the objects holding it (`enclosing`, as the API writes paths) refused as a whole. */
  field?: string;
  enclosing?: string[];
  credential: "CLI token" | "API key" | "none";
  request: RawRequest;
  /** The junk of a "junk path segment" case. */
  junk?: string;
};

export type FuzzTarget = { endpoint: EndpointDefinition; handler: Handler; params: Record<string, string>; world: FuzzWorld };

export async function fuzzTarget(endpoint: EndpointDefinition, world: FuzzWorld): Promise<FuzzTarget> {
  return { endpoint, handler: await handlerOf(endpoint), params: paramsFor(endpoint, world), world };
}

/** An endpoint's mutations, in the order its cases take them. */
export function mutationsOf(endpoint: EndpointDefinition): string[] {
  return [...(endpoint.body ? BODY_MUTATIONS : QUERY_MUTATIONS), ...(endpoint.params ? ["junk path segment"] : [])];
}

/** The seed of one endpoint's cases: the run's seed mixed with its operationId (FNV-1a), so endpoints differ. */
function endpointSeed(seed: number, operationId: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of operationId) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h | 0;
}

/** Cases 0 to count - 1 of an endpoint: case i applies mutation i mod (its number of mutations). */
export function casesFor(target: FuzzTarget, seed: number, count: number): FuzzCase[] {
  const { endpoint, world, params } = target;
  const input = endpoint.body ?? endpoint.query;
  const schema: Schema = input ? jsonSchemaOf(input) : { root: { type: "object" }, defs: {} };
  const draw = fc.record(
    { base: validInput(schema, world.pools), a: fc.nat(), b: fc.nat(), c: fc.nat(), flag: fc.boolean() },
    { noNullPrototype: true },
  );
  const mutations = mutationsOf(endpoint);
  return fc.sample(draw, { seed: endpointSeed(seed, endpoint.operationId), numRuns: count }).map((sampled, index) => {
    const d = sampled as Draw;
    const kind = mutations[index % mutations.length]!;
    let url = fillPath(endpoint.path, params);
    let caseParams = params;
    let m: Mutated;
    let junk: string | undefined;
    if (kind === "junk path segment") {
      const name = Object.keys(params)[d.a % Object.keys(params).length]!;
      const [segment, asIs] = JUNK_SEGMENTS[d.b % JUNK_SEGMENTS.length]!;
      junk = segment;
      caseParams = { ...params, [name]: segment };
      url = endpoint.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === name && asIs ? segment : encodeSegment(caseParams[p]!)));
      const shown = segment.length > 40 ? `${segment.slice(0, 10)}… (${segment.length} characters)` : segment;
      m = endpoint.body
        ? { mutation: `{${name}} = ${JSON.stringify(shown)}`, expect: "404", body: serialize(d.base), contentType: "application/json" }
        : { mutation: `{${name}} = ${JSON.stringify(shown)}`, expect: "404", search: validQuery(d.base) };
    } else {
      m = endpoint.body ? mutateBody(kind, d, schema, Math.floor(index / mutations.length)) : mutateQuery(kind, d, schema);
    }
    const credential: FuzzCase["credential"] = endpoint.auth === "none" ? "none" : d.c % 4 === 3 ? "API key" : "CLI token";
    const headers: Record<string, string> = {};
    if (credential !== "none") headers.authorization = `Bearer ${credential === "API key" ? world.alice.apiKey : world.alice.cliToken}`;
    if (m.contentType) headers["content-type"] = m.contentType;
    return {
      index,
      mutation: m.mutation,
      expect: m.expect,
      field: m.field,
      enclosing: m.enclosing,
      credential,
      request: { method: endpoint.method, url: `${url}${m.search ?? ""}`, params: caseParams, headers, body: m.body },
      junk,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Checks

type Fingerprint = Record<string, unknown>;

/**
 * How a case reaches the server: in-process (the route handler, as by default), or over HTTP to a
 * built server (`overHttp`), where Next.js and Node.js see the request first.
 */
export type Transport = {
  send(target: FuzzTarget, c: FuzzCase): Promise<RawResponse>;
  /** Waits until the server's background work from earlier cases has finished, so the next fingerprint is the one a refused request must leave alone. */
  settle?(): Promise<void>;
  /** What Node.js or Next.js answer on the wire before any route runs, where that differs from the handler's answer. */
  onTheWire?(c: FuzzCase): { status: number[]; why: string } | undefined;
};

/** In this process: settled once the readings and answers' structures analyses keep after answering are kept (lib/visibility/run-observations.ts). */
export const inProcess: Transport = { send: (target, c) => send(target.handler, c.request), settle: readingsKept };

/** Node.js's default limit on a request's head (request line and headers): above it, Node answers 431 itself. */
const NODE_MAX_HEAD_BYTES = 16 * 1024;

/**
 * A URL whose head is over Node.js's limit, cut to just over it (4 KiB more): Node refuses both
 * alike (431), but a head of megabytes is still being sent when Node closes the connection, and a
 * close with unread bytes is a TCP reset that can arrive before the 431 is read ("fetch failed").
 * Cut at a whole percent-escape, so the URL stays well formed.
 */
function overLimitCut(url: string): string {
  if (Buffer.byteLength(url) <= NODE_MAX_HEAD_BYTES) return url;
  return url.slice(0, NODE_MAX_HEAD_BYTES + 4096).replace(/%[0-9A-Fa-f]?$/, "");
}

/** Sends each case as an HTTP request to the built server at `base` (http://host:port), byte for byte (a head over Node's limit cut to just over it). */
export function overHttp(base: string, settle: () => Promise<void>): Transport {
  return {
    settle,
    async send(_target, c) {
      const init: RequestInit = { method: c.request.method, headers: c.request.headers ?? {}, redirect: "manual" };
      if (c.request.body !== undefined) init.body = c.request.body as BodyInit;
      const response = await fetch(`${base}/api/v1${overLimitCut(c.request.url)}`, init);
      return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") ?? "" };
    },
    onTheWire(c) {
      if (Buffer.byteLength(c.request.url) > NODE_MAX_HEAD_BYTES) return { status: [431], why: "a request head over 16 KiB, refused by Node.js's HTTP parser" };
      // `/runs/` and `/runs/..` are other paths on the wire: Next.js redirects to the path without the segment.
      if (c.junk === "" || c.junk === "..") return { status: [308, 404], why: "an empty or dot segment, normalised by Next.js" };
      return undefined;
    },
  };
}

/** Sends one case and checks its answer; `before` is the database as the previous case left it. */
export async function runCase(
  target: FuzzTarget,
  c: FuzzCase,
  before: Fingerprint,
  slowMs?: number,
  transport: Transport = inProcess,
): Promise<{ problems: string[]; after: Fingerprint; status: number; response: string }> {
  const started = performance.now();
  let res: RawResponse;
  try {
    res = await transport.send(target, c);
  } catch (error) {
    return { problems: [`the request failed instead of being answered: ${String(error)}`], after: await dbFingerprint(), status: 0, response: "" };
  }
  const took = performance.now() - started;
  const after = await dbFingerprint();
  const problems: string[] = [];
  if (slowMs !== undefined && took > slowMs) problems.push(`took ${(took / 1000).toFixed(1)} s to answer`);
  const text = res.text.length > 400 ? `${res.text.slice(0, 400)}…` : res.text;
  const wire = transport.onTheWire?.(c);
  if (wire) {
    // Answered before any route runs (Node.js, Next.js's normalisation): not the envelope, and nothing can have changed.
    if (!wire.status.includes(res.status)) problems.push(`expected ${wire.status.join(" or ")} for ${wire.why}, got ${res.status}`);
    const changes = fingerprintChanges(before, after);
    if (changes.length) problems.push(`a ${res.status} changed the database: ${changes.join("; ")}`);
    return { problems, after, status: res.status, response: `${res.status} ${res.contentType} ${text}` };
  }
  if (res.status >= 500) problems.push(`answered ${res.status}`);
  if (res.status >= 400) {
    problems.push(...envelopeProblems(res.status, res.text, res.contentType));
    const changes = fingerprintChanges(before, after);
    if (changes.length) problems.push(`a ${res.status} changed the database: ${changes.join("; ")}`);
  } else if (res.status !== 204 && safeJson(res.text) === undefined) {
    problems.push(`a ${res.status} whose body is not JSON`);
  }
  const error = (safeJson(res.text) as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (c.expect === "404" && res.status !== 404) problems.push(`expected 404 not_found, got ${res.status}`);
  if (c.expect === "400") {
    if (res.status !== 400 || error?.code !== "invalid_request") {
      problems.push(`expected 400 invalid_request, got ${res.status}${error ? ` ${String(error.code)}` : ""}`);
    } else if (c.field && !String(error.message).includes(c.field) && !(c.enclosing ?? []).some((path) => String(error.message).includes(`${path}: `))) {
      problems.push(`the 400's message does not name the field ${JSON.stringify(c.field)}`);
    }
  }
  return { problems, after, status: res.status, response: `${res.status} ${res.contentType} ${text}` };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What keeps a 4xx or 5xx body from being exactly `{"error":{code,message,engine,retryable}}` with the code's status. */
function envelopeProblems(status: number, text: string, contentType: string): string[] {
  if (!contentType.includes("application/json")) return [`a ${status} with Content-Type ${JSON.stringify(contentType)}, not the JSON envelope`];
  const body = safeJson(text) as { error?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== "object" || Object.keys(body).join() !== "error" || !body.error) return [`a ${status} whose body is not the envelope`];
  const e = body.error;
  const problems: string[] = [];
  if (Object.keys(e).sort().join() !== "code,engine,message,retryable") problems.push(`envelope fields are ${Object.keys(e).join(", ")}`);
  const known = typeof e.code === "string" && (ERROR_CODES as readonly string[]).includes(e.code);
  if (!known) problems.push(`unknown error code ${JSON.stringify(e.code)}`);
  else if (ERROR_STATUS[e.code as keyof typeof ERROR_STATUS] !== status) problems.push(`code ${e.code} is not status ${status}`);
  if (typeof e.message !== "string" || e.message === "") problems.push("no message");
  if (e.engine !== null && typeof e.engine !== "string") problems.push("engine is neither null nor a string");
  if (typeof e.retryable !== "boolean") problems.push("retryable is not a boolean");
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Running and reporting

export type FuzzFailure = { endpoint: string; seed: number; index: number; mutation: string; problems: string[]; request: string; response: string };

/** The request of a case as text a person can read and replay. */
function describeRequest(c: FuzzCase): string {
  const headers = Object.entries(c.request.headers ?? {})
    .map(([k, v]) => `${k}: ${k === "authorization" ? `Bearer <Alice's ${c.credential}>` : v}`)
    .join("; ");
  const url = c.request.url.length > 300 ? `${c.request.url.slice(0, 300)}… (${c.request.url.length} characters)` : c.request.url;
  let body = "no body";
  if (c.request.body !== undefined) {
    const bytes = typeof c.request.body === "string" ? new TextEncoder().encode(c.request.body) : c.request.body;
    const text = new TextDecoder().decode(bytes);
    body = `body of ${bytes.length} bytes ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text)}`;
  }
  return `${c.request.method} /api/v1${url} [${headers}] ${body}`;
}

/** Runs cases 0 to count - 1 of one endpoint (or only case `only`), collecting every failure. */
export async function fuzzEndpoint(
  target: FuzzTarget,
  options: { seed: number; count: number; only?: number; slowMs?: number; transport?: Transport },
): Promise<{ cases: number; failures: FuzzFailure[]; statuses: Record<number, number> }> {
  const { seed, count, only, slowMs, transport = inProcess } = options;
  const cases = casesFor(target, seed, only === undefined ? count : only + 1).filter((c) => only === undefined || c.index === only);
  const failures: FuzzFailure[] = [];
  const statuses: Record<number, number> = {};
  let before = await dbFingerprint();
  for (const c of cases) {
    if (transport.settle) {
      await transport.settle();
      before = await dbFingerprint();
    }
    const { problems, after, status, response } = await runCase(target, c, before, slowMs, transport);
    before = after;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (problems.length === 0) continue;
    const { index, mutation } = c;
    failures.push({ endpoint: target.endpoint.operationId, seed, index, mutation, problems, request: describeRequest(c), response });
  }
  return { cases: cases.length, failures, statuses };
}

export function formatFailure(f: FuzzFailure): string {
  return [
    `${f.endpoint} case ${f.index}: ${f.mutation}`,
    `  broken:    ${f.problems.join("; ")}`,
    `  request:   ${f.request}`,
    `  response:  ${f.response}`,
    `  reproduce: npm run fuzz -- --seed ${f.seed} --endpoint ${f.endpoint} --case ${f.index}`,
  ].join("\n");
}
