import { validate } from "@readme/openapi-parser";
import { describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { ERROR_STATUS } from "@/lib/http/errors";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { endpoints, schemaModules } from "@/lib/schemas/registry";
import { z } from "zod";

async function fetchDocument() {
  const response = GET();
  expect(response.status).toBe(200);
  return (await response.json()) as {
    openapi: string;
    info: { description: string };
    tags: { name: string; description?: string }[];
    paths: Record<string, Record<string, any>>;
    components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
  };
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("lists every registered endpoint with its schemas and error responses", async () => {
    const doc = await fetchDocument();
    for (const e of endpoints) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op.operationId).toBe(e.operationId);
      const success = op.responses[String(e.status)];
      expect(success, e.operationId).toBeDefined();
      if (e.response) {
        const ref = success.content["application/json"].schema.$ref as string;
        expect(doc.components.schemas[ref.split("/").at(-1)!], ref).toBeDefined();
      }
      if (e.body) expect(op.requestBody.content["application/json"].schema).toBeDefined();
      if (e.cliVersionGate === false) expect(op.responses["426"]).toBeUndefined();
      else expect(op.responses["426"].$ref).toBe("#/components/responses/cli_outdated");
      expect(op.responses["500"].$ref).toBe("#/components/responses/internal_error");
      if (e.auth === "bearer") {
        expect(op.responses["401"]).toBeDefined();
        expect(op.security).toEqual([{ bearer: [] }]);
      } else {
        expect(op.security).toEqual([]);
      }
    }
    // Every error response some operation answers is defined, and no other: no operation answers
    // 405 (a method a path does not serve is another operation) or 502 (an engine failing fails its
    // run, not the request), so those two are described in info.description instead.
    const used = new Set(Object.values(doc.paths).flatMap((path: any) => Object.values(path).flatMap((op: any) => Object.values(op.responses)))
      .map((r: any) => r.$ref?.split("/").at(-1)).filter(Boolean));
    expect(Object.keys(doc.components.responses).sort()).toEqual([...used].sort());
    expect(Object.keys(ERROR_STATUS).filter((code) => !used.has(code)).sort()).toEqual(["engine_error", "method_not_allowed"]);
    expect(doc.info.description).toContain("405 `method_not_allowed`");
    expect(doc.info.description).toContain("502 `engine_error`");
  });

  it("describes every operation and tag, and the text rule once, in info", async () => {
    const doc = await fetchDocument();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) expect(op.description?.length ?? 0, `${method} ${path}`).toBeGreaterThan(30);
    }
    const tags = new Set(endpoints.flatMap((e) => e.tags));
    expect(doc.tags.map((t: { name: string }) => t.name).sort()).toEqual([...tags].sort());
    for (const tag of doc.tags) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(30);
    expect(doc.info.description).toContain("NUL (U+0000) or an unpaired UTF-16 surrogate");
  });

  it("shows the rules the server enforces: engine ids, domains, URLs, defaults a request may leave out, counts", async () => {
    const doc = await fetchDocument();
    const schemas = doc.components.schemas as Record<string, Schema>;
    for (const id of ["PromptRequest", "FanoutRequest"]) expect(schemas[id]!.properties.engines.items.$ref, id).toBe("#/components/schemas/EngineId");
    expect(schemas.EngineId!.enum).toEqual(["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
    const domain = schemas.ProjectCreateRequest!.properties.context.anyOf[0].properties.primary_domain.anyOf[0];
    expect(domain.pattern).toBeDefined();
    expect(domain.description).toContain("domain name");
    const url = schemas.AuditRequest!.properties.url;
    expect(url).toMatchObject({ format: "uri", maxLength: 2048 });
    expect(new RegExp(url.pattern).test("https://acme.com/a")).toBe(true);
    // A source's kind defaults in a request (not required there) and is always present in a fanout.
    expect(schemas.FanoutPromptSourceInput!.required).toEqual(["analysis_id", "question_id"]);
    expect(schemas.FanoutPromptSource!.required).toContain("kind");
    expect(schemas.FanoutPromptInput!.properties.source.anyOf[0].$ref).toBe("#/components/schemas/FanoutPromptSourceInput");
    const counts = schemas.Fanout!.properties.counts;
    expect(Object.keys(counts.properties).sort()).toEqual([...counts.required].sort());
    for (const status of Object.values(counts.properties) as Schema[]) expect(status.minimum).toBe(0);
  });

  it("describes money as decimal strings and the error envelope's four fields", async () => {
    const doc = await fetchDocument();
    const row = doc.components.schemas.PriceRow as { properties: Record<string, { $ref?: string; type?: string }> };
    expect(row.properties.unit_price_usd!.$ref).toBe("#/components/schemas/Usd");
    expect((doc.components.schemas.Usd as { type: string }).type).toBe("string");
    const error = doc.components.schemas.Error as { properties: { error: { required: string[] } } };
    expect(error.properties.error.required.sort()).toEqual(["code", "engine", "message", "retryable"]);
  });

  it("is built the same when the process holds another copy of some schemas (as a Next.js server does)", async () => {
    const serverUrl = "http://localhost:3000/api/v1";
    const before = buildOpenApiDocument({ serverUrl });
    // Another bundle of the built server with its own copy of lib/schemas/common (reached through
    // lib/db/ids) registers Usd, Error… again in zod's one global registry, under the same ids.
    vi.resetModules();
    await import("@/lib/schemas/common");
    expect(buildOpenApiDocument({ serverUrl })).toEqual(before);
  });
});

