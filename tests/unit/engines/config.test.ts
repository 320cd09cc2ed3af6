import { describe, expect, it } from "vitest";
import { EngineConfigError, engineConfigFromEnv, engineEnvSchema, enabledEngines, withSimulator } from "@/lib/engines";

const configOf = (env: Record<string, string>) => engineConfigFromEnv(engineEnvSchema.parse(env));

describe("engine configuration", () => {
  it("runs simulated, with every engine, when no provider key is set", () => {
    const config = configOf({});
    expect(config.mode).toBe("simulated");
    expect(enabledEngines(config)).toEqual(["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
    expect(config.redirects.allowLoopback).toBe(false);
  });

  it("runs live with exactly the engines that have a key once one is set", () => {
    const config = configOf({ ANTHROPIC_API_KEY: "sk-ant-test", GEMINI_API_KEY: "AIza-test" });
    expect(config.mode).toBe("live");
    expect(enabledEngines(config)).toEqual(["claude", "gemini"]);
    expect(config.claude.apiKey).toBe("sk-ant-test");
    expect(config.claude.baseUrl).toBe("https://api.anthropic.com");
    expect(config.chatgpt.baseUrl).toBe("https://api.openai.com/v1");
    expect(config.gemini.baseUrl).toBe("https://generativelanguage.googleapis.com");
  });

  it("never runs simulated once a key is set, and says which variable is in the way", () => {
    expect(() => configOf({ GEOSCOPE_ENGINES: "simulated", OPENAI_API_KEY: "sk-test" })).toThrow(EngineConfigError);
    expect(() => configOf({ GEOSCOPE_ENGINES: "simulated", OPENAI_API_KEY: "sk-test" })).toThrow(/OPENAI_API_KEY/);
  });

  it("enables Perplexity with its key, and the four apps with DataForSEO's login and password together", () => {
    const config = configOf({ PERPLEXITY_API_KEY: "pplx-test", DATAFORSEO_LOGIN: "me@example.com", DATAFORSEO_PASSWORD: "secret" });
    expect(config.mode).toBe("live");
    expect(enabledEngines(config)).toEqual(["perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
    expect(config.perplexity).toEqual({ apiKey: "pplx-test", baseUrl: "https://api.perplexity.ai", model: "sonar" });
    expect(config.dataforseo).toEqual({ login: "me@example.com", password: "secret", baseUrl: "https://api.dataforseo.com" });
    // No model API is enabled: nothing can write questions, and a judge must be asked for by name.
    expect(config.questionsEngine).toBeNull();
    expect(() => configOf({ DATAFORSEO_LOGIN: "me@example.com" })).toThrow(/DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/);
    expect(() => configOf({ GEOSCOPE_ENGINES: "simulated", DATAFORSEO_LOGIN: "a", DATAFORSEO_PASSWORD: "b" })).toThrow(/DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD/);
  });

  it("allows live mode with no key: no engine is enabled", () => {
    expect(enabledEngines(configOf({ GEOSCOPE_ENGINES: "live" }))).toEqual([]);
  });

  it("takes models, limits and redirect hosts from the environment", () => {
    const config = configOf({
      OPENAI_MODEL: "gpt-5.2",
      ENGINE_TIMEOUT_MS: "30000",
      ENGINE_MAX_OUTPUT_TOKENS: "2048",
      ANTHROPIC_MAX_SEARCHES: "3",
      OPENAI_MAX_TOOL_CALLS: "8",
      REDIRECT_HOSTS: " Redirect.Example.com ,, other.example ",
    });
    expect(config.chatgpt).toMatchObject({ model: "gpt-5.2", maxToolCalls: 8 });
    expect(config).toMatchObject({ timeoutMs: 30000, maxOutputTokens: 2048 });
    expect(config.claude.maxSearches).toBe(3);
    expect(config.redirects.hosts).toEqual(["vertexaisearch.cloud.google.com", "redirect.example.com", "other.example"]);
  });

  it("rejects bad values with a message naming the rule", () => {
    const parsed = engineEnvSchema.safeParse({ ENGINE_TIMEOUT_MS: "soon", GEOSCOPE_ENGINES: "fake", OPENAI_BASE_URL: "ftp://x" });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        "ENGINE_TIMEOUT_MS: must be a whole number",
        "GEOSCOPE_ENGINES: must be simulated or live",
        "OPENAI_BASE_URL: must be an absolute http(s) URL",
      ]),
    );
  });

  it("points every SDK at the simulator and allows only its host on loopback", () => {
    const config = withSimulator(configOf({}), "http://127.0.0.1:4010");
    expect(config.chatgpt.baseUrl).toBe("http://127.0.0.1:4010/v1");
    expect(config.claude.baseUrl).toBe("http://127.0.0.1:4010");
    expect(config.gemini.baseUrl).toBe("http://127.0.0.1:4010");
    expect(config.perplexity.baseUrl).toBe("http://127.0.0.1:4010");
    expect(config.dataforseo.baseUrl).toBe("http://127.0.0.1:4010");
    expect(config.redirects.hosts).toContain("127.0.0.1:4010");
    expect(config.redirects.allowLoopback).toBe(true);
    expect(configOf({ GEOSCOPE_SIMULATOR_URL: "http://127.0.0.1:4010" }).claude.baseUrl).toBe("http://127.0.0.1:4010");
    expect(() => withSimulator(configOf({ OPENAI_API_KEY: "k" }), "http://127.0.0.1:4010")).toThrow(EngineConfigError);
  });
});
