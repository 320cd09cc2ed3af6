// A job of three steps for the durability tests (registered with GEOSCOPE_TEST_JOBS=1). Each step
// appends its name to `<dir>/effects.log` once it did its work. Step two appends to
// `<dir>/attempts.log` first and throws on its first `fail_first` executions (retries). Step three
// appends to `<dir>/starts.log` first, then waits for the file `<dir>/release`, so a test can kill
// the server between steps two and three and check after a restart that one and two did not run
// again. When the job fails for good, `<dir>/failed.log` gets the error.
import { access, appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { testThreeSteps } from "../events";
import { defineJob } from "../job";

async function released(dir: string): Promise<void> {
  for (;;) {
    try {
      await access(path.join(dir, "release"));
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function linesOf(file: string): Promise<number> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

export const threeStepsJob = defineJob({
  id: "test-three-steps",
  event: testThreeSteps,
  retries: 2,
  async run({ dir, fail_first: failFirst = 0 }, step) {
    const effects = path.join(dir, "effects.log");
    const one = await step.run("one", async () => {
      await appendFile(effects, "one\n");
      return 1;
    });
    const two = await step.run("two", async () => {
      const attempts = path.join(dir, "attempts.log");
      await appendFile(attempts, "two\n");
      if ((await linesOf(attempts)) <= failFirst) throw new Error("step two failed on purpose");
      await appendFile(effects, "two\n");
      return one + 1;
    });
    return step.run("three", async () => {
      await appendFile(path.join(dir, "starts.log"), "three\n");
      await released(dir);
      await appendFile(effects, "three\n");
      return two + 1;
    });
  },
  async onFailure({ dir }, error) {
    await appendFile(path.join(dir, "failed.log"), `${error.message}\n`);
  },
});
