// Runs once when the server starts: a bad configuration stops it here, naming the variable.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { config } = await import("./lib/config/env");
  config();
}
