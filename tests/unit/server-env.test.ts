import { describe, expect, it } from "vitest";
import { serverEnv, v8PoolSize } from "../../scripts/lib/server-env.mjs";

describe("the app server's environment", () => {
  it("gives V8 one helper thread per core beyond the first, at least one and at most Node's 4", () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => v8PoolSize(cores))).toEqual([1, 1, 2, 3, 4, 4]);
  });

  it("adds the pool size to NODE_OPTIONS and keeps what was there", () => {
    expect(serverEnv({ NODE_OPTIONS: "--max-old-space-size=4096", PORT: "4000" })).toEqual({
      NODE_OPTIONS: `--max-old-space-size=4096 --v8-pool-size=${v8PoolSize()}`,
      PORT: "4000",
    });
  });

  it("leaves a pool size the operator chose alone", () => {
    expect(serverEnv({ NODE_OPTIONS: "--v8-pool-size=8" }).NODE_OPTIONS).toBe("--v8-pool-size=8");
  });
});
