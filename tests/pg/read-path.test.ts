// The run reads on a PostgreSQL server (the suite: tests/helpers/run-reads.ts): the statements'
// row versions and named prepared statements as a server has them.
import { resetConfig } from "@/lib/config/env";
import { usePostgresDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { runReadsSuite } from "../helpers/run-reads";

useSimulatedEngines({ billing: true });
resetConfig();

usePostgresDatabase();

runReadsSuite();
