// The run reads on a PostgreSQL server (the suite: tests/helpers/run-reads.ts): the statements'
// row versions and named prepared statements as a server has them.
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { localDriver } from "@/lib/work/local-driver";
import { freshPostgres } from "../helpers/db";
import { useSimulatedEngines } from "../helpers/engines";
import { runReadsSuite } from "../helpers/run-reads";

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

runReadsSuite();
