import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoints, metaRoutes } from "@/lib/schemas/registry";

const API_DIR = path.resolve("app/api/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

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
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) if (typeof mod[method] === "function") fromFiles.push(`${method} ${apiPathOf(file)}`);
    }
    const fromRegistry = [...endpoints, ...metaRoutes].map((e) => `${e.method} ${e.path}`);
    expect(fromFiles.sort()).toEqual(fromRegistry.sort());
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
