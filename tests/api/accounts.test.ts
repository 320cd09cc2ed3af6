// Accounts and access through the real route handlers: /me, API keys, workspaces, members,
// invitations and projects, and the rule that anything outside a credential's reach is 404.
import { beforeAll, describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/v1/api-keys/route";
import * as apiKey from "@/app/api/v1/api-keys/[key_id]/route";
import * as billing from "@/app/api/v1/billing/route";
import * as me from "@/app/api/v1/me/route";
import * as projects from "@/app/api/v1/projects/route";
import * as project from "@/app/api/v1/projects/[project_id]/route";
import * as workspaces from "@/app/api/v1/workspaces/route";
import * as workspace from "@/app/api/v1/workspaces/[workspace_id]/route";
import * as members from "@/app/api/v1/workspaces/[workspace_id]/members/route";
import * as member from "@/app/api/v1/workspaces/[workspace_id]/members/[member_id]/route";
import * as invitations from "@/app/api/v1/workspaces/[workspace_id]/invitations/route";
import * as invitation from "@/app/api/v1/workspaces/[workspace_id]/invitations/[invitation_id]/route";
import { hashSecret } from "@/lib/auth/secrets";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { acceptInvitation } from "@/lib/workspaces/create";
import { previewInvitation } from "@/lib/workspaces/read";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { addMember, person, type Person } from "../helpers/people";

useTestDatabase();

let alice: Person; // admin of the team workspace
let bob: Person; // member of the team workspace
let eve: Person; // outsider
let team: string;

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  eve = await person("eve@example.com");
  const created = await call(workspaces.POST, "POST", "/workspaces", { token: alice.cliToken, body: { name: "Growth team" } });
  team = created.body.id;
  const bobMembership = await addMember(team, bob.id, "member");
  expect(bobMembership.role).toBe("member");
});

describe("GET /me", () => {
  it("shows a CLI token every workspace of the person, own first", async () => {
    const res = await call(me.GET, "GET", "/me", { token: alice.cliToken });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe("alice@example.com");
    expect(res.body.credential).toEqual({ kind: "cli_token", id: alice.cliTokenId, name: "test laptop" });
    expect(res.body.workspaces.map((w: { id: string }) => w.id)).toEqual([alice.workspaceId, team]);
    expect(res.body.workspaces[0]).toMatchObject({ kind: "personal", role: "admin" });
    expect(res.body.workspaces[1]).toMatchObject({ kind: "team", role: "admin", name: "Growth team" });
    expect(res.body.engines_simulated).toBe(true);
  });

  it("shows an API key only the one workspace it was made for", async () => {
    const res = await call(me.GET, "GET", "/me", { token: alice.apiKey });
    expect(res.body.credential).toEqual({ kind: "api_key", id: alice.apiKeyId, name: "alice@example.com key" });
    expect(res.body.workspaces.map((w: { id: string }) => w.id)).toEqual([alice.workspaceId]);
  });
});

describe("signing up", () => {
  it("gives the new personal workspace its promotional credit, once", async () => {
    const res = await call(billing.GET, "GET", "/billing", { token: alice.apiKey });
    expect(res.body).toMatchObject({ workspace_id: alice.workspaceId, promotional_usd: "5.00", purchased_usd: "0.00", available_usd: "5.00" });
    const { ensureUser } = await import("@/lib/accounts/users");
    expect((await ensureUser("ALICE@example.com")).created).toBe(false);
    const again = await call(billing.GET, "GET", "/billing", { token: alice.apiKey });
    expect(again.body.promotional_usd).toBe("5.00");
  });
});

