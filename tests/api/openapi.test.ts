import { validate } from "@readme/openapi-parser";
import { describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { ERROR_STATUS } from "@/lib/http/errors";
import { buildOpenApiDocument } from "@/lib/http/openapi";
import { endpoints } from "@/lib/schemas/registry";

async function fetchDocument() {
  const response = GET();
  expect(response.status).toBe(200);
  return (await response.json()) as {
    openapi: string;
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
    for (const code of Object.keys(ERROR_STATUS)) expect(doc.components.responses[code], code).toBeDefined();
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
