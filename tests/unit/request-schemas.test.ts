// Every request body refuses unknown fields at every depth (decisions.md: "Unknown fields are
// refused at every depth"), read from the registry so a new endpoint cannot ship a lenient one.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoints } from "@/lib/schemas/registry";
import { ProjectCreateRequest, ProjectUpdateRequest } from "@/lib/schemas/projects";

type JsonSchema = Record<string, unknown>;

/**
 * Paths of the objects in a JSON Schema (its $defs too) that would take fields they do not name. A
 * map (a record, whose keys the schema checks as `propertyNames`, such as a project context's
 * aliases by entity name) names no fields: every key is checked, none is unknown.
 */
function lenientObjects(schema: JsonSchema): string[] {
  const found: string[] = [];
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${path}[${i}]`));
    if (node === null || typeof node !== "object") return;
    const object = node as JsonSchema;
    const map = "propertyNames" in object && !("properties" in object) && typeof object.additionalProperties === "object";
    if ((object.type === "object" || "properties" in object) && object.additionalProperties !== false && !map) found.push(path || "(root)");
    for (const [key, value] of Object.entries(object)) visit(value, `${path}/${key}`);
  };
  visit(schema, "");
  return found;
}

describe("request bodies", () => {
  it("are strict objects at every depth, as the server reads them (io: input)", () => {
    const bodies = endpoints.filter((e) => e.body);
    expect(bodies.length).toBeGreaterThan(10);
    for (const endpoint of bodies) {
      const schema = z.toJSONSchema(endpoint.body!, { io: "input", unrepresentable: "any" }) as JsonSchema;
      expect(lenientObjects(schema), endpoint.operationId).toEqual([]);
    }
  });

  it("refuse an unknown field inside a project's context, naming it", () => {
    for (const schema of [ProjectCreateRequest, ProjectUpdateRequest]) {
      const result = schema.safeParse({ name: "x", context: { brands: ["Acme"], compettitors: ["Globex"] } });
      expect(result.success).toBe(false);
      expect(result.error!.issues).toMatchObject([{ code: "unrecognized_keys", keys: ["compettitors"], path: ["context"] }]);
    }
  });
});
