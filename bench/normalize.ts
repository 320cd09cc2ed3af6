// Benchmark: normalising 10,000 stored envelopes (a third per engine), on one core.
// Run: npx tsx bench/normalize.ts [count]. Target: at least 5,000 envelopes per second.
import os from "node:os";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import { claudeContent, claudeMessage } from "@/lib/engines/simulator/anthropic";
import { geminiResponse, parseRedirectToken } from "@/lib/engines/simulator/gemini";
import { openaiResponse } from "@/lib/engines/simulator/openai";
import { rngFrom } from "@/lib/engines/simulator/rng";
import { buildScenario } from "@/lib/engines/simulator/scenario";
import { ENGINE_IDS, NORMALIZER_VERSION, type EngineEnvelope, type EngineId, type RedirectOutcome } from "@/lib/engines/types";

const COUNT = Number(process.argv[2] ?? 10_000);
const PROMPTS = [
  "best running shoes for flat feet",
  "how do heat pumps work in cold climates",
  "Welche E-Bikes eignen sich für Pendler?",
  "is a roth ira worth it in 2026",
  "東京でおすすめのラーメン屋は？",
  "compare postgres and mysql for analytics",
];

function envelopeFor(engine: EngineId, i: number): EngineEnvelope {
  const prompt = PROMPTS[i % PROMPTS.length]!;
  const scenario = buildScenario(prompt, `bench:${engine}`, i);
  const rng = rngFrom("bench", engine, i);
  let bodies: unknown[];
  const redirects: Record<string, RedirectOutcome> = {};
  if (engine === "chatgpt") bodies = [openaiResponse(scenario, "gpt-5.4", prompt, rng)];
  else if (engine === "claude") bodies = [claudeMessage(claudeContent(scenario, rng), "claude-sonnet-4-6", "end_turn", 4000, rng)];
  else {
    const body = geminiResponse(scenario, "gemini-3.5-flash", prompt, "https://vertexaisearch.cloud.google.com", rng) as {
      candidates: Array<{ groundingMetadata?: { groundingChunks?: Array<{ web: { uri: string } }> } }>;
    };
    for (const chunk of body.candidates[0]!.groundingMetadata?.groundingChunks ?? []) {
      const token = parseRedirectToken(chunk.web.uri.split("/").pop()!);
      redirects[chunk.web.uri] = token?.b === "ok" ? { location: token.u, status: 302, error: null } : { location: null, status: 404, error: "no redirect (HTTP 404)" };
    }
    bodies = [body];
  }
  return {
    engine,
    normalizer_version: NORMALIZER_VERSION,
    model_requested: "bench",
    exchanges: bodies.map((body) => ({ request: { method: "POST", url: "https://provider/", body: { input: prompt } }, response: { status: 200, headers: {}, body } })),
    redirects,
  };
}

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};

// Stored envelopes are JSON in the database: keep them as strings, as a worker would read them.
const stored = Array.from({ length: COUNT }, (_, i) => JSON.stringify(envelopeFor(ENGINE_IDS[i % 3]!, i)));
const bytes = stored.reduce((n, s) => n + s.length, 0);
const parsed = stored.map((s) => JSON.parse(s) as EngineEnvelope);
sample();

// Warm-up, so the JIT is measured at its steady state.
for (let i = 0; i < Math.min(1000, COUNT); i++) normalizeEnvelope(parsed[i]!);

function measure(label: string, fn: (i: number) => unknown): void {
  let sources = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < COUNT; i++) {
    const out = fn(i) as { result: { sources: unknown[] } };
    sources += out.result.sources.length;
    if (i % 500 === 0) sample();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  sample();
  console.log(`${label.padEnd(28)} ${Math.round(COUNT / seconds).toLocaleString("en")} envelopes/s  (${COUNT} in ${(seconds * 1000).toFixed(0)} ms, ${sources} sources)`);
}

console.log(`cpus: ${os.cpus().length} (${os.cpus()[0]?.model ?? "unknown"}), one core used; node ${process.version}`);
console.log(`${COUNT} envelopes, ${(bytes / 1024 / 1024).toFixed(1)} MiB of JSON, engines ${ENGINE_IDS.join("/")} in turn`);
measure("normalise", (i) => normalizeEnvelope(parsed[i]!));
measure("JSON.parse + normalise", (i) => normalizeEnvelope(JSON.parse(stored[i]!) as EngineEnvelope));
console.log(`peak memory: rss ${(peakRss / 1024 / 1024).toFixed(0)} MiB, heap used ${(peakHeap / 1024 / 1024).toFixed(0)} MiB`);