type Doc = Awaited<ReturnType<typeof fetchDocument>>;
type Schema = Record<string, any>;

/** The component a `$ref` names, or the schema itself. */
function deref(doc: Doc, schema: Schema): Schema {
  return schema.$ref ? (doc.components.schemas[String(schema.$ref).split("/").at(-1)!] as Schema) : schema;
}

/** The non-null alternatives of a property, dereferenced: [schema, allows null]. */
function alternatives(doc: Doc, property: Schema): { schemas: Schema[]; nullable: boolean } {
  const options: Schema[] = property.anyOf ?? property.oneOf ?? [property];
  const nonNull = options.filter((o) => o.type !== "null");
  const nullable = nonNull.length < options.length || (Array.isArray(property.type) && property.type.includes("null"));
  return { schemas: nonNull.map((o) => deref(doc, o)), nullable };
}

function property(doc: Doc, component: string, field: string): Schema {
  const schema = doc.components.schemas[component] as Schema;
  expect(schema?.properties?.[field], `${component}.${field}`).toBeDefined();
  return schema.properties[field];
}

/** Component names reachable from the operations' responses (through $ref, at any depth). */
function responseComponents(doc: Doc): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const ref = (node as Schema).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const id = ref.split("/").at(-1)!;
      if (!found.has(id)) {
        found.add(id);
        visit(doc.components.schemas[id]);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      for (const [status, response] of Object.entries<Schema>(op.responses)) if (status.startsWith("2")) visit(response);
    }
  }
  return found;
}