describe("API keys", () => {
  it("returns the secret once, stores only its hash, and never lists it", async () => {
    const created = await call(apiKeys.POST, "POST", "/api-keys", { token: alice.cliToken, body: { name: "ci", workspace_id: team } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^gsk_[0-9A-Za-z]{32,}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
    expect(created.body.workspace_id).toBe(team);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.secretHash).toBe(hashSecret(created.body.key));
    expect(JSON.stringify(row)).not.toContain(created.body.key);

    const list = await call(apiKeys.GET, "GET", "/api-keys", { token: alice.cliToken });
    expect(list.text).not.toContain(created.body.key);
    expect(list.body.items.find((k: { id: string }) => k.id === created.body.id)).toEqual({
      id: created.body.id,
      name: "ci",
      prefix: created.body.prefix,
      created_at: created.body.created_at,
      workspace_id: team,
      last_used_at: null,
      revoked_at: null,
    });
  });

  it("records last use, and stops working on the very next request after revocation", async () => {
    const created = await call(apiKeys.POST, "POST", "/api-keys", { token: alice.cliToken, body: { name: "short-lived" } });
    expect(created.body.workspace_id).toBe(alice.workspaceId);
    expect((await call(me.GET, "GET", "/me", { token: created.body.key })).status).toBe(200);
    const used = await db().apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(used.lastUsedAt).not.toBeNull();

    const revoked = await call(apiKey.DELETE, "DELETE", `/api-keys/${created.body.id}`, { token: alice.cliToken, params: { key_id: created.body.id } });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe("");
    expect((await call(me.GET, "GET", "/me", { token: created.body.key })).status).toBe(401);
    const list = await call(apiKeys.GET, "GET", "/api-keys", { token: alice.cliToken });
    expect(list.body.items.find((k: { id: string }) => k.id === created.body.id).revoked_at).not.toBeNull();
  });

  it("lets an API key list only keys of its own workspace", async () => {
    const list = await call(apiKeys.GET, "GET", "/api-keys", { token: alice.apiKey });
    expect(list.body.items.every((k: { workspace_id: string }) => k.workspace_id === alice.workspaceId)).toBe(true);
  });

  it("refuses a key for a workspace the caller is not in, as 404", async () => {
    const res = await call(apiKeys.POST, "POST", "/api-keys", { token: eve.cliToken, body: { name: "sneaky", workspace_id: team } });
    expect(res.status).toBe(404);
  });

  it("validates the name: 1 to 100 characters after trimming spaces, all spaces refused", async () => {
    for (const name of ["", "   ", "x".repeat(101)]) {
      const res = await call(apiKeys.POST, "POST", "/api-keys", { token: alice.cliToken, body: { name } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("name: must be 1 to 100 characters after trimming spaces");
    }
  });
});

describe("workspaces and members", () => {
  it("makes the creator admin of a new team workspace", async () => {
    const res = await call(workspaces.POST, "POST", "/workspaces", { token: bob.cliToken, body: { name: "Bob's team" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Bob's team", kind: "team", role: "admin" });
    expect(res.body.id).toMatch(/^ws_/);
  });

  it("does not let an API key create a workspace it could never act in", async () => {
    const res = await call(workspaces.POST, "POST", "/workspaces", { token: alice.apiKey, body: { name: "x" } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });

  it("lists workspaces as { items }", async () => {
    const res = await call(workspaces.GET, "GET", "/workspaces", { token: bob.cliToken });
    expect(res.body.items.map((w: { id: string }) => w.id)).toContain(team);
    expect(res.body.items[0].id).toBe(bob.workspaceId);
  });

  it("lets an admin rename and a member not", async () => {
    const ok = await call(workspace.PATCH, "PATCH", `/workspaces/${team}`, { token: alice.cliToken, params: { workspace_id: team }, body: { name: "Growth" } });
    expect(ok.body.name).toBe("Growth");
    const denied = await call(workspace.PATCH, "PATCH", `/workspaces/${team}`, { token: bob.cliToken, params: { workspace_id: team }, body: { name: "Mine" } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("permission_denied");
  });

  it("lists members with integer ids", async () => {
    const res = await call(members.GET, "GET", `/workspaces/${team}/members`, { token: bob.cliToken, params: { workspace_id: team } });
    expect(res.body.items.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ["alice@example.com", "admin"],
      ["bob@example.com", "member"],
    ]);
    expect(Number.isInteger(res.body.items[0].id)).toBe(true);
  });

  it("keeps at least one admin: the last admin can be neither demoted nor removed", async () => {
    const list = await call(members.GET, "GET", `/workspaces/${team}/members`, { token: alice.cliToken, params: { workspace_id: team } });
    const aliceId = String(list.body.items[0].id);
    const demote = await call(member.PATCH, "PATCH", "", { token: alice.cliToken, params: { workspace_id: team, member_id: aliceId }, body: { role: "member" } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("conflict");
    const leave = await call(member.DELETE, "DELETE", "", { token: alice.cliToken, params: { workspace_id: team, member_id: aliceId } });
    expect(leave.status).toBe(409);
  });

  it("lets a member leave but not remove others, and keeps their work with the workspace", async () => {
    const carol = await person("carol@example.com");
    const m = await addMember(team, carol.id, "member");
    const projectRes = await call(projects.POST, "POST", "/projects", { token: carol.cliToken, body: { name: "Carol's research", workspace_id: team } });
    expect(projectRes.status).toBe(201);

    const list = await call(members.GET, "GET", `/workspaces/${team}/members`, { token: carol.cliToken, params: { workspace_id: team } });
    const aliceId = String(list.body.items[0].id);
    const kick = await call(member.DELETE, "DELETE", "", { token: carol.cliToken, params: { workspace_id: team, member_id: aliceId } });
    expect(kick.status).toBe(403);

    const leave = await call(member.DELETE, "DELETE", "", { token: carol.cliToken, params: { workspace_id: team, member_id: String(m.id) } });
    expect(leave.status).toBe(204);
    const afterwards = await call(project.GET, "GET", "", { token: alice.cliToken, params: { project_id: projectRes.body.id } });
    expect(afterwards.status).toBe(200);
    expect(afterwards.body.created_by).toBe("carol@example.com");
    const gone = await call(project.GET, "GET", "", { token: carol.cliToken, params: { project_id: projectRes.body.id } });
    expect(gone.status).toBe(404);
  });

  it("lets an admin promote and remove members", async () => {
    const dave = await person("dave@example.com");
    const m = await addMember(team, dave.id, "member");
    const promoted = await call(member.PATCH, "PATCH", "", { token: alice.cliToken, params: { workspace_id: team, member_id: String(m.id) }, body: { role: "admin" } });
    expect(promoted.body).toMatchObject({ id: m.id, email: "dave@example.com", role: "admin" });
    const removed = await call(member.DELETE, "DELETE", "", { token: alice.cliToken, params: { workspace_id: team, member_id: String(m.id) } });
    expect(removed.status).toBe(204);
  });

  it("stops a removed member's keys for the workspace on the very next request", async () => {
    const frank = await person("frank@example.com");
    const m = await addMember(team, frank.id, "member");
    const key = await call(apiKeys.POST, "POST", "/api-keys", { token: frank.cliToken, body: { name: "team key", workspace_id: team } });
    expect(key.status).toBe(201);
    // Used just before the removal, so the server still remembers it as valid.
    expect((await call(me.GET, "GET", "/me", { token: key.body.key })).status).toBe(200);
    const removed = await call(member.DELETE, "DELETE", "", { token: alice.cliToken, params: { workspace_id: team, member_id: String(m.id) } });
    expect(removed.status).toBe(204);
    expect((await call(me.GET, "GET", "/me", { token: key.body.key })).status).toBe(401);
    // Their own credentials still work in their own workspace.
    expect((await call(me.GET, "GET", "/me", { token: frank.apiKey })).status).toBe(200);
  });
});

describe("invitations", () => {
  it("returns the link once, keeps only its hash, and admits whoever opens it, once", async () => {
    const created = await call(invitations.POST, "POST", "", {
      token: alice.cliToken,
      params: { workspace_id: team },
      body: { email: "Frank@Example.com", role: "member" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: "frank@example.com", role: "member", status: "pending", invited_by: "alice@example.com", accepted_by: null, emailed: false });
    const token = created.body.url.split("/invite/")[1];
    expect(token.length).toBeGreaterThanOrEqual(32);
    const row = await db().invitation.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.tokenHash).toBe(hashSecret(token));
    expect(new Date(created.body.expires_at).getTime() - new Date(created.body.created_at).getTime()).toBe(7 * 24 * 3600 * 1000);

    const list = await call(invitations.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    expect(list.text).not.toContain(token);

    // Someone other than the invited address takes it.
    const grace = await person("grace@example.com");
    await acceptInvitation(grace.id, token);
    const after = await call(invitations.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    expect(after.body.items.find((i: { id: string }) => i.id === created.body.id)).toMatchObject({ status: "accepted", accepted_by: "grace@example.com" });
    await expect(acceptInvitation(eve.id, token)).rejects.toMatchObject({ code: "conflict" });
    const me2 = await call(me.GET, "GET", "/me", { token: grace.cliToken });
    expect(me2.body.workspaces.map((w: { id: string }) => w.id)).toContain(team);
  });

  it("admits exactly one of 20 concurrent acceptances", async () => {
    const created = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "many@example.com" } });
    const token = created.body.url.split("/invite/")[1];
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => person(`racer${i}@example.com`)));
    const results = await Promise.allSettled(people.map((p) => acceptInvitation(p.id, token)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const joined = await db().membership.count({ where: { workspaceId: team, userId: { in: people.map((p) => p.id) } } });
    expect(joined).toBe(1);
  });

  it("expires, and can be revoked while pending", async () => {
    const created = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "late@example.com" } });
    const token = created.body.url.split("/invite/")[1];
    await db().invitation.update({ where: { id: created.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(acceptInvitation(eve.id, token)).rejects.toMatchObject({ code: "conflict" });
    const list = await call(invitations.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    expect(list.body.items.find((i: { id: string }) => i.id === created.body.id).status).toBe("expired");

    const other = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "nope@example.com" } });
    const revoked = await call(invitation.DELETE, "DELETE", "", { token: alice.cliToken, params: { workspace_id: team, invitation_id: other.body.id } });
    expect(revoked.status).toBe(204);
    await expect(acceptInvitation(eve.id, other.body.url.split("/invite/")[1])).rejects.toMatchObject({ code: "conflict" });
  });

  it("replaces a pending invitation when the same address is invited again", async () => {
    const first = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "again@example.com", role: "member" } });
    const second = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "Again@Example.com", role: "admin" } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ email: "again@example.com", role: "admin", status: "pending" });
    const list = await call(invitations.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    const mine = list.body.items.filter((i: { email: string }) => i.email === "again@example.com");
    expect(mine.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [second.body.id, "pending"],
      [first.body.id, "revoked"],
    ]);
    // The old link no longer admits anyone; the new one does, with the new role.
    const taker = await person("again@example.com");
    await expect(acceptInvitation(taker.id, first.body.url.split("/invite/")[1])).rejects.toMatchObject({ code: "conflict" });
    await acceptInvitation(taker.id, second.body.url.split("/invite/")[1]);
    const members2 = await call(members.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    expect(members2.body.items.find((m: { email: string }) => m.email === "again@example.com").role).toBe("admin");
  });

  it("refuses invitations to a personal workspace, saying to create a team workspace", async () => {
    const res = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: alice.workspaceId }, body: { email: "x@example.com" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining("create a team workspace") });
    expect(await db().invitation.count({ where: { workspaceId: alice.workspaceId } })).toBe(0);
  });

  it("admits nobody through a pending link to a personal workspace made before such invitations were refused", async () => {
    const token = "PersonalWorkspaceInvitation0123456789abc";
    const row = await db().invitation.create({
      data: {
        id: newId("invitation"), workspaceId: alice.workspaceId, email: "old@example.com", role: "member", tokenHash: hashSecret(token),
        invitedByUserId: alice.id, expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
      },
    });
    await expect(acceptInvitation(eve.id, token)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("team workspace") });
    expect(await db().membership.count({ where: { workspaceId: alice.workspaceId } })).toBe(1);
    // The refusal took nothing: the link is still pending, and the invitation page says it admits nobody.
    expect((await db().invitation.findUniqueOrThrow({ where: { id: row.id } })).acceptedAt).toBeNull();
    expect(await previewInvitation(token)).toMatchObject({ status: "pending", toPersonalWorkspace: true });
  });

  it("is admin-only", async () => {
    const list = await call(invitations.GET, "GET", "", { token: bob.cliToken, params: { workspace_id: team } });
    expect(list.status).toBe(403);
    const create = await call(invitations.POST, "POST", "", { token: bob.cliToken, params: { workspace_id: team }, body: { email: "x@example.com" } });
    expect(create.status).toBe(403);
  });

  it("validates the email and role", async () => {
    const res = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "not-an-email", role: "owner" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("email: must be an email address");
    expect(res.body.error.message).toContain('role: must be one of: "admin", "member"');
  });
});

