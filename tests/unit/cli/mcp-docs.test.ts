// docs/guide.md's MCP tools table is the one `npm run docs:mcp` writes from the registry: a tool
// added, removed or renamed in cli/mcp/tools.ts or lib/schemas/registry.ts without re-running it
// fails here, naming the command that fixes it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_DOCS_END, MCP_DOCS_START, mcpToolsTable, withMcpToolsTable } from "@/cli/mcp/docs";
import { buildTools } from "@/cli/mcp/tools";
import { endpoints } from "@/lib/schemas/registry";

const guide = readFileSync(path.resolve(import.meta.dirname, "..", "..", "..", "docs", "guide.md"), "utf8");

describe("docs/guide.md's MCP tools", () => {
  it("lists exactly the tools geoscope mcp serves, as npm run docs:mcp writes them", () => {
    expect(guide, "docs/guide.md drifted from the MCP tools: run `npm run docs:mcp`").toBe(withMcpToolsTable(guide, endpoints));
  });

  it("names every served tool once, and no other", () => {
    const section = guide.slice(guide.indexOf(MCP_DOCS_START), guide.indexOf(MCP_DOCS_END));
    const listed = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    const served = buildTools(endpoints).map((t) => t.name);
    expect(listed).toEqual(served);
    expect(served.length).toBeGreaterThan(50);
  });

  it("would fail on a guide whose table lacks a tool", () => {
    const table = mcpToolsTable(endpoints);
    const stale = guide.replace(table, table.replace(/^\| `whoami`.*\n/m, ""));
    expect(stale).not.toBe(guide);
    expect(withMcpToolsTable(stale, endpoints)).toBe(guide);
  });
});
