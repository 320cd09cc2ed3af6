// The entry of bench/lib/observe-worker.ts in a worker thread: tsx's loader registered first.
import { register } from "tsx/esm/api";

register();
await import("./observe-worker.ts");
