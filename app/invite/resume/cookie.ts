// Where a signed-out invitee's token waits while they sign in (see app/invite/[token]/actions.ts).
export const INVITATION_COOKIE = "geoscope-invitation";
export const INVITATION_RESUME_PATH = "/invite/resume";
