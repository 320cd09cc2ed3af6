#!/usr/bin/env node
// The `geoscope` CLI's entry: runs cli/main.ts through tsx's ESM loader, so the CLI runs from a
// checkout (`npx geoscope …`, `npm run cli -- …`) with no build step.
import { register } from "tsx/esm/api";

register();
await import(new URL("./main.ts", import.meta.url).href);
