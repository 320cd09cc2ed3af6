// The run reads on PGlite (the suite: tests/helpers/run-reads.ts).
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { runReadsSuite } from "../helpers/run-reads";

useSimulatedEngines({ billing: true });
useTestDatabase();
runReadsSuite();
