// The research reads on a PostgreSQL server (the suite: tests/helpers/research-reads.ts): the
// statements' row versions, digests and collation as a server has them.
import { resetConfig } from "@/lib/config/env";
import { usePostgresDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { researchReadsSuite } from "../helpers/research-reads";

useSimulatedEngines({ billing: true });
resetConfig();

usePostgresDatabase();

researchReadsSuite();
