// Runs once when the server starts: the request guard goes in front of Next.js's routing (paths
// and methods Next.js cannot route, lib/http/request-guard.ts); a bad configuration stops the
// server here, naming the variable; the operator endpoint starts (embedded database only); then
// the work driver resumes whatever was accepted before a crash or restart.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installRequestGuard } = await import("./lib/http/request-guard");
  installRequestGuard();
  const { config } = await import("./lib/config/env");
  const settings = config();
  // With the embedded database this process is the only one that may open it: `npm run admin`
  // then reaches it through the loopback operator endpoint (lib/operator/endpoint.ts).
  const { dbTargetFromEnv } = await import("./lib/db/client");
  if (dbTargetFromEnv().kind === "pglite") {
    const { startOperatorEndpoint } = await import("./lib/operator/endpoint");
    const { log } = await import("./lib/log");
    await startOperatorEndpoint(settings.GEOSCOPE_DATA_DIR).catch((error) => log.warn("operator endpoint not started; npm run admin needs the server stopped", { error }));
  }
  const { startWork } = await import("./lib/work/start");
  await startWork();
}
