import { listApiKeys } from "@/lib/auth/api-keys";
import { workspaceBillingSummary } from "@/lib/billing/summary";
import { workspaceTransactions } from "@/lib/billing/transactions";
import { workspaceUsage } from "@/lib/billing/usage";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { enginesSimulated } from "@/lib/config/engines";
import { listProjects } from "@/lib/projects/projects";
import { reachableWorkspaces } from "@/lib/workspaces/access";
import { listInvitations } from "@/lib/workspaces/invitations";
import { listMembers } from "@/lib/workspaces/workspaces";
import { inputClass, Notice, Page, Section } from "../_components/ui";
import * as actions from "./actions";
import { ActionForm } from "./forms";

export const dynamic = "force-dynamic";

const date = (iso: string | null) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

export default async function AccountPage() {
  const principal = await requireSessionPrincipal("/account");
  const [keys, workspaces, projects] = await Promise.all([
    listApiKeys(principal),
    reachableWorkspaces(principal),
    listProjects(principal),
  ]);
  const details = await Promise.all(
    workspaces.map(async (w) => ({
      access: w,
      members: (await listMembers(principal, w.workspace.id)).items,
      invitations: w.role === "admin" ? (await listInvitations(principal, w.workspace.id)).items : [],
      billing: await workspaceBillingSummary(w.workspace.id),
      transactions: (await workspaceTransactions(w.workspace.id, { limit: 10 })).items,
      usage: await workspaceUsage(w.workspace.id, 30),
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
          <span data-testid="signed-in-as">{principal.user.email}</span> ·{" "}
          <a className="underline" href="/api/auth/signout">
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
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1">Name</th>
              <th>Key</th>
              <th>Workspace</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.items.map((k) => (
              <tr key={k.id} className="border-t border-slate-100" data-testid={`api-key-${k.id}`}>
                <td className="py-2">{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{names.get(k.workspace_id ?? "") ?? k.workspace_id}</td>
                <td>{date(k.created_at)}</td>
                <td>{date(k.last_used_at)}</td>
                <td className="text-right">
                  {k.revoked_at ? (
                    <span className="text-slate-500">revoked {date(k.revoked_at)}</span>
                  ) : (
                    <ActionForm action={actions.revokeApiKeyAction} submit="Revoke" danger>
                      <input type="hidden" name="key_id" value={k.id} />
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {keys.items.length === 0 ? <p className="text-sm text-slate-500">No keys yet.</p> : null}
        <div className="mt-4">
          <ActionForm action={actions.createApiKeyAction} submit="Create key">
            <label className="flex flex-col text-sm">
              Name
              <input name="name" required maxLength={100} className={inputClass} placeholder="ci" />
            </label>
            <label className="flex flex-col text-sm">
              Workspace
              <select name="workspace_id" className={inputClass}>
                {workspaceOptions}
              </select>
            </label>
          </ActionForm>
        </div>
      </Section>

      <Section id="workspaces" title="Workspaces and members">
        {details.map(({ access, members, invitations }) => (
          <div key={access.workspace.id} className="mb-6 border-b border-slate-100 pb-6 last:border-0" data-testid={`workspace-${access.workspace.id}`}>
            <h3 className="font-medium">
              {access.workspace.name}{" "}
              <span className="text-sm font-normal text-slate-500">
                {access.workspace.kind} · you are {access.role} · <code>{access.workspace.id}</code>
              </span>
            </h3>
            <ul className="mt-2 space-y-1 text-sm">
              {members.map((m) => (
                <li key={m.id} className="flex flex-wrap items-center gap-3">
                  <span className="min-w-48">{m.email}</span>
                  <span className="text-slate-500">{m.role}</span>
                  {access.role === "admin" && access.workspace.kind === "team" ? (
                    <>
                      <ActionForm action={actions.changeRoleAction} submit="Set role">
                        <input type="hidden" name="workspace_id" value={access.workspace.id} />
                        <input type="hidden" name="member_id" value={m.id} />
                        <select name="role" defaultValue={m.role} className={inputClass}>
                          <option value="admin">admin</option>
                          <option value="member">member</option>
                        </select>
                      </ActionForm>
                      <ActionForm action={actions.removeMemberAction} submit="Remove" danger>
                        <input type="hidden" name="workspace_id" value={access.workspace.id} />
                        <input type="hidden" name="member_id" value={m.id} />
                      </ActionForm>
                    </>
                  ) : null}
                </li>
              ))}
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
                        <li key={i.id} className="flex flex-wrap items-center gap-3">
                          <span className="min-w-48">{i.email}</span>
                          <span className="text-slate-500">
                            {i.role} · {i.status} · expires {date(i.expires_at)}
                            {i.accepted_by ? ` · accepted by ${i.accepted_by}` : ""}
                          </span>
                          {i.status === "pending" ? (
                            <ActionForm action={actions.revokeInvitationAction} submit="Revoke" danger>
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
        <ul className="space-y-1 text-sm">
          {projects.items.map((p) => (
            <li key={p.id}>
              <span className="font-medium">{p.name}</span> <code className="text-slate-500">{p.id}</code>{" "}
              <span className="text-slate-500">in {p.workspace_name}</span>
              {p.context?.primary_domain ? <span className="text-slate-500"> · {p.context.primary_domain}</span> : null}
            </li>
          ))}
        </ul>
        {projects.items.length === 0 ? <p className="text-sm text-slate-500">No projects yet.</p> : null}
        <div className="mt-4">
          <ActionForm action={actions.createProjectAction} submit="Create project">
            <input name="name" required maxLength={100} placeholder="Acme CRM" className={inputClass} aria-label="Project name" />
            <select name="workspace_id" className={inputClass} aria-label="Project workspace">
              {workspaceOptions}
            </select>
            <input name="primary_domain" placeholder="acme.com" className={inputClass} aria-label="Primary domain" />
            <input name="brands" placeholder="brands, comma separated" className={inputClass} aria-label="Brands" />
            <input name="competitors" placeholder="competitors, comma separated" className={inputClass} aria-label="Competitors" />
          </ActionForm>
        </div>
      </Section>

      <Section id="billing" title="Billing" description="Prepaid credit in USD. Promotional credit is spent first; work in progress holds credit until it finishes.">
        {details.map(({ access, billing, transactions, usage }) => (
          <div key={access.workspace.id} className="mb-6 border-b border-slate-100 pb-6 last:border-0" data-testid={`billing-${access.workspace.id}`}>
            <h3 className="font-medium">{access.workspace.name}</h3>
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
            {transactions.length === 0 ? (
              <p className="text-sm text-slate-500">None yet.</p>
            ) : (
              <table className="mt-1 w-full text-left text-sm">
                <tbody>
                  {transactions.map((t) => (
                    <tr key={t.id} className="border-t border-slate-100">
                      <td className="py-1">{date(t.created_at)}</td>
                      <td>{t.kind}</td>
                      <td>{t.bucket}</td>
                      <td className="font-mono">{t.amount_usd}</td>
                      <td className="text-slate-600">{t.description}</td>
                      <td className="text-slate-500">{t.actor ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h4 className="mt-4 text-sm font-medium">Usage, last {usage.days} days: ${usage.total_usd}</h4>
            {usage.rows.length === 0 ? (
              <p className="text-sm text-slate-500">Nothing charged.</p>
            ) : (
              <table className="mt-1 w-full text-left text-sm">
                <tbody>
                  {usage.rows.map((r) => (
                    <tr key={`${r.day}-${r.product}-${r.engine}`} className="border-t border-slate-100">
                      <td className="py-1">{r.day}</td>
                      <td>{r.product}</td>
                      <td>{r.engine ?? ""}</td>
                      <td>
                        {r.units} {r.unit}
                        {r.units === 1 ? "" : "s"} in {r.operations} run{r.operations === 1 ? "" : "s"}
                      </td>
                      <td className="font-mono">{r.charged_usd === null ? "—" : `$${r.charged_usd}`}</td>
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
