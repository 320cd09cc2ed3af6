// Runs before every api test file: what every test file of the app gets (setup-app.ts), and after
// each test the local driver drained, so no job keeps running into the next test or past the
// database's closing. (Not for tests/pg: a file there may hold work queued on a driver with no
// capacity for all its tests.)
import { afterEach } from "vitest";
import { localDriver } from "@/lib/work/local-driver";
import "./setup-app";

afterEach(async () => {
  await localDriver().drained();
});
