import type { SessionTiming } from '@wfc/contract';

/** The warning shows this long before the session ends (half the idle window when that is shorter). */
export const WARNING_LEAD_MS = 120_000;

export const warningLead = (idleMs: number) => Math.min(WARNING_LEAD_MS, idleMs / 2);

export type ClockPhase = 'stopped' | 'running' | 'warning' | 'expired';

export interface ClockSnapshot {
  phase: ClockPhase;
  /** When the session ends, on this browser's clock; null while stopped. */
  deadline: number | null;
  /** The deadline is the session's absolute lifetime, which no activity extends. */
  final: boolean;
}

/** What one tab tells the others: the same session seen from there. */
export interface SharedClock {
  idleMs: number;
  touchIntervalMs: number;
  lastSeen: number;
  absoluteDeadline: number;
}

const CHANNEL = 'wfc-session-clock';
const STOPPED: ClockSnapshot = { phase: 'stopped', deadline: null, final: false };

/**
 * When the server will end the session, worked out the way the server decides it.
 *
 * The server ends a session once `idleMs` has passed since its stored last-seen time (or its
 * absolute lifetime since sign-in), and writes last-seen only when a request comes more than
 * `touchIntervalMs` after the stored one. So:
 * - a sign-in or GetSession answer says exactly how long is left (`idleExpiresInMs`, counted from
 *   the moment the call was sent, so a slow answer errs early);
 * - any other successful call sent at `t` proves last-seen is at least `t - touchIntervalMs`,
 *   so the session lasts at least until `t - touchIntervalMs + idleMs`.
 * The deadline kept is the latest of these lower bounds: never later than the server's.
 *
 * Tabs of the console share one session, so they share what they learn through a
 * BroadcastChannel: an idle tab does not warn, nor sign out, while another one is in use.
 */
export class SessionClock {
  private policy: { idleMs: number; touchIntervalMs: number } | null = null;
  private lastSeen = 0;
  private absoluteDeadline = Number.POSITIVE_INFINITY;
  /** Calls sent before the session was (re)started belong to an earlier session. */
  private startedAt = 0;
  private snapshot: ClockSnapshot = STOPPED;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private connected = false;
  private readonly listeners = new Set<() => void>();
  private channel: BroadcastChannel | null = null;

  constructor(
    private readonly onExpire: () => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Starts sharing with the other tabs and keeping time; returns the stop of both (the provider's
   * unmount). Nothing is scheduled before: a clock that is never connected never fires.
   */
  connect(share = typeof BroadcastChannel !== 'undefined'): () => void {
    const channel = share ? new BroadcastChannel(CHANNEL) : null;
    channel?.addEventListener('message', (e: MessageEvent<SharedClock>) => this.merge(e.data));
    this.channel = channel;
    this.connected = true;
    this.recheck();
    return () => {
      channel?.close();
      if (this.channel === channel) this.channel = null;
      this.connected = false;
      this.clearTimer();
    };
  }

  /** A sign-in or GetSession answer to a call sent at `sentAt`: the session's exact timing. */
  start(timing: SessionTiming, sentAt: number): void {
    this.policy = { idleMs: timing.idleMs, touchIntervalMs: timing.touchIntervalMs };
    this.lastSeen = sentAt + timing.idleExpiresInMs - timing.idleMs;
    this.absoluteDeadline = sentAt + timing.absoluteExpiresInMs;
    this.startedAt = sentAt;
    this.update(true);
  }

  /** A successful call sent at `sentAt`: the session was seen then, within the touch interval. */
  activity(sentAt: number): void {
    if (!this.policy || sentAt < this.startedAt) return;
    const seen = sentAt - this.policy.touchIntervalMs;
    if (seen <= this.lastSeen) return;
    this.lastSeen = seen;
    this.update(true);
  }

  /** Signed out, or the session has ended: no warning until the next start. */
  stop(): void {
    this.policy = null;
    this.clearTimer();
    this.set(STOPPED);
  }

  /** Timers of a hidden tab may run late; a tab shown again looks at the time at once. */
  recheck(): void {
    if (this.policy) this.update(false);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ClockSnapshot => this.snapshot;

  private merge(other: SharedClock): void {
    // The tabs share one cookie, so one session: another tab's news can only make it last longer.
    if (this.policy && other.lastSeen <= this.lastSeen) return;
    this.policy = { idleMs: other.idleMs, touchIntervalMs: other.touchIntervalMs };
    this.lastSeen = other.lastSeen;
    this.absoluteDeadline = other.absoluteDeadline;
    this.update(false);
  }

  private update(broadcast: boolean): void {
    const policy = this.policy;
    if (!policy) return;
    if (broadcast) {
      const shared: SharedClock = {
        ...policy,
        lastSeen: this.lastSeen,
        absoluteDeadline: this.absoluteDeadline,
      };
      this.channel?.postMessage(shared);
    }
    const idleDeadline = this.lastSeen + policy.idleMs;
    const deadline = Math.min(idleDeadline, this.absoluteDeadline);
    const final = this.absoluteDeadline < idleDeadline;
    const warnAt = deadline - warningLead(policy.idleMs);
    const now = this.now();
    this.clearTimer();
    if (!this.connected) {
      this.set({ phase: 'running', deadline, final });
      return;
    }
    if (now >= deadline) {
      this.policy = null;
      this.set({ phase: 'expired', deadline, final });
      this.onExpire();
      return;
    }
    const warning = now >= warnAt;
    this.set({ phase: warning ? 'warning' : 'running', deadline, final });
    this.timer = setTimeout(() => this.update(false), (warning ? deadline : warnAt) - now);
  }

  private set(next: ClockSnapshot): void {
    const prev = this.snapshot;
    if (prev.phase === next.phase && prev.deadline === next.deadline && prev.final === next.final) return;
    this.snapshot = next;
    for (const l of this.listeners) l();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** "2 minutes", "1 minute 5 seconds", "45 seconds": what is left, rounded up to the second. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const parts: string[] = [];
  if (minutes > 0) parts.push(`${minutes} minute${minutes === 1 ? '' : 's'}`);
  if (seconds > 0 || minutes === 0) parts.push(`${seconds} second${seconds === 1 ? '' : 's'}`);
  return parts.join(' ');
}
