import type { ReactNode } from "react";
import { listApiKeys } from "@/lib/auth/read";
import { workspaceBillingSummary, workspaceTransactions, workspaceUsage } from "@/lib/billing/read";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { enginesSimulated } from "@/lib/config/engines";
import { listProjects } from "@/lib/projects/read";
import { reachableWorkspaces } from "@/lib/workspaces/access";
import { listInvitations, listMembers } from "@/lib/workspaces/read";
import { listCliTokens } from "@/lib/auth/cli-tokens";
import { CellLabel, DottedName, Email, inputClass, Notice, Page, Section, tableCellClass, tableClass, tableHeadClass, tableRowClass } from "../_components/ui";
import * as actions from "./actions";
import { ActionForm } from "./forms";
import { date, TransactionTable } from "./transaction-table";

export const dynamic = "force-dynamic";

const RECENT_TRANSACTIONS = 10;

type ProjectContext = Awaited<ReturnType<typeof listProjects>>["items"][number]["context"];

/** "acme.com, docs.acme.com · brands: Acme · competitors: Globex", or what is missing. */
function contextLine(context: ProjectContext): string {
  const domains = [context?.primary_domain, ...(context?.domains ?? [])].filter(Boolean);
  const parts = [
    domains.length ? domains.join(", ") : null,
    context?.brands?.length ? `brands: ${context.brands.join(", ")}` : null,
    context?.competitors?.length ? `competitors: ${context.competitors.join(", ")}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "No domains, brands or competitors yet.";
}

/** The workspace a new key or project is for (`workspace_id`). */
function WorkspaceField({ options }: { options: ReactNode }) {
  return (
    <label className="flex min-w-0 max-w-full flex-col text-sm">
      Workspace
      <select name="workspace_id" className={inputClass}>
        {options}
      </select>
    </label>
  );
}

type ProjectItem = Awaited<ReturnType<typeof listProjects>>["items"][number];

const projectFormClass = "mt-2 grid items-end gap-2 text-sm sm:grid-cols-2 [&>button]:justify-self-start";

/**
 * The fields of the new-project and edit-project forms, each labelled. Editing: each field also
 * sends what it showed (`was.…`), so the action changes only what was edited.
 */
function ProjectFields({ project, workspaces }: { project?: ProjectItem; workspaces?: ReactNode }) {
  const c = project?.context;
  const fields = [
    { name: "name", label: "Project name", value: project?.name ?? "", placeholder: "Acme CRM", required: true, maxLength: 100 },
    { name: "primary_domain", label: "Primary domain", value: c?.primary_domain ?? "", placeholder: "acme.com" },
    { name: "domains", label: "Other domains", value: (c?.domains ?? []).join(", "), placeholder: "docs.acme.com, acme.io" },
    { name: "brands", label: "Brands", value: (c?.brands ?? []).join(", "), placeholder: "Acme, Acme CRM" },
    { name: "competitors", label: "Competitors", value: (c?.competitors ?? []).join(", "), placeholder: "Globex, Initech" },
  ];
  const field = (f: (typeof fields)[number]) => (
    <label key={f.name} className="flex min-w-0 flex-col">
      <span>
        {f.label}
        {f.name === "name" ? null : <span className="text-slate-500"> (optional{f.name === "primary_domain" ? "" : ", comma separated"})</span>}
      </span>
      <input name={f.name} defaultValue={f.value} placeholder={f.placeholder} required={f.required} maxLength={f.maxLength} className={inputClass} />
      {project ? <input type="hidden" name={`was.${f.name}`} value={f.value} /> : null}
    </label>
  );
  return (
    <>
      {field(fields[0]!)}
      {workspaces ? <WorkspaceField options={workspaces} /> : null}
      {fields.slice(1).map(field)}
    </>
  );
}

export default async function AccountPage() {
  const principal = await requireSessionPrincipal("/account");
  const [keys, cliLogins, workspaces, projects] = await Promise.all([
    listApiKeys(principal),
    listCliTokens(principal),
    reachableWorkspaces(principal),
    listProjects(principal),
  ]);
  const details = await Promise.all(
    workspaces.map(async (w) => ({
      access: w,
      members: (await listMembers(principal, w.workspace.id)).items,
      invitations: w.role === "admin" ? (await listInvitations(principal, w.workspace.id)).items : [],
      billing: await workspaceBillingSummary(w),
      transactions: await workspaceTransactions(w, { limit: RECENT_TRANSACTIONS }),
      usage: await workspaceUsage(w, 30),
    })),
  );
  const workspaceOptions = workspaces.map((w) => (
    <option key={w.workspace.id} value={w.workspace.id}>
      {w.workspace.name}
    </option>
  ));
  const names = new Map(workspaces.map((w) => [w.workspace.id, w.workspace.name]));

  return (
    <Page
      title="Account"
      aside={
        <div className="text-sm text-slate-600">
          <a className="font-medium text-indigo-700 underline" href="/projects">
            Projects
          </a>{" "}
          ·{" "}
          <span data-testid="signed-in-as" className="wrap-anywhere">
            <Email address={principal.user.email} />
          </span>{" "}
          ·{" "}
          <a className="underline" href="/signout">
            Sign out
          </a>
        </div>
      }
    >
      {enginesSimulated() ? (
        <div className="mb-6">
          <Notice tone="warn">
            This server is simulated: no provider key is set, so prompts are answered by the built-in engine simulator and
            every run reports a model ending in “-simulated”.
          </Notice>
        </div>
      ) : null}

      <Section id="api-keys" title="API keys" description="A key acts in the one workspace it was made for. Its secret is shown once.">
        {keys.items.length === 0 ? (
          <p className="text-sm text-slate-500">No keys yet.</p>
        ) : (
          <table className={tableClass}>
            <thead className={tableHeadClass}>
              <tr>
                <th className="py-1 pr-3">Name</th>
                <th className="pr-3">Key</th>
                <th className="pr-3">Workspace</th>
                <th className="pr-3">Created</th>
                <th className="pr-3">Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.items.map((k) => (
                <tr key={k.id} className={tableRowClass} data-testid={`api-key-${k.id}`}>
                  <td className={`${tableCellClass} font-medium sm:font-normal`}>{k.name}</td>
                  <td className={tableCellClass}>
                    <code>{k.prefix}…</code>
                  </td>
                  <td className={`${tableCellClass} basis-full`}>
                    <CellLabel>Workspace</CellLabel>
                    <DottedName name={names.get(k.workspace_id ?? "") ?? k.workspace_id ?? ""} />
                  </td>
                  <td className={`${tableCellClass} sm:whitespace-nowrap`}>
                    <CellLabel>Created</CellLabel>
                    {date(k.created_at)}
                  </td>
                  <td className={`${tableCellClass} sm:whitespace-nowrap`}>
                    <CellLabel>Last used</CellLabel>
                    {date(k.last_used_at)}
                  </td>
                  <td className={`${tableCellClass} ml-auto sm:pr-0 sm:text-right`}>
                    {k.revoked_at ? (
                      <span className="text-slate-500">revoked {date(k.revoked_at)}</span>
                    ) : (
                      <ActionForm action={actions.revokeApiKeyAction} submit="Revoke" danger inline>
                        <input type="hidden" name="key_id" value={k.id} />
                      </ActionForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="mt-4">
          <ActionForm action={actions.createApiKeyAction} submit="Create key">
            <label className="flex flex-col text-sm">
              Name
              <input name="name" required maxLength={100} className={inputClass} placeholder="ci" />
            </label>
            <WorkspaceField options={workspaceOptions} />
          </ActionForm>
        </div>
      </Section>

      <Section
        id="cli-logins"
        title="CLI logins"
        description="Each CLI signed in with geoscope login holds a token that acts in all your workspaces; it lapses after 90 days unused. Revoking one signs that CLI out at once."
      >
        {cliLogins.items.length === 0 ? (
          <p className="text-sm text-slate-500">
            No CLI is signed in. Run <code>geoscope login</code> in a terminal to sign one in.
          </p>
        ) : (
          <table className={tableClass}>
            <thead className={tableHeadClass}>
              <tr>
                <th className="py-1 pr-3">Client</th>
                <th className="pr-3">Created</th>
                <th className="pr-3">Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {cliLogins.items.map((t) => (
                <tr key={t.id} className={tableRowClass} data-testid={`cli-login-${t.id}`}>
                  <td className={`${tableCellClass} basis-full font-medium sm:font-normal`}>{t.name}</td>
                  <td className={`${tableCellClass} sm:whitespace-nowrap`}>
                    <CellLabel>Created</CellLabel>
                    {date(t.created_at)}
                  </td>
                  <td className={`${tableCellClass} sm:whitespace-nowrap`}>
                    <CellLabel>Last used</CellLabel>
                    {date(t.last_used_at)}
                  </td>
                  <td className={`${tableCellClass} ml-auto sm:pr-0 sm:text-right`}>
                    <ActionForm action={actions.revokeCliTokenAction} submit="Revoke" danger inline>
                      <input type="hidden" name="token_id" value={t.id} />
                    </ActionForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section id="workspaces" title="Workspaces and members">
        {details.map(({ access, members, invitations }) => (
          <div key={access.workspace.id} className="mb-6 border-b border-slate-100 pb-6 last:border-0" data-testid={`workspace-${access.workspace.id}`}>
            <h3 className="font-medium wrap-anywhere">
              <DottedName name={access.workspace.name} />{" "}
              <span className="text-sm font-normal text-slate-500">
                {access.workspace.kind} · you are {access.role} · <code className="wrap-anywhere">{access.workspace.id}</code>
              </span>
            </h3>
            <ul className="mt-2 space-y-2 text-sm sm:space-y-1">
              {members.map((m) => {
                const you = m.email === principal.user.email;
                // The service refuses to demote or remove the last admin: such buttons could only fail.
                const lastAdmin = m.role === "admin" && members.filter((o) => o.role === "admin").length <= 1;
                return (
                  <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid={`member-${m.id}`}>
                    <span className="min-w-0 wrap-anywhere sm:min-w-48">
                      <Email address={m.email} />
                      {you ? <span className="text-slate-500"> (you)</span> : null}
                    </span>
                    <span className="text-slate-500">{m.role}</span>
                    {access.role === "admin" && access.workspace.kind === "team" ? (
                      lastAdmin ? (
                        <span className="text-xs text-slate-500">the only admin: make someone else admin before stepping down</span>
                      ) : (
                        <span className="flex gap-2">
                          <ActionForm action={actions.changeRoleAction} submit={m.role === "admin" ? "Make member" : "Make admin"} inline>
                            <input type="hidden" name="workspace_id" value={access.workspace.id} />
                            <input type="hidden" name="member_id" value={m.id} />
                            <input type="hidden" name="role" value={m.role === "admin" ? "member" : "admin"} />
                          </ActionForm>
                          <ActionForm action={actions.removeMemberAction} submit={you ? "Leave" : "Remove"} danger inline>
                            <input type="hidden" name="workspace_id" value={access.workspace.id} />
                            <input type="hidden" name="member_id" value={m.id} />
                          </ActionForm>
                        </span>
                      )
                    ) : null}
                  </li>
                );
              })}
            </ul>
            {access.role === "admin" ? (
              <div className="mt-4 space-y-3">
                <ActionForm action={actions.renameWorkspaceAction} submit="Rename">
                  <input type="hidden" name="workspace_id" value={access.workspace.id} />
                  <input name="name" required maxLength={100} defaultValue={access.workspace.name} className={inputClass} aria-label="Workspace name" />
                </ActionForm>
                {access.workspace.kind === "team" ? (
                  <>
                    <h4 className="text-sm font-medium">Invitations</h4>
                    <ul className="space-y-1 text-sm">
                      {invitations.map((i) => (
                        <li key={i.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                          <span className="min-w-0 wrap-anywhere sm:min-w-48">
                            <Email address={i.email} />
                          </span>
                          <span className="text-slate-500">
                            {i.role} · {i.status} · expires {date(i.expires_at)}
                            {i.accepted_by ? (
                              <>
                                {" · accepted by "}
                                <Email address={i.accepted_by} />
                              </>
                            ) : null}
                          </span>
                          {i.status === "pending" ? (
                            <ActionForm action={actions.revokeInvitationAction} submit="Revoke" danger inline>
                              <input type="hidden" name="workspace_id" value={access.workspace.id} />
                              <input type="hidden" name="invitation_id" value={i.id} />
                            </ActionForm>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                    <ActionForm action={actions.createInvitationAction} submit="Invite">
                      <input type="hidden" name="workspace_id" value={access.workspace.id} />
                      <input name="email" type="email" required placeholder="colleague@example.com" className={inputClass} aria-label="Email to invite" />
                      <select name="role" className={inputClass} aria-label="Role">
                        <option value="member">member</option>
                        <option value="admin">admin</option>
                      </select>
                    </ActionForm>
                  </>
                ) : null}
              </div>
            ) : null}
          </div>
        ))}
        <h3 className="mb-2 font-medium">New team workspace</h3>
        <ActionForm action={actions.createWorkspaceAction} submit="Create workspace">
          <input name="name" required maxLength={100} placeholder="Marketing" className={inputClass} aria-label="New workspace name" />
        </ActionForm>
      </Section>

      <Section id="projects" title="Projects" description="Work is filed in a project; every member of its workspace sees it.">
        <ul className="divide-y divide-slate-100 text-sm">
          {projects.items.map((p) => (
            <li key={p.id} className="py-3 first:pt-0" data-testid={`project-${p.id}`}>
              <div className="flex flex-wrap items-baseline gap-x-2">
                <a href={`/projects/${p.id}`} className="min-w-0 font-medium wrap-anywhere text-indigo-700 hover:underline" data-testid="project-name">
                  {p.name}
                </a>
                <code className="wrap-anywhere text-xs text-slate-500">{p.id}</code>
                <span className="min-w-0 wrap-anywhere text-slate-500">
                  in <DottedName name={p.workspace_name} />
                </span>
              </div>
              <p className="mt-0.5 break-words text-slate-600" data-testid="project-context">
                {contextLine(p.context)}
              </p>
              <details className="mt-1">
                <summary className="cursor-pointer text-indigo-700 hover:text-indigo-500">Edit</summary>
                <ActionForm action={actions.updateProjectAction} submit="Save" keepValues className={projectFormClass}>
                  <input type="hidden" name="project_id" value={p.id} />
                  <ProjectFields project={p} />
                </ActionForm>
              </details>
            </li>
          ))}
        </ul>
        {projects.items.length === 0 ? <p className="text-sm text-slate-500">No projects yet.</p> : null}
        <div className="mt-4">
          <h3 className="mb-2 font-medium">New project</h3>
          <ActionForm action={actions.createProjectAction} submit="Create project" className={projectFormClass} testId="project-create">
            <ProjectFields workspaces={workspaceOptions} />
          </ActionForm>
        </div>
      </Section>

      <Section id="billing" title="Billing" description="Prepaid credit in USD. Promotional credit is spent first; work in progress holds credit until it finishes.">
        {details.map(({ access, billing, transactions, usage }) => (
          <div
            key={access.workspace.id}
            id={`billing-${access.workspace.id}`}
            className="mb-6 border-b border-slate-100 pb-6 last:border-0"
            data-testid={`billing-${access.workspace.id}`}
          >
            <h3 className="font-medium wrap-anywhere">
              <DottedName name={access.workspace.name} />
            </h3>
            {!billing.enabled ? <p className="text-sm text-slate-500">Billing is off on this server: nothing is charged.</p> : null}
            <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
              {(
                [
                  ["Balance", billing.balance_usd],
                  ["Purchased", billing.purchased_usd],
                  ["Promotional", billing.promotional_usd],
                  ["Held", billing.held_usd],
                  ["Available", billing.available_usd],
                  ["Spent this month", billing.spend_month_to_date_usd],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="flex justify-between gap-2">
                  <dt className="text-slate-500">{label}</dt>
                  <dd className="font-mono" data-testid={`billing-${label.toLowerCase().replaceAll(" ", "-")}`}>
                    {value === null ? "—" : `$${value}`}
                  </dd>
                </div>
              ))}
            </dl>
            <h4 className="mt-4 text-sm font-medium">Recent transactions</h4>
            {transactions.items.length === 0 ? (
              <p className="text-sm text-slate-500">None yet.</p>
            ) : (
              <TransactionTable items={transactions.items} />
            )}
            {transactions.next_cursor ? (
              <a
                className="mt-2 inline-block text-sm text-indigo-700 underline hover:text-indigo-500"
                href={`/account/transactions?workspace=${access.workspace.id}&cursor=${transactions.next_cursor}`}
              >
                Show older transactions
              </a>
            ) : null}
            <h4 className="mt-4 text-sm font-medium">Usage, last {usage.days} days: ${usage.total_usd}</h4>
            {usage.rows.length === 0 ? (
              <p className="text-sm text-slate-500">Nothing charged.</p>
            ) : (
              <table className={`mt-1 ${tableClass}`}>
                <thead className={tableHeadClass}>
                  <tr>
                    <th className="py-1 pr-3">Day</th>
                    <th className="pr-3">Product</th>
                    <th className="pr-3">Engine</th>
                    <th className="pr-3">Units</th>
                    <th className="text-right">Charged</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.rows.map((r) => (
                    <tr key={`${r.day}-${r.product}-${r.engine}`} className={tableRowClass}>
                      <td className={tableCellClass}>{r.day}</td>
                      <td className={tableCellClass}>{r.product}</td>
                      <td className={tableCellClass}>{r.engine ?? ""}</td>
                      <td className={tableCellClass}>
                        {r.units} {r.unit}
                        {r.units === 1 ? "" : "s"} in {r.operations} run{r.operations === 1 ? "" : "s"}
                      </td>
                      <td className={`${tableCellClass} ml-auto font-mono sm:pr-0 sm:text-right`}>
                        {r.charged_usd === null ? "—" : `$${r.charged_usd}`}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        ))}
        <p className="text-sm text-slate-500">To add credit, ask the operator of this server (they record purchases with npm run admin -- credit:add).</p>
      </Section>
    </Page>
  );
}
