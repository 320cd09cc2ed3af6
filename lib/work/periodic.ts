// Work done on a clock rather than on an event: declared once, run by both drivers. The local
// driver runs each task every `everyMs()` in this process (and once at start, so a server that
// was down catches up at once); Inngest runs it from a cron function (inngest/functions/jobs.ts).
// Every instance of a deployment runs them: a task must be safe to run anywhere, any number of
// times at once (the monitor check is: its claims are settled by a unique key). The time a run
// acts at is given to it, so tests call `run` with any clock they like.
import { log } from "../log";

export type PeriodicTask = {
  /** Stable: the Inngest function id. */
  id: string;
  /** Inngest's schedule (a cron expression; a minute is its finest). */
  cron: string;
  /** The local driver's interval. */
  everyMs: () => number;
  run(now: Date): Promise<unknown>;
};

export function definePeriodic(task: PeriodicTask): PeriodicTask {
  if (!/^[a-z][a-z0-9-]{1,62}$/.test(task.id)) throw new Error(`periodic task id "${task.id}" must be lower-case letters, digits and dashes`);
  return task;
}

type Running = { timer: NodeJS.Timeout | null; busy: boolean; stopped: boolean };
const globalForPeriodic = globalThis as unknown as { __geoscopePeriodic?: Map<string, Running> };

/** Runs each task now and then every `everyMs()` (a run never overlaps the previous one); idempotent. */
export function startPeriodic(tasks: readonly PeriodicTask[]): void {
  const running = (globalForPeriodic.__geoscopePeriodic ??= new Map());
  for (const task of tasks) {
    if (running.has(task.id)) continue;
    const state: Running = { timer: null, busy: false, stopped: false };
    running.set(task.id, state);
    const tick = async () => {
      if (state.busy || state.stopped) return;
      state.busy = true;
      try {
        await task.run(new Date());
      } catch (error) {
        log.warn("periodic task failed; it runs again at its next interval", { task: task.id, error });
      } finally {
        state.busy = false;
        if (!state.stopped) {
          state.timer = setTimeout(() => void tick(), task.everyMs());
          state.timer.unref();
        }
      }
    };
    void tick();
  }
}

/** Stops every task started here (tests, shutdown). */
export function stopPeriodic(): void {
  const running = globalForPeriodic.__geoscopePeriodic;
  if (!running) return;
  for (const state of running.values()) {
    state.stopped = true;
    if (state.timer) clearTimeout(state.timer);
  }
  running.clear();
}
