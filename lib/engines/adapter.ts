// The contract between runPrompt and one engine's SDK call.
import type { EngineConfig } from "./config";
import type { RunPromptInput } from "./types";

/**
 * Makes the provider call(s) through `fetch`, which records every exchange. It returns
 * nothing: what counts is what went over the wire, read back from the envelope.
 */
export type AdapterCall = (input: RunPromptInput, config: EngineConfig, fetch: typeof globalThis.fetch) => Promise<void>;
