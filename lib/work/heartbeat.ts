// The one heartbeat: whatever holds a lease (a local job's row, a run) renews it every third of
// its length while it works, so a worker that dies stops renewing and another takes the work over
// once the lease has run out. `renew` writes the new expiry and answers whether the lease was
// still held; a failed renewal is logged and tried again at the next beat.
import { log } from "../log";

/** Renews a lease of `leaseMs` until the answered function is called; never keeps the process alive. */
export function heartbeat(what: Record<string, unknown>, leaseMs: number, renew: (expiresAt: Date) => Promise<unknown>): () => void {
  const timer = setInterval(() => {
    renew(new Date(Date.now() + leaseMs)).catch((error: unknown) => log.warn("lease renewal failed", { ...what, error }));
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  timer.unref?.();
  return () => clearInterval(timer);
}
