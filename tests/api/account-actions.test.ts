// The account page's server actions and the device page refuse what the API refuses, through the
// same input parsing: NUL in a form's text is a 400-style message naming the field, a malformed id
// is a missing object, and nothing reaches the database to fail there.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "../helpers/app";
import { person, principalOf, type Person } from "../helpers/people";

let signedIn: Principal;
vi.mock("@/lib/auth/session", () => ({
  requireSessionPrincipal: async () => signedIn,
  sessionPrincipal: async () => signedIn,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const actions = await import("@/app/account/actions");
const { decideDeviceLogin, findPendingDeviceLogin } = await import("@/lib/auth/device");

useTestDatabase();

let rui: Person;

beforeAll(async () => {
  rui = await person("rui@example.com");
  signedIn = principalOf(rui);
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const idle = { ok: true };

describe("account page actions", () => {
  it("refuse NUL in names and context, naming the field, and store nothing", async () => {
    const before = await Promise.all([db().project.count(), db().apiKey.count(), db().workspace.count()]);
    // Named by the form's labels, not the request's paths.
    expect(await actions.createProjectAction(idle, form({ name: "rob\u0000ust" }))).toEqual({ ok: false, message: "Project name: must not contain NUL (U+0000)" });
    expect(await actions.createProjectAction(idle, form({ name: "ok", brands: "Acme, Ac\u0000me" }))).toEqual({
      ok: false,
      message: "Brands (item 2): must not contain NUL (U+0000)",
    });
    expect(await actions.createApiKeyAction(idle, form({ name: "ci\u0000" }))).toMatchObject({ ok: false, message: "Name: must not contain NUL (U+0000)" });
    expect(await actions.createWorkspaceAction(idle, form({ name: "\u0000" }))).toMatchObject({ ok: false, message: "Workspace name: must not contain NUL (U+0000)" });
    expect(await Promise.all([db().project.count(), db().apiKey.count(), db().workspace.count()])).toEqual(before);
  });

  it("answer a malformed id as a missing object, as the API does in a path", async () => {
    expect(await actions.revokeApiKeyAction(idle, form({ key_id: "ak_\u0000" }))).toEqual({ ok: false, message: 'No such API key "ak_\\u0000".' });
    expect(await actions.revokeCliTokenAction(idle, form({ token_id: "ct_\u0000" }))).toEqual({ ok: false, message: 'No such CLI login "ct_\\u0000".' });
    const member = await actions.removeMemberAction(idle, form({ workspace_id: rui.workspaceId, member_id: "1\u0000" }));
    expect(member).toEqual({ ok: false, message: 'No such member "1\\u0000".' });
    const renamed = await actions.renameWorkspaceAction(idle, form({ workspace_id: "ws_\u0000", name: "New" }));
    expect(renamed).toEqual({ ok: false, message: 'No such workspace "ws_\\u0000".' });
    const project = await actions.updateProjectAction(idle, form({ project_id: "nonsense", name: "x" }));
    expect(project).toEqual({ ok: false, message: 'No such project "nonsense".' });
  });

  it("still do their work with well-formed input", async () => {
    const created = await actions.createWorkspaceAction(idle, form({ name: "Crew" }));
    expect(created).toEqual({ ok: true, message: "Workspace created." });
    const crew = await db().workspace.findFirstOrThrow({ where: { name: "Crew" } });
    expect(await actions.renameWorkspaceAction(idle, form({ workspace_id: crew.id, name: "Crew 2" }))).toEqual({ ok: true, message: "Workspace renamed." });
  });
});

describe("project forms", () => {
  it("create with every field the form shows, Other domains included", async () => {
    const created = await actions.createProjectAction(idle, form({ name: "Made here", primary_domain: "acme.com", domains: "docs.acme.com, acme.io", brands: "Acme", competitors: "Globex" }));
    expect(created.ok).toBe(true);
    const project = await db().project.findFirstOrThrow({ where: { name: "Made here" } });
    expect(project.context).toEqual({ primary_domain: "acme.com", domains: ["docs.acme.com", "acme.io"], brands: ["Acme"], competitors: ["Globex"] });
  });

  it("an edit changes only the fields edited in the form, keeping what is stored for the rest", async () => {
    await actions.createProjectAction(idle, form({ name: "Edited", primary_domain: "acme.com", brands: "Acme", competitors: "Globex" }));
    const project = await db().project.findFirstOrThrow({ where: { name: "Edited" } });
    const shown = { name: "Edited", primary_domain: "acme.com", domains: "", brands: "Acme", competitors: "Globex" };
    // Since the form was shown, the competitors and the name were changed elsewhere.
    await db().project.update({ where: { id: project.id }, data: { name: "Edited elsewhere", context: { primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex", "Initech"] } } });
    const was = Object.fromEntries(Object.entries(shown).map(([k, v]) => [`was.${k}`, v]));
    const saved = await actions.updateProjectAction(idle, form({ project_id: project.id, ...shown, ...was, brands: "Acme, Acme Cloud" }));
    expect(saved).toEqual({ ok: true, message: "Project Edited elsewhere saved." });
    const after = await db().project.findUniqueOrThrow({ where: { id: project.id } });
    expect(after.name).toBe("Edited elsewhere");
    expect(after.context).toEqual({ primary_domain: "acme.com", brands: ["Acme", "Acme Cloud"], competitors: ["Globex", "Initech"] });
    // A field emptied in the form is emptied.
    await actions.updateProjectAction(idle, form({ project_id: project.id, ...shown, ...was, primary_domain: "" }));
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).context).toEqual({ brands: ["Acme", "Acme Cloud"], competitors: ["Globex", "Initech"] });
  });
});

describe("device page", () => {
  it("takes a typed code holding NUL, or anything no user code can be, as unknown without asking the database", async () => {
    expect(await findPendingDeviceLogin("BCDF\u0000GHJ")).toBeNull();
    expect(await findPendingDeviceLogin("x".repeat(10_000))).toBeNull();
    expect(await decideDeviceLogin(rui.id, "BCDF-GHJ\u0000", true)).toBe(false);
  });
});
