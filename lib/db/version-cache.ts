// Texts made from rows' stored JSON, remembered under the version of the rows they were made from
// (a row's xmin, or a signature of several rows' xmins): the prepared-statement reads
// (lib/runs/read.ts, lib/fanouts/read.ts, lib/analyses/read.ts) parse and serialise stored
// JSON once per version instead of once per request. The database says on every read which version is current, so an
// entry is used only when its version is the one just read: never stale, only evicted.
import { currentDb, type Db } from "./client";

type Entry = { version: string; size: number };

type Holder = { db: Db; entries: Map<string, Entry>; chars: number };

/**
 * A least-recently-used map from an id to the texts of one version of it, bounded by the
 * characters it holds. One per kind of object, kept on globalThis (named) so that a dev-mode
 * reload of a module reuses it, and emptied when the process switches databases (tests): a
 * version means nothing in another database.
 */
export class VersionCache<T extends Entry> {
  /**
   * @param name the globalThis slot
   * @param maxChars characters held at most, all entries together (about twice as many bytes at worst)
   * @param maxEntryChars an entry larger than this is not remembered
   */
  constructor(
    private readonly name: string,
    private readonly maxChars: number,
    private readonly maxEntryChars: number,
  ) {}

  private holder(): Holder {
    const slots = globalThis as unknown as Record<string, Holder | undefined>;
    const db = currentDb();
    let holder = slots[this.name];
    if (holder?.db !== db) slots[this.name] = holder = { db, entries: new Map(), chars: 0 };
    return holder;
  }

  /** The entry remembered for `id`, whatever its version (the caller compares it with the row's). */
  get(id: string): T | undefined {
    const h = this.holder();
    const entry = h.entries.get(id) as T | undefined;
    if (entry) {
      // Most recently used last, so that eviction takes the least recently used first.
      h.entries.delete(id);
      h.entries.set(id, entry);
    }
    return entry;
  }

  /** The entry for `id` when it is of this version. */
  current(id: string, version: string | null | undefined): T | undefined {
    const entry = this.get(id);
    return entry && entry.version === version ? entry : undefined;
  }

  set(id: string, entry: T): void {
    const h = this.holder();
    const previous = h.entries.get(id);
    if (previous) {
      h.entries.delete(id);
      h.chars -= previous.size;
    }
    if (entry.size > this.maxEntryChars) return;
    h.entries.set(id, entry);
    h.chars += entry.size;
    for (const [old, value] of h.entries) {
      if (h.chars <= this.maxChars) break;
      h.entries.delete(old);
      h.chars -= value.size;
    }
  }
}
