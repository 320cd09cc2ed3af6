// The research reads on PGlite (the suite: tests/helpers/research-reads.ts).
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { researchReadsSuite } from "../helpers/research-reads";

useSimulatedEngines({ billing: true });
useTestDatabase();
researchReadsSuite();
