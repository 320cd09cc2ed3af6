// The entry of bench/lib/read-worker.ts in a worker thread: tsx's loader registered first.
import { register } from "tsx/esm/api";

register();
await import("./read-worker.ts");
