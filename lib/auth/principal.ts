// Who is calling, as every service sees it.

export type CredentialKind = "api_key" | "cli_token" | "session";

export type Principal = {
  user: { id: string; email: string };
  credential: { kind: CredentialKind; id: string; name: string };
  /** The one workspace an API key acts in; null when the credential reaches all the person's workspaces. */
  workspaceId: string | null;
  /** Recorded on work and charges started with an API key. */
  apiKeyId: string | null;
};
