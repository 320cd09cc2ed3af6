// The person's projects across their workspaces, each leading to its research.
import type { Metadata } from "next";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { listProjects } from "@/lib/projects/read";
import { ResearchPage } from "../_components/frame";
import { DottedName } from "../../_components/ui";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Projects · geoscope" };

export default async function ProjectsPage() {
  const principal = await requireSessionPrincipal("/projects");
  const projects = await listProjects(principal);
  return (
    <ResearchPage crumbs={[]}>
      <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
      {projects.items.length === 0 ? (
        <div className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          <p className="font-medium text-slate-800">No projects yet.</p>
          <p className="mt-1">
            Work is filed in a project.{" "}
            <a href="/account#projects" className="font-medium text-indigo-700 underline">
              Create one on your account page
            </a>
            , with the domains, brands and competitors you want to watch for.
          </p>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
          {projects.items.map((p) => (
            <li key={p.id}>
              <a href={`/projects/${p.id}`} className="block px-4 py-3 wrap-anywhere hover:bg-slate-50" data-testid="project-link">
                <span className="font-medium text-indigo-700">{p.name}</span>
                <span className="ml-2 text-sm text-slate-500">
                  in <DottedName name={p.workspace_name} />
                </span>
                {p.context?.primary_domain ? <span className="block text-sm text-slate-500">{p.context.primary_domain}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      )}
    </ResearchPage>
  );
}
