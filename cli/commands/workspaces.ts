// Workspaces, their members and invitations.
import type { z } from "zod";
import {
  createInvitation, createWorkspace, getWorkspace, listInvitations, listMembers, listWorkspaces, removeMember, revokeInvitation,
  updateMember, updateWorkspace, WorkspaceRole, type Invitation, type Member, type Workspace,
} from "../../lib/schemas/workspaces";
import { EXIT } from "../client";
import { arg, date, noExtraArgs, note, request, show, str, table, UsageError, type Ctx, type Section } from "../command";

const wsRow = (w: z.output<typeof Workspace>) => ({ ...w, created_at: date(w.created_at) });
const wsColumns = ["id", "name", "kind", "role", "created_at"];
const showWorkspace = (w: z.output<typeof Workspace>) => table([wsRow(w)], wsColumns);

const memberColumns = ["id", "email", "role", "joined_at"];
const memberRow = (m: z.output<typeof Member>) => ({ ...m, joined_at: date(m.joined_at) });

const invitationColumns = ["id", "email", "role", "status", "invited_by", "accepted_by", "expires_at"];
const invitationRow = (i: z.output<typeof Invitation>) => ({ ...i, expires_at: date(i.expires_at) });

const ROLES = WorkspaceRole.options;
const workspaceArg = (ctx: Ctx) => arg(ctx, 0, "workspace id (ws_…)");

function memberId(ctx: Ctx, index: number): string {
  const id = arg(ctx, index, "member id (a number, see `geoscope members list`)");
  if (!/^\d+$/.test(id)) throw new UsageError("member id must be a number (see `geoscope members list`)");
  return id;
}

function role(value: string, what: string): z.output<typeof WorkspaceRole> {
  const parsed = WorkspaceRole.safeParse(value);
  if (!parsed.success) throw new UsageError(`${what} must be ${ROLES.join(" or ")}`);
  return parsed.data;
}

export const workspaces: Section = {
  title: "Workspaces, members, invitations",
  commands: [
    {
      words: ["workspaces", "list"],
      summary: "the workspaces you can act in, your own first",
      async run(ctx) {
        noExtraArgs(ctx, 0);
        show(ctx, await request(ctx, listWorkspaces), (b) => table(b.items.map(wsRow), wsColumns));
        return EXIT.ok;
      },
    },
    {
      words: ["workspaces", "create"],
      args: "NAME",
      summary: "create a team workspace; you become its admin",
      async run(ctx) {
        const name = arg(ctx, 0, "workspace name");
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, createWorkspace, { body: { name } }), showWorkspace);
        return EXIT.ok;
      },
    },
    {
      words: ["workspaces", "get"],
      args: "ws_…",
      summary: "one workspace",
      async run(ctx) {
        const id = workspaceArg(ctx);
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, getWorkspace, { params: { workspace_id: id } }), showWorkspace);
        return EXIT.ok;
      },
    },
    {
      words: ["workspaces", "rename"],
      args: "ws_… NAME",
      summary: "rename a workspace (admin)",
      async run(ctx) {
        const id = workspaceArg(ctx);
        const name = arg(ctx, 1, "new name");
        noExtraArgs(ctx, 2);
        show(ctx, await request(ctx, updateWorkspace, { params: { workspace_id: id }, body: { name } }), showWorkspace);
        return EXIT.ok;
      },
    },
    {
      words: ["members", "list"],
      args: "ws_…",
      summary: "members of a workspace",
      async run(ctx) {
        const ws = workspaceArg(ctx);
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, listMembers, { params: { workspace_id: ws } }), (b) => table(b.items.map(memberRow), memberColumns));
        return EXIT.ok;
      },
    },
    {
      words: ["members", "role"],
      args: `ws_… MEMBER_ID ${ROLES.join("|")}`,
      summary: "change a member's role (admin)",
      async run(ctx) {
        const ws = workspaceArg(ctx);
        const id = memberId(ctx, 1);
        const given = role(arg(ctx, 2, `role (${ROLES.join(" or ")})`), "role");
        noExtraArgs(ctx, 3);
        show(ctx, await request(ctx, updateMember, { params: { workspace_id: ws, member_id: id }, body: { role: given } }), (m) =>
          table([memberRow(m)], memberColumns),
        );
        return EXIT.ok;
      },
    },
    {
      words: ["members", "remove"],
      args: "ws_… MEMBER_ID",
      summary: "remove a member (admin), or leave (yourself)",
      async run(ctx) {
        const ws = workspaceArg(ctx);
        const id = memberId(ctx, 1);
        noExtraArgs(ctx, 2);
        show(ctx, await request(ctx, removeMember, { params: { workspace_id: ws, member_id: id } }), () => `Removed member ${id} from ${ws}.`);
        return EXIT.ok;
      },
    },
    {
      words: ["invitations", "list"],
      args: "ws_…",
      summary: "invitations of a workspace (admin)",
      async run(ctx) {
        const ws = workspaceArg(ctx);
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, listInvitations, { params: { workspace_id: ws } }), (b) => table(b.items.map(invitationRow), invitationColumns));
        return EXIT.ok;
      },
    },
    {
      words: ["invitations", "create"],
      args: "ws_… EMAIL",
      summary: "invite someone (admin); the link is printed once",
      options: { role: { type: "string", arg: ROLES.join("|"), help: "the role the invitation gives (default member)", values: ROLES } },
      async run(ctx) {
        const ws = workspaceArg(ctx);
        const email = arg(ctx, 1, "email address");
        noExtraArgs(ctx, 2);
        const given = str(ctx, "role");
        const body = { email, ...(given !== undefined ? { role: role(given, "--role") } : {}) };
        show(ctx, await request(ctx, createInvitation, { params: { workspace_id: ws }, body }), (i) => {
          note(`Invited ${i.email} as ${i.role} (${i.id}); ${i.emailed ? "the link was mailed" : "send them the link"}. It is shown once:`);
          return i.url;
        });
        return EXIT.ok;
      },
    },
    {
      words: ["invitations", "revoke"],
      args: "ws_… iv_…",
      summary: "revoke a pending invitation (admin)",
      async run(ctx) {
        const ws = workspaceArg(ctx);
        const id = arg(ctx, 1, "invitation id (iv_…)");
        noExtraArgs(ctx, 2);
        show(ctx, await request(ctx, revokeInvitation, { params: { workspace_id: ws, invitation_id: id } }), () => `Revoked invitation ${id}.`);
        return EXIT.ok;
      },
    },
  ],
};
