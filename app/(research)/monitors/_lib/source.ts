// "Track these prompts": the prompts a new monitor starts from, read as the signed-in person
// through the API's services (404 as the API would): a fanout's prompts (each with its source and
// market), one cluster of a questions analysis (each question with its source), or a project's
// new monitor whose prompts are typed in its form (none here).
import type { z } from "zod";
import { getAnalysis } from "@/lib/analyses/read";
import type { Principal } from "@/lib/auth/principal";
import { getFanout } from "@/lib/fanouts/read";
import { getProject } from "@/lib/projects/read";
import { ApiError, notFound } from "@/lib/http/errors";
import type { MonitorRequest } from "@/lib/schemas/monitors";
import type { QuestionsAnalysis } from "@/lib/schemas/questions";

type Prompt = z.input<typeof MonitorRequest>["prompts"][number];

export type TrackedSource = {
  /** `project`: prompts typed in the form (with the monitor's market), none read here. */
  kind: "fanout" | "cluster" | "project";
  /** Where they came from: the fanout's, the analysis's or the project's page. */
  href: string;
  label: string;
  project: string;
  prompts: Prompt[];
  engines: string[] | null;
  runs: number | null;
};

/** `from` is a fanout id, a questions analysis id with `cluster` one of its cluster ids, or a project id (prompts typed). */
export async function trackedSource(principal: Principal, from: string | undefined, cluster: string | undefined): Promise<TrackedSource> {
  if (!from) throw new ApiError("invalid_request", "Nothing to track: open a project and choose “New monitor”, or a fanout or a questions cluster and choose “Track these prompts”.");
  if (from.startsWith("pr_")) {
    const project = await getProject(principal, from);
    return { kind: "project", href: `/projects/${project.id}`, label: project.name, project: project.id, prompts: [], engines: null, runs: null };
  }
  if (from.startsWith("fo_")) {
    const fanout = await getFanout(principal, from);
    if (!fanout.project_id) throw notFound("fanout", from);
    return {
      kind: "fanout",
      href: `/fanouts/${fanout.id}`,
      label: fanout.name,
      project: fanout.project_id,
      prompts: fanout.prompts.map((p) => ({
        text: p.text,
        ...(p.source ? { source: p.source } : {}),
        ...(p.location ? { location: p.location } : {}),
        ...(p.language ? { language: p.language } : {}),
      })),
      engines: [...fanout.engines],
      runs: fanout.runs,
    };
  }
  const analysis = (await getAnalysis(principal, from)) as unknown as QuestionsAnalysis & { kind?: string };
  const found = analysis.kind === "questions" ? analysis.clusters?.find((c) => c.id === cluster) : undefined;
  if (!found || !analysis.project_id) throw notFound("questions cluster", `${from} ${cluster ?? ""}`.trim());
  const byId = new Map(analysis.questions.map((q) => [q.id, q]));
  return {
    kind: "cluster",
    href: `/analyses/${analysis.id}`,
    label: found.name,
    project: analysis.project_id,
    prompts: found.question_ids.flatMap((id) => {
      const q = byId.get(id);
      return q ? [{ text: q.text.replace(/\s+/g, " ").trim(), source: { kind: "question" as const, analysis_id: analysis.id, question_id: id } }] : [];
    }),
    engines: null,
    runs: null,
  };
}
