// Runs the engine simulator on its own: npx tsx lib/engines/simulator/main.ts --port 4010
// [--host 127.0.0.1] [--seed geoscope] [--latency-ms 0]
import { parseArgs } from "node:util";
import { startSimulator } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    seed: { type: "string", default: "geoscope" },
    "latency-ms": { type: "string", default: "0" },
  },
});

const port = Number(values.port);
const latencyMs = Number(values["latency-ms"]);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, got ${values.port}`);
  process.exit(2);
}
if (!Number.isInteger(latencyMs) || latencyMs < 0) {
  console.error(`--latency-ms must be a whole number of milliseconds, got ${values["latency-ms"]}`);
  process.exit(2);
}

const simulator = await startSimulator({ port, host: values.host, seed: values.seed, latencyMs });
console.log(`engine simulator listening on ${simulator.url}`);
console.log(`  OPENAI_BASE_URL=${simulator.url}/v1 ANTHROPIC_BASE_URL=${simulator.url} GEMINI_BASE_URL=${simulator.url}`);
console.log(`  PERPLEXITY_BASE_URL=${simulator.url} DATAFORSEO_BASE_URL=${simulator.url}`);

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
