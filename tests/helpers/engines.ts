// Simulated answer engines for a test file: the in-process simulator with no latency, no
// provider key, no Inngest. Call at the top of the file, before anything reads the configuration.

export function useSimulatedEngines(options: { billing?: boolean } = {}): void {
  for (const key of [
    "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "PERPLEXITY_API_KEY", "DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD",
    "GEOSCOPE_SIMULATOR_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV",
  ]) delete process.env[key];
  process.env.GEOSCOPE_ENGINES = "simulated";
  process.env.GEOSCOPE_SIMULATOR_LATENCY_MS = "0";
  if (options.billing !== undefined) process.env.BILLING_ENABLED = String(options.billing);
}
