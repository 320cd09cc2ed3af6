// Local drivers the tests install in place of the process's one (no vitest here: scripts/fuzz.ts
// loads it too).
import { LocalDriver } from "@/lib/work/local-driver";

/** Drivers that accept work and start none: the api project's set-up file does not wait for them to drain (they never would). */
export const holdingBack = new WeakSet<LocalDriver>();

/** A driver that accepts work and starts none (see holdingBack). */
export function noCapacityDriver(): LocalDriver {
  const driver = new LocalDriver({ concurrency: () => 0 });
  holdingBack.add(driver);
  return driver;
}
