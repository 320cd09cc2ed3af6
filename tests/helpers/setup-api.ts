// Runs before every api test file: what every test file of the app gets (setup-app.ts), and after
// each test the local driver drained and the readings analyses keep after answering kept, so no
// job or write keeps running into the next test or past the database's closing. A driver installed to start nothing (noCapacityDriver: the fuzz world keeps
// one for its whole file) is not waited for: it never drains. (Not for tests/pg: a file there may
// hold work on such a driver of its own for all its tests.)
import { afterEach } from "vitest";
import { readingsKept } from "@/lib/visibility/run-observations";
import { localDriver } from "@/lib/work/local-driver";
import { holdingBack } from "./drivers";
import "./setup-app";

afterEach(async () => {
  const driver = localDriver();
  if (!holdingBack.has(driver)) await driver.drained();
  // Readings an analysis keeps after answering (lib/visibility/run-observations.ts keepAfter).
  await readingsKept();
});
