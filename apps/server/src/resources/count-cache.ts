/**
 * Totals of list queries that match many rows. Counting every match of a keyword over a million
 * audit records costs tens to hundreds of milliseconds, while the page itself is read in about one;
 * paging through the same filter would recount it every time. A large total is kept for a few
 * seconds and dropped when this instance writes to the table; another instance's writes show
 * within the time limit. Small totals are always counted afresh, so they are always exact.
 */
export const COUNT_CACHE_TTL_MS = 10_000;
export const COUNT_CACHE_MIN_TOTAL = 1_000;
const MAX_ENTRIES = 2_000;

interface Entry {
  total: number;
  expires: number;
}

export class CountCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<number>>();
  private readonly generation = new Map<string, number>();

  constructor(
    private readonly ttlMs = COUNT_CACHE_TTL_MS,
    private readonly minTotal = COUNT_CACHE_MIN_TOTAL,
  ) {}

  /** The total for `key` in `table`; concurrent callers of one key share a single count. */
  async total(table: string, key: string, count: () => Promise<number>): Promise<number> {
    const id = `${table}\u0000${key}`;
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit.total;
    const running = this.pending.get(id);
    if (running) return running;
    const started = this.generation.get(table) ?? 0;
    const counting = count().finally(() => this.pending.delete(id));
    this.pending.set(id, counting);
    const total = await counting;
    // A write that finished while counting may not be in this total: keep it only if none did.
    if (total >= this.minTotal && (this.generation.get(table) ?? 0) === started) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.delete(id);
      this.entries.set(id, { total, expires: Date.now() + this.ttlMs });
    }
    return total;
  }

  /** After a write to these tables: their totals are counted again. */
  invalidate(...tables: string[]) {
    for (const table of tables) {
      this.generation.set(table, (this.generation.get(table) ?? 0) + 1);
      for (const id of this.entries.keys()) if (id.startsWith(`${table}\u0000`)) this.entries.delete(id);
    }
  }
}

const caches = new WeakMap<object, CountCache>();

/** One cache per database handle, so that two apps on two databases in one process never mix totals. */
export function countCacheFor(db: object): CountCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CountCache();
    caches.set(db, cache);
  }
  return cache;
}
