// The simulator as other suites use it: standalone from the command line, and started inside
// the server process for simulated mode.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { engineConfigFromEnv, engineEnvSchema, prepareEngineConfig, runPrompt } from "@/lib/engines";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("engine simulator", () => {
  it("runs standalone with npx tsx lib/engines/simulator/main.ts --port", async () => {
    const child = spawn(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, "lib/engines/simulator/main.ts", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`simulator exited with ${code}: ${output}`)));
      });
      const health = await fetch(`${url}/_simulator/health`);
      expect(await health.json()).toEqual({ ok: true, engines: ["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"] });
      const config = engineConfigFromEnv(engineEnvSchema.parse({ GEOSCOPE_SIMULATOR_URL: url }));
      const run = await runPrompt("gemini", { prompt: "Why is the sky blue?" }, { config });
      expect(run.ok).toBe(true);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("starts inside the process in simulated mode when no simulator URL is given", async () => {
    const config = await prepareEngineConfig(engineConfigFromEnv(engineEnvSchema.parse({})));
    expect(config.simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await prepareEngineConfig(engineConfigFromEnv(engineEnvSchema.parse({})))).toEqual(config);
    const run = await runPrompt("claude", { prompt: "Why is the sky blue?" }, { config });
    expect(run.ok && run.model).toMatch(/-simulated$/);
  });

  it("leaves a live configuration alone", async () => {
    const live = engineConfigFromEnv(engineEnvSchema.parse({ OPENAI_API_KEY: "sk-live" }));
    expect(await prepareEngineConfig(live)).toBe(live);
  });
});
