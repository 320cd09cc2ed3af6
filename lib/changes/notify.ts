// Change notifications for waiters (`wait=N`). Every process has a local emitter that waiters
// subscribe to. On PGlite that is all there is: one process owns the database. On a PostgreSQL
// server several instances share the database, and the worker that finishes a run may not be the
// instance holding the waiter, so each process also keeps ONE dedicated connection that LISTENs
// on a channel and re-emits what other instances NOTIFY into its local emitter. Waiters never
// touch that connection or the pool while they sleep: they only hold an emitter listener.
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
import { currentDb } from "../db/client";
import { log } from "../log";

export const CHANGE_CHANNEL = "geoscope_changed";
// NOTIFY payloads must stay under 8000 bytes; ids are short, so several fit in one.
const MAX_PAYLOAD = 7000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/** Receives ids that changed on some instance (or this one). */
export type ChangeSink = (id: string) => void;

/**
 * One LISTEN connection plus the NOTIFY side, for one database URL. Exported as a class so tests
 * can stand up two "instances" (two connections, two sinks) against one database.
 */
export class PgNotifier {
  /** Tags this instance's notifications, so it ignores its own echo (it already emitted locally). */
  readonly instanceId = randomUUID();
  private client: pg.Client | null = null;
  private ready: Promise<void> | null = null;
  private stopped = false;
  private reconnectDelay = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private outbox = new Set<string>();
  private flushScheduled = false;
  private pendingFlush: Promise<void> = Promise.resolve();

  constructor(
    readonly url: string,
    private readonly sink: ChangeSink,
    /** Called after a reconnect: notifications sent while disconnected are lost, so everyone re-reads. */
    private readonly onResubscribed: () => void = () => undefined,
    /** Asked before reconnecting: the process may have moved to another database meanwhile. */
    private readonly stillWanted: () => boolean = () => true,
  ) {}

  /** Whether LISTEN is in place right now (what other instances publish reaches this one). */
  get listeningNow(): boolean {
    return this.client !== null && !this.stopped;
  }

  /** Resolves once LISTEN is in place (waiters subscribe after this, so nothing is missed). */
  listening(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("notifier stopped"));
    this.ready ??= this.connect().catch((error: unknown) => {
      this.ready = null;
      this.scheduleReconnect();
      throw error;
    });
    return this.ready;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: "geoscope-listener" });
    // Without a listener an 'error' (server restart, terminated backend) would crash the process.
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, null));
    client.on("notification", (message) => {
      if (message.channel !== CHANGE_CHANNEL || !message.payload) return;
      const [origin, ...ids] = message.payload.split(" ");
      if (origin === this.instanceId) return;
      for (const id of ids) if (id) this.sink(id);
    });
    await client.connect();
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    this.client = client;
    this.reconnectDelay = RECONNECT_MIN_MS;
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.ready = null;
    if (this.stopped) return;
    log.warn("change listener connection lost; reconnecting", { error: error ?? undefined });
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stillWanted()) {
        void this.stop();
        return;
      }
      this.listening().then(this.onResubscribed, () => undefined);
    }, delay);
    this.reconnectTimer.unref();
  }

  /**
   * Tells every instance these ids changed. Called after the writing transaction committed, so a
   * woken waiter reads the new state. Coalesced per tick: a worker finishing many runs at once
   * sends few NOTIFYs, over the listener's own connection (no pool connection is taken).
   */
  publish(ids: string[]): void {
    if (this.stopped) return;
    for (const id of ids) this.outbox.add(id);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Chained after the previous flush: one connection runs one query at a time.
    const previous = this.pendingFlush;
    this.pendingFlush = new Promise((resolve) =>
      setImmediate(() => {
        this.flushScheduled = false;
        void previous.then(() => this.flush()).then(resolve);
      }),
    );
  }

  private async flush(): Promise<void> {
    const ids = [...this.outbox];
    this.outbox.clear();
    if (ids.length === 0) return;
    try {
      await this.listening();
      const client = this.client;
      if (!client) throw new Error("change listener not connected");
      for (const payload of chunk(this.instanceId, ids)) {
        await client.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, payload]);
      }
    } catch (error) {
      // Other instances' waiters then wake at their deadline instead, and still answer correctly.
      log.warn("change notification could not be sent", { ids: ids.length, error });
    }
  }

  /** Sends what is still queued, then closes the connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.pendingFlush;
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    this.ready = null;
    await client?.end().catch(() => undefined);
  }
}

function chunk(origin: string, ids: string[]): string[] {
  const payloads: string[] = [];
  let current = origin;
  for (const id of ids) {
    if (current.length + 1 + id.length > MAX_PAYLOAD && current !== origin) {
      payloads.push(current);
      current = origin;
    }
    current += ` ${id}`;
  }
  if (current !== origin) payloads.push(current);
  return payloads;
}

// ---- The process's notifier: the local emitter, plus a PgNotifier when on PostgreSQL. ----

// On globalThis so that route bundles, the worker and instrumentation share one of each.
type NotifyGlobal = { __geoscopeWaiters?: EventEmitter; __geoscopePgNotifier?: PgNotifier };
const holder = globalThis as unknown as NotifyGlobal;

/** The process's local emitter: event name = object id. */
export function localEmitter(): EventEmitter {
  if (!holder.__geoscopeWaiters) {
    const e = new EventEmitter();
    // Hundreds of clients may wait on one batch; that is the point, not a leak.
    e.setMaxListeners(0);
    holder.__geoscopeWaiters = e;
  }
  return holder.__geoscopeWaiters;
}

