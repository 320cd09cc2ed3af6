// The MCP tools table of docs/guide.md, written from the tools `geoscope mcp` serves (cli/mcp/tools.ts
// over the registry, lib/schemas/registry.ts), so the guide lists exactly those. `npm run docs:mcp`
// writes it between the markers; tests/unit/cli/mcp-docs.test.ts fails when the guide drifts.
import type { EndpointDefinition } from "../../lib/schemas/endpoint";
import { buildTools } from "./tools";

export const MCP_DOCS_START = "<!-- mcp-tools:start (npm run docs:mcp writes this table from the registry) -->";
export const MCP_DOCS_END = "<!-- mcp-tools:end -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

/** The table: one row a tool, in the order `geoscope mcp` lists them. */
export function mcpToolsTable(endpoints: readonly EndpointDefinition[]): string {
  const tools = buildTools(endpoints);
  const rows = tools.map((tool) => {
    const notes = [tool.waitsOn ? `waits (\`?wait=30\`) until \`${tool.waitsOn}\` is finished` : null, tool.cost ? "starts paid work" : null, tool.readOnly ? "read-only" : null].filter(Boolean);
    return `| \`${tool.name}\` | \`${tool.endpoint}\` | ${cell(tool.definition.summary)}${notes.length ? ` (${notes.join("; ")})` : ""} |`;
  });
  return [`${tools.length} tools.`, "", "| tool | endpoint | what it does |", "|---|---|---|", ...rows].join("\n");
}

/** The guide with its table between the markers replaced; throws when the markers are missing. */
export function withMcpToolsTable(guide: string, endpoints: readonly EndpointDefinition[]): string {
  const start = guide.indexOf(MCP_DOCS_START);
  const end = guide.indexOf(MCP_DOCS_END);
  if (start < 0 || end < start) throw new Error(`docs/guide.md has no MCP tools markers (${MCP_DOCS_START} … ${MCP_DOCS_END})`);
  return `${guide.slice(0, start + MCP_DOCS_START.length)}\n${mcpToolsTable(endpoints)}\n${guide.slice(end)}`;
}
