// The research reads on a PostgreSQL server (the suite: tests/helpers/research-reads.ts): the
// statements' row versions, digests and collation as a server has them.
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { localDriver } from "@/lib/work/local-driver";
import { freshPostgres } from "../helpers/db";
import { useSimulatedEngines } from "../helpers/engines";
import { researchReadsSuite } from "../helpers/research-reads";

useSimulatedEngines({ billing: true });
resetConfig();

let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  close = (await freshPostgres()).close;
});
afterAll(async () => {
  await localDriver().drained();
  await close?.();
});

researchReadsSuite();