function emitLocal(id: string): void {
  localEmitter().emit(id);
}

function wakeEveryone(): void {
  const events = localEmitter();
  for (const name of events.eventNames()) events.emit(name);
}

function postgresUrl(): string | null {
  try {
    const target = currentDb().target;
    return target.kind === "postgres" ? target.url : null;
  } catch {
    return null;
  }
}

/** The process's PgNotifier for the current database, or null on PGlite. */
function processNotifier(): PgNotifier | null {
  const url = postgresUrl();
  const current = holder.__geoscopePgNotifier;
  if (current && current.url === url) return current;
  // The database changed (tests install a fresh one per file): the old listener is useless.
  if (current) void current.stop();
  holder.__geoscopePgNotifier = url ? new PgNotifier(url, emitLocal, wakeEveryone, () => postgresUrl() === url) : undefined;
  return holder.__geoscopePgNotifier ?? null;
}

/**
 * Resolves once this process hears other instances' changes (immediately on PGlite). Never
 * rejects: if the listener cannot connect, waiters still wake at their deadline and re-read.
 */
export async function ensureListening(): Promise<void> {
  const notifier = processNotifier();
  if (!notifier) return;
  await notifier.listening().catch((error: unknown) => log.warn("change listener unavailable; waiters fall back to their deadline", { error }));
}

/**
 * Whether this process hears every change published from now on: always on PGlite (one
 * process), on PostgreSQL while the LISTEN connection is up. While it is not, it starts
 * connecting and answers false, so callers that rely on change notices (the credential cache)
 * fall back to reading the database.
 */
export function hearsEveryChange(): boolean {
  const notifier = processNotifier();
  if (!notifier || notifier.listeningNow) return true;
  void ensureListening();
  return false;
}

/** Wakes waiters here at once, and on PostgreSQL tells every other instance too. */
export function publishChanged(ids: string[]): void {
  for (const id of ids) emitLocal(id);
  processNotifier()?.publish(ids);
}

/** Closes the process's listener connection (tests, graceful shutdown). */
export async function stopNotifier(): Promise<void> {
  const current = holder.__geoscopePgNotifier;
  holder.__geoscopePgNotifier = undefined;
  await current?.stop();
}
