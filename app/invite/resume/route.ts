// Where sign-in lands an invitee: back on the invitation kept in this browser's cookie.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { INVITATION_COOKIE } from "./cookie";

export async function GET(): Promise<never> {
  const jar = await cookies();
  const token = jar.get(INVITATION_COOKIE)?.value;
  jar.delete({ name: INVITATION_COOKIE, path: "/invite" });
  redirect(token ? `/invite/${encodeURIComponent(token)}` : "/account#workspaces");
}
