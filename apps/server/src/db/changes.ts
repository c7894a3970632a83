import { randomBytes } from 'node:crypto';

/**
 * Every table carries a statement trigger that sends its name on this channel when a statement
 * changes it (migration 0004). PostgreSQL delivers a notification only when its transaction
 * commits, to every instance listening, in commit order.
 */
export const CHANGES_CHANNEL = 'wfc_changes';
const SYNC_PREFIX = 'sync:';
const SYNC_TIMEOUT_MS = 2000;

/** What a listener on a notification channel is told. */
export interface ChannelHandlers {
  /** The payload of one NOTIFY. */
  message(payload: string): void;
  /** Listening (again): anything sent before may have been missed. */
  listening(): void;
  /** Not listening any more, until `listening` is called again. */
  lost(): void;
}

/**
 * A change counter per table, fed by the notifications, so that anything computed from some
 * tables can be reused for as long as none of them changed, whichever instance (or psql session)
 * wrote. While not listening, nothing can be trusted: `stamp` answers undefined.
 */
export class TableVersions implements ChannelHandlers {
  private readonly versions = new Map<string, number>();
  /** Moves on every (re)connection and lost sync: stamps taken before can never match again. */
  private epoch = 0;
  private live = false;
  private readonly waiting = new Map<string, () => void>();

  message(payload: string) {
    if (payload.startsWith(SYNC_PREFIX)) {
      this.waiting.get(payload)?.();
      return;
    }
    this.versions.set(payload, (this.versions.get(payload) ?? 0) + 1);
  }

  listening() {
    this.epoch++;
    this.live = true;
  }

  lost() {
    this.epoch++;
    this.live = false;
    for (const release of this.waiting.values()) release();
  }

  /** A value that differs as soon as any of these tables has changed; undefined while blind. */
  stamp(tables: readonly string[]): string | undefined {
    if (!this.live) return undefined;
    let stamp = String(this.epoch);
    for (const t of tables) stamp += `:${this.versions.get(t) ?? 0}`;
    return stamp;
  }

  /**
   * Resolves once every change committed before the call has been counted here: a notification
   * sent now arrives after those of every transaction that committed earlier. A write request
   * waits for this before it answers, so its client's next read on this instance sees the write.
   * If the echo is late, everything counts as changed instead.
   */
  async settle(notify: (payload: string) => Promise<unknown>) {
    if (!this.live) return;
    const token = `${SYNC_PREFIX}${randomBytes(8).toString('hex')}`;
    let timer: NodeJS.Timeout | undefined;
    const echoed = new Promise<boolean>((resolve) => {
      this.waiting.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    try {
      await notify(token);
      if (!(await echoed)) this.epoch++;
    } catch {
      this.epoch++;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(token);
    }
  }
}
