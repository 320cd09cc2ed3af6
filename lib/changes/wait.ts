// Long-polling (`wait=N`, spec 4.1): a request sleeps until the object it asked about finishes,
// woken by a change notification when a worker finishes it: an in-process event, and on
// PostgreSQL also LISTEN/NOTIFY so a worker on any instance wakes waiters on every instance
// (./notify.ts). Nothing polls the database in a loop, and no database connection is held
// while sleeping: the caller reads, releases, then waits on an emitter.
import { ensureListening, localEmitter, publishChanged } from "./notify";

/**
 * Wakes everyone waiting on these objects (runs, batches), on every instance. Call it after the
 * transaction that changed them committed: waiters re-read what they wait for.
 */
export function notifyChanged(...ids: (string | null | undefined)[]): void {
  const present = ids.filter((id): id is string => Boolean(id));
  if (present.length > 0) publishChanged(present);
}

/** Waiters currently registered on `id` in this process (tests check that disconnects free them). */
export function waiterCount(id: string): number {
  return localEmitter().listenerCount(id);
}

export type WaitOptions = {
  /** Seconds to wait at most; 0 returns at once. */
  seconds: number;
  /** The client's request signal: a disconnect ends the wait and frees the listener. */
  signal?: AbortSignal;
  /** Whether the object is finished; reads the database and returns (holds no connection while waiting). */
  isFinished: () => Promise<boolean>;
};

/**
 * Resolves as soon as `isFinished` answers true after a notification on `id`, or after
 * `seconds`, or when the client goes away. Answers whether the object finished.
 */
export async function waitUntilFinished(id: string, options: WaitOptions): Promise<boolean> {
  if (options.seconds <= 0 || options.signal?.aborted) return options.isFinished();
  const deadline = Date.now() + options.seconds * 1000;
  // On PostgreSQL, LISTEN must be in place before the first read, or another instance's
  // NOTIFY between that read and the sleep would be missed.
  await ensureListening();
  const events = localEmitter();
  let wake: (() => void) | null = null;
  let pending = false;
  // Subscribed before the first read, so a finish between the read and the sleep is not missed.
  const onChange = () => {
    pending = true;
    wake?.();
  };
  events.on(id, onChange);
  try {
    for (;;) {
      pending = false;
      if (await options.isFinished()) return true;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || options.signal?.aborted) return false;
      if (pending) continue;
      const outcome = await sleep(remaining, options.signal, (w) => (wake = w));
      wake = null;
      if (outcome === "aborted") return false;
      if (outcome === "timeout") return options.isFinished();
    }
  } finally {
    events.off(id, onChange);
  }
}

/**
 * A long-polled read (GET of a run, batch, fanout or analysis with `wait`): reads the object and,
 * when it is unfinished and a wait was asked for, waits for it to finish (waitUntilFinished) and
 * reads it again. `read` answers null when the caller cannot reach the object: `missing()` is
 * thrown, as for a missing one.
 */
export async function readWaiting<T extends { finished: boolean }>(
  id: string,
  read: () => Promise<T | null>,
  options: { wait?: number; signal?: AbortSignal; isFinished: () => Promise<boolean>; missing: () => Error },
): Promise<T> {
  let found = await read();
  if (!found) throw options.missing();
  if (options.wait && !found.finished) {
    await waitUntilFinished(id, { seconds: options.wait, signal: options.signal, isFinished: options.isFinished });
    found = await read();
    if (!found) throw options.missing();
  }
  return found;
}

/** Sleeps until `ms` passed, the signal aborted, or the registered waker is called; cleans up after itself. */
function sleep(ms: number, signal: AbortSignal | undefined, register: (wake: () => void) => void): Promise<"changed" | "timeout" | "aborted"> {
  return new Promise((resolve) => {
    const finish = (outcome: "changed" | "timeout" | "aborted") => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish("aborted");
    const timer = setTimeout(() => finish("timeout"), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    register(() => finish("changed"));
  });
}
