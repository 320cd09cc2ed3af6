// Runs once when the server starts: a bad configuration stops it here, naming the variable;
// then the work driver resumes whatever was accepted before a crash or restart.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/config/env");
  config();
  const { startWork } = await import("./lib/work/dispatch");
  await startWork();
}