describe("projects", () => {
  it("derives a slug unique within the workspace", async () => {
    const a = await call(projects.POST, "POST", "/projects", { token: alice.cliToken, body: { name: "Acme CRM", workspace_id: team } });
    const b = await call(projects.POST, "POST", "/projects", { token: bob.cliToken, body: { name: "Acme  CRM!", workspace_id: team } });
    const c = await call(projects.POST, "POST", "/projects", { token: alice.cliToken, body: { name: "Acme CRM" } });
    expect(a.status).toBe(201);
    expect([a.body.slug, b.body.slug, c.body.slug]).toEqual(["acme-crm", "acme-crm-2", "acme-crm"]);
    expect(a.body).toMatchObject({ workspace_id: team, workspace_name: "Growth", created_by: "alice@example.com" });
    expect(c.body.workspace_id).toBe(alice.workspaceId);
  });

  it("merges a context PATCHed field by field (docs/decisions.md 'Updating a project's context'), and clears it whole with null", async () => {
    const created = await call(projects.POST, "POST", "/projects", {
      token: alice.cliToken,
      body: { name: "Ctx", context: { primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex"] } },
    });
    expect(created.body.context).toEqual({ primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex"] });
    const patched = await call(project.PATCH, "PATCH", "", { token: alice.cliToken, params: { project_id: created.body.id }, body: { context: { domains: ["acme.io"] } } });
    expect(patched.body.context).toEqual({ primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex"], domains: ["acme.io"] });
    expect(patched.body.name).toBe("Ctx");
    const noPrimary = await call(project.PATCH, "PATCH", "", { token: alice.cliToken, params: { project_id: created.body.id }, body: { context: { primary_domain: null } } });
    expect(noPrimary.body.context).toEqual({ brands: ["Acme"], competitors: ["Globex"], domains: ["acme.io"] });
    const cleared = await call(project.PATCH, "PATCH", "", { token: alice.cliToken, params: { project_id: created.body.id }, body: { context: null, name: "Renamed" } });
    expect(cleared.body.context).toBeUndefined();
    expect(cleared.body.name).toBe("Renamed");
  });

  it("stores a URL given as a domain as its host, and refuses what is not a domain name", async () => {
    const created = await call(projects.POST, "POST", "/projects", {
      token: alice.cliToken,
      body: {
        name: "Domains",
        context: { primary_domain: " https://WWW.Acme.com/pricing?x=1 ", domains: ["acme.io", "https://acme.io/", "docs.acme.com.", "bücher.de"] },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.context).toEqual({ primary_domain: "www.acme.com", domains: ["acme.io", "docs.acme.com", "xn--bcher-kva.de"] });

    const bad = await call(projects.POST, "POST", "/projects", {
      token: alice.cliToken,
      body: { name: "Bad", context: { primary_domain: "not a domain", domains: ["acme.com", "ftp://acme.com", "127.0.0.1", "localhost"] } },
    });
    expect(bad.status).toBe(400);
    for (const field of ["context.primary_domain", "context.domains[1]", "context.domains[2]", "context.domains[3]"]) {
      expect(bad.body.error.message).toContain(`${field}: must be a domain name like acme.com`);
    }
    expect(bad.body.error.message).not.toContain("context.domains[0]");
    const patched = await call(project.PATCH, "PATCH", "", { token: alice.cliToken, params: { project_id: created.body.id }, body: { context: { domains: ["https://acme.com/"] } } });
    // The domains replaced, the primary domain kept (a PATCH merges field by field).
    expect(patched.body.context).toEqual({ primary_domain: "www.acme.com", domains: ["acme.com"] });
  });

  it("refuses unknown fields inside context on POST and PATCH, as at the top level", async () => {
    const before = await db().project.count();
    const created = await call(projects.POST, "POST", "/projects", {
      token: alice.cliToken,
      body: { name: "Strict", context: { brands: ["Acme"], compettitors: ["Globex"], notes: "x" } },
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: "invalid_request", message: 'context: unknown fields "compettitors", "notes"' });
    expect(await db().project.count()).toBe(before);

    const kept = await call(projects.POST, "POST", "/projects", { token: alice.cliToken, body: { name: "Kept", context: { brands: ["Acme"] } } });
    const patched = await call(project.PATCH, "PATCH", "", {
      token: alice.cliToken,
      params: { project_id: kept.body.id },
      body: { context: { brands: ["Initech"], primary_domain: "acme.com", domain: "acme.io" } },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toBe('context: unknown field "domain"');
    const read = await call(project.GET, "GET", "", { token: alice.cliToken, params: { project_id: kept.body.id } });
    expect(read.body.context).toEqual({ brands: ["Acme"] });
  });

  it("lists only reachable projects, narrowed by workspace", async () => {
    const all = await call(projects.GET, "GET", "/projects", { token: alice.cliToken });
    const ws = new Set(all.body.items.map((p: { workspace_id: string }) => p.workspace_id));
    expect([...ws].sort()).toEqual([alice.workspaceId, team].sort());
    const narrowed = await call(projects.GET, "GET", "/projects", { token: alice.cliToken, query: { workspace: team } });
    expect(narrowed.body.items.every((p: { workspace_id: string }) => p.workspace_id === team)).toBe(true);
    const viaKey = await call(projects.GET, "GET", "/projects", { token: alice.apiKey });
    expect(viaKey.body.items.every((p: { workspace_id: string }) => p.workspace_id === alice.workspaceId)).toBe(true);
    const foreign = await call(projects.GET, "GET", "/projects", { token: eve.cliToken, query: { workspace: team } });
    expect(foreign.status).toBe(404);
  });
});

describe("authorization matrix: outside a credential's reach is 404, identical to a missing id", () => {
  it("holds for every endpoint that takes an object id", async () => {
    const teamProject = await call(projects.POST, "POST", "/projects", { token: alice.cliToken, body: { name: "Secret", workspace_id: team } });
    const inv = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "q@example.com" } });
    const teamKey = await call(apiKeys.POST, "POST", "/api-keys", { token: alice.cliToken, body: { name: "k", workspace_id: team } });
    const list = await call(members.GET, "GET", "", { token: alice.cliToken, params: { workspace_id: team } });
    const memberId = String(list.body.items[0].id);

    const cases: [string, (id: string) => Promise<{ status: number; text: string }>, string, string][] = [
      ["GET workspace", (id) => call(workspace.GET, "GET", "", { token: eve.cliToken, params: { workspace_id: id } }), team, newId("workspace")],
      ["PATCH workspace", (id) => call(workspace.PATCH, "PATCH", "", { token: eve.cliToken, params: { workspace_id: id }, body: { name: "x" } }), team, newId("workspace")],
      ["GET members", (id) => call(members.GET, "GET", "", { token: eve.cliToken, params: { workspace_id: id } }), team, newId("workspace")],
      ["PATCH member", (id) => call(member.PATCH, "PATCH", "", { token: eve.cliToken, params: { workspace_id: id, member_id: memberId }, body: { role: "member" } }), team, newId("workspace")],
      ["DELETE member", (id) => call(member.DELETE, "DELETE", "", { token: eve.cliToken, params: { workspace_id: id, member_id: memberId } }), team, newId("workspace")],
      ["GET invitations", (id) => call(invitations.GET, "GET", "", { token: eve.cliToken, params: { workspace_id: id } }), team, newId("workspace")],
      ["POST invitation", (id) => call(invitations.POST, "POST", "", { token: eve.cliToken, params: { workspace_id: id }, body: { email: "z@example.com" } }), team, newId("workspace")],
      ["DELETE invitation", (id) => call(invitation.DELETE, "DELETE", "", { token: eve.cliToken, params: { workspace_id: team, invitation_id: id } }), inv.body.id, newId("invitation")],
      ["GET project", (id) => call(project.GET, "GET", "", { token: eve.cliToken, params: { project_id: id } }), teamProject.body.id, newId("project")],
      ["PATCH project", (id) => call(project.PATCH, "PATCH", "", { token: eve.cliToken, params: { project_id: id }, body: { name: "x" } }), teamProject.body.id, newId("project")],
      ["DELETE api key", (id) => call(apiKey.DELETE, "DELETE", "", { token: eve.cliToken, params: { key_id: id } }), teamKey.body.id, newId("apiKey")],
      // Alice's own API key for her personal workspace cannot see her team workspace.
      ["GET workspace via API key", (id) => call(workspace.GET, "GET", "", { token: alice.apiKey, params: { workspace_id: id } }), team, newId("workspace")],
      ["GET project via API key", (id) => call(project.GET, "GET", "", { token: alice.apiKey, params: { project_id: id } }), teamProject.body.id, newId("project")],
    ];
    for (const [name, request, foreignId, missingId] of cases) {
      const foreign = await request(foreignId);
      const missing = await request(missingId);
      expect(foreign.status, name).toBe(404);
      expect(missing.status, name).toBe(404);
      // The message names only the id the caller gave: apart from that id, the answers are identical.
      expect(foreign.text.replaceAll(foreignId, "<id>"), name).toBe(missing.text.replaceAll(missingId, "<id>"));
      expect(JSON.parse(foreign.text).error.message, name).toMatch(/^No such (workspace|member|invitation|project|API key) "[^"]+"\.$/);
    }
  });

  it("answers a member with 403 on every admin-only endpoint", async () => {
    const list = await call(members.GET, "GET", "", { token: bob.cliToken, params: { workspace_id: team } });
    const aliceId = String(list.body.items[0].id);
    const inv = await call(invitations.POST, "POST", "", { token: alice.cliToken, params: { workspace_id: team }, body: { email: "r@example.com" } });
    const attempts = [
      call(workspace.PATCH, "PATCH", "", { token: bob.cliToken, params: { workspace_id: team }, body: { name: "x" } }),
      call(member.PATCH, "PATCH", "", { token: bob.cliToken, params: { workspace_id: team, member_id: aliceId }, body: { role: "member" } }),
      call(member.DELETE, "DELETE", "", { token: bob.cliToken, params: { workspace_id: team, member_id: aliceId } }),
      call(invitations.GET, "GET", "", { token: bob.cliToken, params: { workspace_id: team } }),
      call(invitations.POST, "POST", "", { token: bob.cliToken, params: { workspace_id: team }, body: { email: "s@example.com" } }),
      call(invitation.DELETE, "DELETE", "", { token: bob.cliToken, params: { workspace_id: team, invitation_id: inv.body.id } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("permission_denied");
    }
  });
});
