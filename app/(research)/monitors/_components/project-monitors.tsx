// A project's monitors on its page: each with its schedule, next run and last tick, and how to
// make one ("New monitor" of prompts typed, or "Track these prompts" on a fanout or a questions
// cluster).
import type { Principal } from "@/lib/auth/principal";
import { listMonitors } from "@/lib/monitors/read";
import { scheduleInWords } from "@/lib/schemas/monitors";
import { Section, subtleButtonClass } from "../../../_components/ui";
import { Tag, statusTone } from "../../../s/_components/bits";
import { when } from "../../../s/_lib/view";

export async function ProjectMonitors({ principal, project }: { principal: Principal; project: string }) {
  const { items, next_cursor } = await listMonitors(principal, { project, limit: 50 });
  return (
    <Section id="monitors" title="Monitors" description="The same prompts run again every day or week, to follow how the engines name your brand over time.">
      <p className="mb-3">
        <a href={`/monitors/new?from=${project}`} className={`${subtleButtonClass} inline-block`} data-testid="new-monitor">
          New monitor
        </a>
      </p>
      {items.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600" data-testid="no-monitors">
          No monitors yet. Start one with “New monitor” and the prompts to follow, or open a fanout, or a cluster of a questions analysis, and choose
          “Track these prompts”.
        </p>
      ) : (
        <>
          <p className="mb-1 text-sm">
            <a href={`/projects/${project}/monitors`} className="text-indigo-700 hover:underline" data-testid="monitor-overview-link">
              Every monitor side by side: latest figures, trends and changes since last week and month →
            </a>
          </p>
          <ul className="divide-y divide-slate-100" data-testid="monitor-list">
            {items.map((m) => {
              return (
                <li key={m.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3 text-sm" data-testid="monitor-item">
                  <a href={`/monitors/${m.id}`} className="min-w-0 basis-full font-medium break-words text-indigo-700 hover:underline sm:flex-1 sm:basis-auto">
                    {m.name}
                  </a>
                  <Tag tone={m.status === "active" ? "emerald" : "slate"}>{m.status}</Tag>
                  <span className="text-slate-500">{scheduleInWords(m.schedule)}</span>
                  <span className="text-slate-500">
                    {m.status === "paused" ? "paused" : `next ${when(m.next_run_at)}`} ·{" "}
                    {m.last_tick ? (
                      <>
                        last tick <Tag tone={m.last_tick.status === "skipped" ? "amber" : statusTone(m.last_tick.status)}>{m.last_tick.status}</Tag>
                      </>
                    ) : (
                      "no tick yet"
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {next_cursor ? <p className="mt-2 text-xs text-slate-500">Showing the newest 50; the CLI and API list the rest.</p> : null}
    </Section>
  );
}
