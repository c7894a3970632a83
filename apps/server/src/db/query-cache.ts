import type { TableVersions } from './changes.ts';

/**
 * What a kept read is: its kind, what it lists and how, as values, never as a string that must
 * be taken apart again. Two reads share an entry only if their keys are equal part by part.
 */
export type CacheKey = readonly (string | number | boolean | null | object)[];

/**
 * Called with every read before its answer is used (tests: that the tables it read are all
 * among those it declared, or an omission would keep a stale answer).
 */
export type ReadCheck = <T>(key: CacheKey, tables: readonly string[], read: () => Promise<T>) => Promise<T>;

interface Entry {
  stamp: string;
  value: unknown;
  size: number;
}

/**
 * Results of reads (list pages, totals) kept for as long as none of the tables they were read from
 * has changed, as `TableVersions` sees it. A result is stored only if no change arrived while it
 * was read, so an entry never holds data older than its stamp. Concurrent reads of one key share
 * one query. Without versions (or while they are blind) every call reads afresh.
 */
export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<unknown>>();
  private used = 0;
  /**
   * Since the cache was made: reads answered without a query of their own (a kept entry, or a
   * read of the same key already running) and reads that went to the database (every read while
   * caching is off or changes cannot be seen). For the metrics.
   */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    private readonly versions: TableVersions | undefined,
    /** Bytes, roughly; the least recently used entries go first. */
    private readonly budget = 64 * 1024 * 1024,
    private readonly check?: ReadCheck,
  ) {}

  async get<T>(parts: CacheKey, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(parts);
    const read = this.check ? () => (this.check as ReadCheck)(parts, tables, load) : load;
    const stamp = this.versions?.stamp(tables);
    if (stamp === undefined) {
      this.stats.misses++;
      return read();
    }
    const hit = this.entries.get(key);
    if (hit?.stamp === stamp) {
      this.stats.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    const pendingKey = `${stamp}\u0000${key}`;
    const running = this.pending.get(pendingKey);
    if (running) {
      this.stats.hits++;
      return running as Promise<T>;
    }
    this.stats.misses++;
    const reading = read().finally(() => this.pending.delete(pendingKey));
    this.pending.set(pendingKey, reading);
    const value = await reading;
    if (this.versions?.stamp(tables) === stamp) this.store(key, { stamp, value, size: sizeOf(value) });
    return value;
  }

  /** Bytes held, roughly. */
  get size() {
    return this.used;
  }

  private store(key: string, entry: Entry) {
    if (entry.size > this.budget / 16) return;
    this.drop(key);
    this.entries.set(key, entry);
    this.used += entry.size;
    for (const [oldest, e] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= e.size;
    }
  }

  private drop(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.used -= old.size;
  }
}

/** UTF-16 code units of the JSON, about the memory a parsed page takes; counted once per store. */
const sizeOf = (value: unknown) => (JSON.stringify(value) ?? '').length * 2 + 200;
