// Runs once when the server starts: the request guard goes in front of Next.js's routing (paths
// and methods Next.js cannot route, lib/http/request-guard.ts); a bad configuration stops the
// server here, naming the variable; then the work driver resumes whatever was accepted before a
// crash or restart.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installRequestGuard } = await import("./lib/http/request-guard");
  installRequestGuard();
  const { config } = await import("./lib/config/env");
  config();
  const { startWork } = await import("./lib/work/dispatch");
  await startWork();
}
