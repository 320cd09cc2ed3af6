// `npm run docs:mcp`: writes docs/guide.md's MCP tools table from the registry (cli/mcp/docs.ts).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withMcpToolsTable } from "../cli/mcp/docs";
import { endpoints } from "../lib/schemas/registry";

const guidePath = path.resolve(import.meta.dirname, "..", "docs", "guide.md");
const before = readFileSync(guidePath, "utf8");
const after = withMcpToolsTable(before, endpoints);
writeFileSync(guidePath, after);
console.log(after === before ? "docs/guide.md: MCP tools table already up to date" : "docs/guide.md: MCP tools table written");
