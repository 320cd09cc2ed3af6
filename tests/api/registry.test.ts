import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isStandIn, METHODS } from "@/lib/http/methods";
import { endpointOf } from "@/lib/http/route";
import { endpoints, metaRoutes, schemaModules } from "@/lib/schemas/registry";

const API_DIR = path.resolve("app/api/v1");
const SCHEMAS_DIR = path.resolve("lib/schemas");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

function apiPathOf(file: string): string {
  const rel = path.relative(API_DIR, path.dirname(file)).split(path.sep).filter(Boolean);
  return `/${rel.map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
}

describe("endpoint registry", () => {
  it("names exactly the operations the route files export, and the reverse", async () => {
    const fromFiles: string[] = [];
    for (const file of routeFiles(API_DIR)) {
      if (file.includes("[[...path]]")) continue;
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) if (typeof mod[method] === "function" && !isStandIn(mod[method])) fromFiles.push(`${method} ${apiPathOf(file)}`);
    }
    const fromRegistry = [...endpoints, ...metaRoutes].map((e) => `${e.method} ${e.path}`);
    expect(fromFiles.sort()).toEqual(fromRegistry.sort());
  });

  it("has every route file bind the endpoint of its own path and method", async () => {
    const metas = metaRoutes.map((r) => `${r.method} ${r.path}`);
    for (const file of routeFiles(API_DIR)) {
      if (file.includes("[[...path]]")) continue;
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) {
        if (typeof mod[method] !== "function" || isStandIn(mod[method])) continue;
        const served = `${method} ${apiPathOf(file)}`;
        const endpoint = endpointOf(mod[method]);
        if (!endpoint) {
          expect(metas, `${served} is not made by route(), so it must be a meta route`).toContain(served);
          continue;
        }
        expect(`${endpoint.method} ${endpoint.path}`, `the endpoint ${served} is bound to (${endpoint.operationId})`).toBe(served);
        expect(endpoints, `${served} binds the registry's own ${endpoint.operationId}`).toContain(endpoint);
      }
    }
  });

  it("lists every schema module of lib/schemas, so the OpenAPI document has all named schemas", async () => {
    for (const entry of readdirSync(SCHEMAS_DIR)) {
      if (!entry.endsWith(".ts")) continue;
      const mod = (await import(path.join(SCHEMAS_DIR, entry))) as Record<string, unknown>;
      const named = Object.values(mod).some((v) => v instanceof z.ZodType && !!z.globalRegistry.get(v)?.id);
      if (named) expect(schemaModules.includes(mod), `lib/schemas/${entry} in schemaModules`).toBe(true);
    }
  });

  it("has every route file answer the methods it does not serve in the envelope, not with Next.js's empty 405", async () => {
    for (const file of routeFiles(API_DIR)) {
      const mod = (await import(file)) as Record<string, unknown>;
      const expected = [...METHODS, ...(isStandIn(mod.GET) ? ["HEAD"] : []), "OPTIONS"];
      for (const method of expected) expect(typeof mod[method], `${method} of ${path.relative(API_DIR, file)}`).toBe("function");
    }
  });

  it("answers any path no route file serves with the envelope's 404", async () => {
    const mod = (await import(path.join(API_DIR, "[[...path]]", "route.ts"))) as Record<string, unknown>;
    for (const method of [...METHODS, "HEAD", "OPTIONS"]) expect(isStandIn(mod[method]), method).toBe(true);
  });

  it("gives every operation a unique operationId and path parameters that match its path", () => {
    const ids = endpoints.map((e) => e.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of endpoints) {
      const inPath = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(e.params?.shape ?? {}).sort(), e.operationId).toEqual(inPath);
    }
  });
});
