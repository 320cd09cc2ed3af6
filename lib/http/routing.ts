// Which /api/v1 paths and methods exist, from the endpoint registry. The proxy uses it to answer
// unknown paths (404) and wrong methods (405) in the error envelope instead of Next's HTML/empty body.
import type { HttpMethod } from "../schemas/endpoint";

type Template = { method: HttpMethod; path: string };
type Compiled = { method: HttpMethod; segments: string[] };

export type RouteMatch = { kind: "found" } | { kind: "unknown_path" } | { kind: "wrong_method"; allowed: HttpMethod[] };

function compile(templates: readonly Template[]): Compiled[] {
  return templates.map((t) => ({ method: t.method, segments: t.path.split("/").filter(Boolean) }));
}

const isParam = (segment: string) => segment.startsWith("{") && segment.endsWith("}");

function matches(template: string[], path: string[]): boolean {
  return template.length === path.length && template.every((s, i) => isParam(s) || s === path[i]);
}

// Next.js prefers a static segment over a dynamic one at each level, so `/fanouts/estimate` is
// its own route and never `/fanouts/{fanout_id}`. Higher is more specific.
function specificity(template: string[]): string {
  return template.map((s) => (isParam(s) ? "0" : "1")).join("");
}

export function routeMatcher(templates: readonly Template[]) {
  const compiled = compile(templates);
  return (method: string, pathname: string): RouteMatch => {
    const path = pathname.split("/").filter(Boolean);
    const candidates = compiled.filter((c) => matches(c.segments, path));
    if (candidates.length === 0) return { kind: "unknown_path" };
    const best = candidates.map((c) => specificity(c.segments)).sort().at(-1);
    const allowed = [...new Set(candidates.filter((c) => specificity(c.segments) === best).map((c) => c.method))];
    const upper = method.toUpperCase();
    if (allowed.includes(upper as HttpMethod)) return { kind: "found" };
    if (upper === "HEAD" && allowed.includes("GET")) return { kind: "found" };
    if (upper === "OPTIONS") return { kind: "found" };
    return { kind: "wrong_method", allowed };
  };
}
