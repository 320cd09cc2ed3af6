// Projects: what work is filed under, with the domains, brands and competitors it is about.
import type { z } from "zod";
import { createProject, getProject, listProjects, updateProject, type Project, type ProjectUpdateRequest } from "../../lib/schemas/projects";
import { EXIT } from "../client";
import { arg, date, list, noExtraArgs, opt, request, show, str, table, UsageError, type Section } from "../command";

function formatProject(p: z.output<typeof Project>): string {
  const c = p.context ?? {};
  return [
    `${p.id}  ${p.name}  (${p.slug})`,
    `workspace: ${p.workspace_id} ${p.workspace_name}`,
    `created: ${date(p.created_at)} by ${p.created_by}`,
    `domains: ${[c.primary_domain, ...(c.domains ?? [])].filter(Boolean).join(", ") || "-"}`,
    `brands: ${(c.brands ?? []).join(", ") || "-"}`,
    `competitors: ${(c.competitors ?? []).join(", ") || "-"}`,
  ].join("\n");
}

export const projects: Section = {
  title: "Projects",
  commands: [
    {
      words: ["projects", "list"],
      summary: "projects in the workspaces you can act in",
      options: { workspace: { ...opt.workspace, help: "only this workspace's projects" } },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, listProjects, { query: { workspace: str(ctx, "workspace") } }), (b) =>
          table(
            b.items.map((p) => ({ ...p, domain: p.context?.primary_domain ?? null, created_at: date(p.created_at) })),
            ["id", "name", "workspace_name", "domain", "created_at"],
          ),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["projects", "create"],
      args: "NAME",
      summary: "create a project (any member)",
      options: {
        workspace: { ...opt.workspace, help: "the workspace it belongs to for life (default: your personal one, or the API key's)" },
        domain: { type: "string", arg: "example.com", help: "the primary domain (a URL is cut to its host)" },
        brands: { type: "string", arg: "a,b", help: "brand names, comma-separated" },
        competitors: { type: "string", arg: "c,d", help: "competitors, comma-separated" },
      },
      async run(ctx) {
        const name = arg(ctx, 0, "project name");
        noExtraArgs(ctx, 1);
        const [workspace, domain, brands, competitors] = [str(ctx, "workspace"), str(ctx, "domain"), list(str(ctx, "brands")), list(str(ctx, "competitors"))];
        const context = {
          ...(domain !== undefined ? { primary_domain: domain } : {}),
          ...(brands !== undefined ? { brands } : {}),
          ...(competitors !== undefined ? { competitors } : {}),
        };
        const body = { name, ...(workspace ? { workspace_id: workspace } : {}), ...(Object.keys(context).length ? { context } : {}) };
        show(ctx, await request(ctx, createProject, { body }), formatProject);
        return EXIT.ok;
      },
    },
    {
      words: ["projects", "get"],
      args: "pr_…",
      summary: "one project",
      async run(ctx) {
        const id = arg(ctx, 0, "project id (pr_…)");
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, getProject, { params: { project_id: id } }), formatProject);
        return EXIT.ok;
      },
    },
    {
      words: ["projects", "update"],
      args: "pr_…",
      summary: "rename a project or change its context (any member)",
      options: {
        name: { type: "string", arg: "NAME", help: "the new name" },
        "context-json": { type: "string", arg: "JSON", help: `context fields to change, each replacing its stored field (the others are kept; null clears the context), e.g. '{"competitor_domains":{"HubSpot":["hubspot.com"]}}'` },
      },
      async run(ctx) {
        const id = arg(ctx, 0, "project id (pr_…)");
        noExtraArgs(ctx, 1);
        const body: z.input<typeof ProjectUpdateRequest> = {};
        const name = str(ctx, "name");
        const contextJson = str(ctx, "context-json");
        if (name !== undefined) body.name = name;
        if (contextJson !== undefined) {
          try {
            body.context = JSON.parse(contextJson) as z.input<typeof ProjectUpdateRequest>["context"];
          } catch {
            throw new UsageError("--context-json must be JSON, e.g. '{\"primary_domain\":\"acme.com\",\"brands\":[\"Acme\"]}'");
          }
        }
        if (Object.keys(body).length === 0) throw new UsageError("nothing to update: give --name and/or --context-json");
        show(ctx, await request(ctx, updateProject, { params: { project_id: id }, body }), formatProject);
        return EXIT.ok;
      },
    },
  ],
};
