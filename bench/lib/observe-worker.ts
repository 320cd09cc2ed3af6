// A worker thread of bench:visibility-compute's two-thread comparison: reads the runs it is sent
// for the entities sent with them (lib/visibility observeRange, as the request thread does) and
// answers how many mentions it found, with the mentions' integers (transferred, not copied).
import { parentPort } from "node:worker_threads";
import { observeRange } from "@/lib/visibility/analysis";

parentPort!.on("message", ({ runs, entities }) => {
  const { store } = observeRange(runs, entities);
  parentPort!.postMessage({ mentions: store.length, data: store.data }, [store.data.buffer]);
});