describe("what a client generator reads from the document", () => {
  it("marks every `T | null` field of a response required and nullable", async () => {
    const doc = await fetchDocument();
    const spec: Record<string, string[]> = {
      Run: ["engine", "model", "batch_id", "fanout_id", "project_id", "created_by", "result", "error", "usage", "charge", "cost_usd", "duration_ms", "started_at", "completed_at"],
      RunSummary: ["engine", "batch_id", "fanout_id", "project_id", "created_by", "source_count", "cited_count", "completed_at"],
      Batch: ["project_id", "created_by"],
      PromptResult: ["searched", "search_calls"],
      SourceObservation: ["domain", "cited", "search_query_observed", "retrieval_observed", "domain_hint", "title"],
      SearchObservation: ["position", "search_call", "provider_search_id"],
      Usage: ["input_tokens", "output_tokens", "reasoning_tokens", "total_tokens", "web_searches"],
      RunError: ["engine"],
      RunList: ["next_cursor"],
      ApiKey: ["workspace_id", "last_used_at", "revoked_at"],
      CLIAuthPoll: ["token", "token_id", "email"],
      Invitation: ["accepted_by"],
      BillingSummary: ["workspace_id"],
      PriceRow: ["engine"],
      Transaction: ["operation_id", "run_id", "actor", "api_key_id"],
      TransactionList: ["next_cursor"],
      UsageRow: ["engine"],
    };
    for (const [component, fields] of Object.entries(spec)) {
      const required = (doc.components.schemas[component] as Schema).required as string[];
      for (const field of fields) {
        expect(required, `${component}.${field} is required`).toContain(field);
        expect(alternatives(doc, property(doc, component, field)).nullable, `${component}.${field} is nullable`).toBe(true);
      }
    }
    // And no response field anywhere is nullable yet optional, except where being absent means
    // something: ProjectContext's (all optional in the spec), what a run sends only on request, and
    // what runs recorded before a field existed lack (a vendor's cost and search count, #45; the city that reached the provider, #42).
    const optional: Record<string, string[] | "all"> = { ProjectContext: "all", Run: ["raw_envelope"], PromptResult: ["provider_cost_usd", "search_count"], LocaleApplied: ["city"] };
    for (const id of responseComponents(doc)) {
      const schema = doc.components.schemas[id] as Schema;
      for (const [field, prop] of Object.entries<Schema>(schema.properties ?? {})) {
        const allowed = optional[id];
        if (allowed === "all" || allowed?.includes(field)) continue;
        if (alternatives(doc, prop).nullable) expect(schema.required ?? [], `${id}.${field}: nullable, so always present`).toContain(field);
      }
    }
  });

  it("keeps money strings where billing off used to send null: held_usd, available_usd, charged_usd", async () => {
    const doc = await fetchDocument();
    for (const [component, field] of [["BillingSummary", "held_usd"], ["BillingSummary", "available_usd"], ["UsageRow", "charged_usd"], ["UsageReport", "total_usd"]] as const) {
      const prop = property(doc, component, field);
      expect(alternatives(doc, prop).nullable, `${component}.${field}`).toBe(false);
      expect(prop.$ref, `${component}.${field}`).toBe("#/components/schemas/Usd");
      expect((doc.components.schemas[component] as Schema).required).toContain(field);
    }
  });

  it("gives every id field its prefix pattern", async () => {
    const doc = await fetchDocument();
    const ids: [string, string, string][] = [
      ["Workspace", "id", "ws"], ["Project", "id", "pr"], ["Project", "workspace_id", "ws"], ["Run", "id", "dr"], ["Run", "batch_id", "rq"],
      ["Run", "fanout_id", "fo"], ["Run", "project_id", "pr"], ["RunSummary", "id", "dr"], ["Batch", "id", "rq"], ["Batch", "project_id", "pr"],
      ["ApiKey", "id", "ak"], ["ApiKey", "workspace_id", "ws"], ["CLIAuthPoll", "token_id", "ct"], ["Invitation", "id", "iv"],
      ["Transaction", "id", "tx"], ["Transaction", "run_id", "dr"], ["Transaction", "api_key_id", "ak"], ["BillingSummary", "workspace_id", "ws"],
      ["Credential", "id", "ak|ct|us"], ["Transaction", "operation_id", "rq|fo|fa|ca|va|dr"],
    ];
    for (const [component, field, prefixes] of ids) {
      const [schema] = alternatives(doc, property(doc, component, field)).schemas;
      expect(schema!.pattern, `${component}.${field}`).toBe(`^(${prefixes})_[0-9A-HJKMNP-TV-Z]{26}$`);
    }
    const batch = property(doc, "Batch", "run_ids");
    expect(batch.items.pattern).toBe("^(dr)_[0-9A-HJKMNP-TV-Z]{26}$");
    expect(alternatives(doc, property(doc, "Member", "id")).schemas[0]!.type).toBe("integer");
  });

  it("enumerates every kind, status, role and bucket", async () => {
    const doc = await fetchDocument();
    const enums: [string, string, string[]][] = [
      ["Run", "kind", ["prompt", "audit", "questions"]],
      ["RunSummary", "kind", ["prompt", "audit", "questions"]],
      ["Batch", "kind", ["prompt"]],
      ["Run", "status", ["queued", "running", "completed", "failed"]],
      ["Batch", "status", ["queued", "running", "completed", "partial", "failed"]],
      ["Credential", "kind", ["api_key", "cli_token", "session"]],
      ["SourceObservation", "resolution", ["direct", "resolved", "unresolved"]],
      ["Workspace", "kind", ["personal", "team"]],
      ["Workspace", "role", ["admin", "member"]],
      ["Member", "role", ["admin", "member"]],
      ["Invitation", "status", ["pending", "accepted", "revoked", "expired"]],
      ["Transaction", "kind", ["promo_grant", "purchase", "usage", "reversal", "adjustment"]],
      ["Transaction", "bucket", ["promo", "purchased"]],
      ["PriceRow", "product", ["prompt", "questions", "audit", "citations", "judge"]],
      ["PriceRow", "unit", ["prompt", "question", "url", "analysis", "run"]],
      ["UsageRow", "product", ["prompt", "questions", "audit", "citations", "judge"]],
      ["RunCharge", "status", ["held", "captured", "released"]],
      ["CLIAuthPoll", "status", ["pending", "slow_down", "approved", "denied", "expired"]],
    ];
    for (const [component, field, values] of enums) {
      const [schema] = alternatives(doc, property(doc, component, field)).schemas;
      expect(schema!.enum, `${component}.${field}`).toEqual(values);
    }
  });

  it("lists 404 where a query filter or a body field names an object, not only where the path does", async () => {
    const doc = await fetchDocument();
    for (const [method, path] of [
      ["get", "/runs"], ["post", "/prompts"], ["post", "/projects"], ["get", "/projects"], ["post", "/api-keys"],
      ["get", "/billing"], ["get", "/billing/transactions"], ["get", "/billing/usage"], ["get", "/runs/{run_id}"],
    ] as const) {
      expect(doc.paths[path]![method].responses["404"], `${method} ${path}`).toEqual({ $ref: "#/components/responses/not_found" });
    }
    for (const [method, path] of [["get", "/me"], ["get", "/api-keys"], ["post", "/workspaces"], ["get", "/pricing"], ["post", "/cli/auth/start"]] as const) {
      expect(doc.paths[path]![method].responses["404"], `${method} ${path}`).toBeUndefined();
    }
  });

  it("shows name bounds (trimmed, 1 to 100; client_name 1 to 200) and prompt bounds as characters", async () => {
    const doc = await fetchDocument();
    const fields: [string, string, number][] = [
      ["ApiKeyCreateRequest", "name", 100], ["WorkspaceCreateRequest", "name", 100], ["WorkspaceUpdateRequest", "name", 100],
      ["ProjectCreateRequest", "name", 100], ["ProjectUpdateRequest", "name", 100], ["CLIAuthStartRequest", "client_name", 200],
    ];
    for (const [component, field, max] of fields) {
      const [schema] = alternatives(doc, property(doc, component, field)).schemas;
      expect(schema, `${component}.${field}`).toMatchObject({ type: "string", minLength: 1, maxLength: max, pattern: "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$" });
      expect(schema!.description, `${component}.${field}`).toContain("trimmed");
    }
    expect(property(doc, "PromptRequest", "prompt")).toMatchObject({ type: "string", minLength: 1, maxLength: 4000 });
  });

  it("describes integer query parameters as integers with their bounds and default", async () => {
    const doc = await fetchDocument();
    const param = (path: string, name: string) => doc.paths[path]!.get.parameters.find((p: Schema) => p.name === name).schema;
    expect(param("/runs", "limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    expect(param("/runs", "wait")).toMatchObject({ type: "integer", minimum: 0, maximum: 30, default: 0 });
    expect(param("/runs/{run_id}", "wait")).toMatchObject({ type: "integer", minimum: 0, maximum: 30, default: 0 });
    expect(param("/billing/usage", "days")).toMatchObject({ type: "integer", minimum: 1, maximum: 366, default: 30 });
  });
});

describe("examples the API explorer shows", () => {
  /** Every named schema of lib/schemas by its component id. */
  function namedSchemas(): Map<string, z.ZodType> {
    const byId = new Map<string, z.ZodType>();
    for (const module of schemaModules) {
      for (const value of Object.values(module)) {
        const id = value instanceof z.ZodType ? z.globalRegistry.get(value)?.id : undefined;
        if (id) byId.set(id, value as z.ZodType);
      }
    }
    return byId;
  }

  it("parses every component's examples with the component's own schema", async () => {
    const doc = await fetchDocument();
    const schemas = namedSchemas();
    let checked = 0;
    for (const [id, component] of Object.entries(doc.components.schemas as Record<string, Schema>)) {
      for (const example of component.examples ?? []) {
        const result = schemas.get(id)!.safeParse(example);
        expect(result.success, `${id}: ${result.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("gives every operation's response and request body an example", async () => {
    const doc = await fetchDocument();
    for (const e of endpoints) {
      const op = doc.paths[e.path]![e.method.toLowerCase()];
      if (e.response) {
        const schema = deref(doc, op.responses[String(e.status)].content["application/json"].schema);
        expect(schema.examples?.length ?? 0, `${e.operationId} response`).toBeGreaterThan(0);
      }
      if (e.body) {
        const schema = deref(doc, op.requestBody.content["application/json"].schema);
        expect(schema.examples?.length ?? 0, `${e.operationId} request body`).toBeGreaterThan(0);
      }
    }
  });

  it("uses realistic values: dates in 2026, ids with their prefix and a valid ULID, money as strings", async () => {
    const doc = await fetchDocument();
    const strings: string[] = [];
    const numbers: number[] = [];
    const walk = (node: unknown) => {
      if (typeof node === "string") strings.push(node);
      else if (typeof node === "number") numbers.push(node);
      else if (node && typeof node === "object") Object.values(node).forEach(walk);
    };
    for (const component of Object.values(doc.components.schemas as Record<string, Schema>)) walk(component.examples ?? []);
    for (const s of strings.filter((s) => /^\d{4}-\d\d-\d\d/.test(s))) expect(s.slice(0, 4), s).toBe("2026");
    // Our ids (upper-case ULIDs), not a provider's search id such as OpenAI's `ws_68f1…`.
    const ours = strings.filter((s) => /^(ws|pr|dr|rq|fo|fa|ca|sh|ak|ct|iv|tx)_[0-9A-Z]+$/.test(s));
    expect(ours.length).toBeGreaterThan(20);
    for (const s of ours) expect(s).toMatch(/^[a-z]{2}_[0-9A-HJKMNP-TV-Z]{26}$/);
    for (const n of numbers) expect(Math.abs(n), String(n)).toBeLessThan(1_000_000);
    const run = (doc.components.schemas.Run as Schema).examples[0];
    expect(run.result.answer.length).toBeGreaterThan(50);
    expect(run.result.sources).toHaveLength(2);
    expect(run.result.searches).toHaveLength(2);
    expect(run.charge.amount_usd).toBe("0.02");
  });
});

// Issue #42, "The contract says what the server accepts": where the document allowed what the
// server refuses, the schema now says the rule, and each rule's examples go both ways through the
// server's own schema as through the document's pattern.
describe("the document refuses what the server refuses", () => {
  const schemaOf = (doc: any, id: string) => doc.components.schemas[id] ?? doc.components.schemas[`${id}Input`];

  it("CountryCode's pattern is exactly the ISO alpha-2 codes the server knows, any case; Language a BCP 47 pattern", async () => {
    const doc: any = await fetchDocument();
    const country = new RegExp(schemaOf(doc, "CountryCode").pattern);
    for (const code of ["DE", "BR", "de", " us ", "Gb"]) expect(country.test(code), code).toBe(true);
    for (const refused of ["XX", "UK", "ZZ", "DEU", "D", ""]) expect(country.test(refused), refused).toBe(false);
    // The same rule as the server's schema, code by code.
    const { CountryCode } = await import("@/lib/schemas/locale");
    for (const a of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") for (const b of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") expect(country.test(a + b), a + b).toBe(CountryCode.safeParse(a + b).success);
    const language = new RegExp(schemaOf(doc, "Language").pattern);
    for (const tag of ["de", "pt-BR", "en-GB", "zh-Hant-TW", "es-419"]) expect(language.test(tag), tag).toBe(true);
    for (const tag of ["not a tag", "", "english", "de_DE", "d"]) expect(language.test(tag), tag).toBe(false);
  });

  it("the domain pattern refuses 0.0 and IP addresses, the budget pattern 0 and more than 1,000,000", async () => {
    const doc: any = await fetchDocument();
    const domainSchema = doc.components.schemas.ProjectCreateRequest.properties.context.anyOf?.[0] ?? doc.components.schemas.ProjectCreateRequest.properties.context;
    const domain = new RegExp(domainSchema.properties.domains.items.pattern);
    for (const refused of ["0.0", "10.0.0.1", "localhost", "acme .com", "ftp://acme.com"]) expect(domain.test(refused), refused).toBe(false);
    for (const accepted of ["acme.com", "https://www.acme.com/pricing", "docs.acme.co.uk", "acme.com."]) expect(domain.test(accepted), accepted).toBe(true);
    const budgetProperty = schemaOf(doc, "MonitorRequest").properties.monthly_budget_usd;
    const budget = new RegExp((budgetProperty.anyOf ?? [budgetProperty]).find((s: any) => s.type === "string").pattern);
    for (const refused of ["0", "0.00", "1000000.01", "2000000", "-1", ".5"]) expect(budget.test(refused), refused).toBe(false);
    for (const accepted of ["25.00", "0.01", "1000000", "999999.999999"]) expect(budget.test(accepted), accepted).toBe(true);
  });

  it("GET /analyses/{analysis_id}/mentions takes only va_ ids; every request string refuses NUL", async () => {
    const doc: any = await fetchDocument();
    const param = doc.paths["/analyses/{analysis_id}/mentions"].get.parameters.find((p: any) => p.name === "analysis_id");
    const va = new RegExp(param.schema.pattern);
    expect(va.test("va_01JAAAAAAAAAAAAAAAAAAAAAAA")).toBe(true);
    expect(va.test("ca_01JAAAAAAAAAAAAAAAAAAAAAAA")).toBe(false);
    expect(va.test("fa_01JAAAAAAAAAAAAAAAAAAAAAAA")).toBe(false);
    // Every string in a request body or parameter says something that refuses NUL.
    const strings: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}[${i}]`));
      if (!node || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (o.type === "string" && !o.enum && !o.const && !o.format) {
        const pattern = typeof o.pattern === "string" ? new RegExp(o.pattern) : null;
        if (!pattern || pattern.test("a\u0000b") || pattern.test("\u0000")) strings.push(at);
      }
      for (const [k, v] of Object.entries(o)) if (k !== "examples" && k !== "responses") walk(v, `${at}.${k}`);
    };
    for (const [path, item] of Object.entries<any>(doc.paths)) for (const [method, op] of Object.entries<any>(item)) walk({ parameters: op.parameters, body: op.requestBody }, `${method} ${path}`);
    for (const id of ["ProjectCreateRequest", "MonitorRequest", "VisibilityAnalysisRequest", "PromptRequest", "FanoutRequest"]) walk(schemaOf(doc, id), id);
    expect(strings).toEqual([]);
  });

  it("the operations state their cross-field rules", async () => {
    const doc: any = await fetchDocument();
    expect(doc.paths["/visibility-analyses"].post.description).toContain("a `judge` that asks for nothing");
    expect(doc.paths["/projects"].post.description).toContain("a key of `context.competitor_domains` that names no competitor");
    expect(doc.paths["/projects/{project_id}"].patch.description).toContain("Merged into the stored context field by field");
    expect(schemaOf(doc, "Location").description).toContain('`{"country":"DE","city":"Tokyo"}` is refused');
  });
});
