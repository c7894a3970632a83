import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRemaining, SessionClock, warningLead } from '../../src/auth/sessionClock';
import { sessionTiming } from '../support/session';

const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 1, 9, 0, 0);

let clocks: SessionClock[] = [];
function clock(onExpire = vi.fn()) {
  const c = new SessionClock(onExpire);
  c.connect(false);
  clocks.push(c);
  return { c, onExpire, phase: () => c.getSnapshot().phase };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  for (const c of clocks) c.stop();
  clocks = [];
  vi.useRealTimers();
});

describe('the idle warning clock', () => {
  it('warns 2 minutes before the idle expiry, then expires', () => {
    const { c, onExpire, phase } = clock();
    c.start(sessionTiming(), Date.now());
    expect(phase()).toBe('running');
    expect(c.getSnapshot().deadline).toBe(T0 + 30 * MINUTE);

    vi.advanceTimersByTime(28 * MINUTE - 1);
    expect(phase()).toBe('running');
    vi.advanceTimersByTime(1);
    expect(phase()).toBe('warning');
    expect(onExpire).not.toHaveBeenCalled();

    vi.advanceTimersByTime(2 * MINUTE - 1);
    expect(phase()).toBe('warning');
    vi.advanceTimersByTime(1);
    expect(phase()).toBe('expired');
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('counts from the last-seen time the server stored, not from the answer', () => {
    const { c, phase } = clock();
    // GetSession answered with 10 minutes left: the server last wrote last-seen 20 minutes ago.
    c.start(sessionTiming({ idleExpiresInMs: 10 * MINUTE }), Date.now());
    vi.advanceTimersByTime(8 * MINUTE);
    expect(phase()).toBe('warning');
  });

  it('moves the deadline on with every successful call, allowing for the touch interval', () => {
    const { c, phase } = clock();
    c.start(sessionTiming(), Date.now());
    vi.advanceTimersByTime(20 * MINUTE);
    // A call sent now: the server's last-seen is at least a minute before it.
    c.activity(Date.now());
    expect(c.getSnapshot().deadline).toBe(Date.now() + 29 * MINUTE);
    vi.advanceTimersByTime(27 * MINUTE - 1);
    expect(phase()).toBe('running');
    vi.advanceTimersByTime(1);
    expect(phase()).toBe('warning');
  });

  it('ignores calls that prove nothing new, and calls sent before the session started', () => {
    const { c } = clock();
    c.start(sessionTiming(), Date.now());
    const deadline = c.getSnapshot().deadline;
    // Within the touch interval of the sign-in: the server may not have written anything.
    c.activity(Date.now() + 30_000);
    expect(c.getSnapshot().deadline).toBe(deadline);
    c.activity(Date.now() - 5 * MINUTE);
    expect(c.getSnapshot().deadline).toBe(deadline);
  });

  it('leaves the warning once a call has extended the session', () => {
    const { c, phase } = clock();
    c.start(sessionTiming(), Date.now());
    vi.advanceTimersByTime(28 * MINUTE + 30_000);
    expect(phase()).toBe('warning');
    // "Stay signed in": GetSession answers with the whole idle window ahead.
    c.start(sessionTiming({ absoluteExpiresInMs: 11 * 60 * MINUTE }), Date.now());
    expect(phase()).toBe('running');
    vi.advanceTimersByTime(28 * MINUTE);
    expect(phase()).toBe('warning');
  });

  it('warns before the absolute lifetime when it comes first, and says so', () => {
    const { c, onExpire, phase } = clock();
    c.start(sessionTiming({ absoluteExpiresInMs: 10 * MINUTE }), Date.now());
    vi.advanceTimersByTime(8 * MINUTE);
    expect(c.getSnapshot()).toMatchObject({ phase: 'warning', final: true, deadline: T0 + 10 * MINUTE });
    c.activity(Date.now());
    expect(phase()).toBe('warning');
    vi.advanceTimersByTime(2 * MINUTE);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('warns halfway through an idle window shorter than 4 minutes', () => {
    expect(warningLead(30 * MINUTE)).toBe(2 * MINUTE);
    expect(warningLead(MINUTE)).toBe(30_000);
    const { c, phase } = clock();
    c.start(sessionTiming({ idleMs: MINUTE, idleExpiresInMs: MINUTE, touchIntervalMs: 15_000 }), Date.now());
    vi.advanceTimersByTime(30_000 - 1);
    expect(phase()).toBe('running');
    vi.advanceTimersByTime(1);
    expect(phase()).toBe('warning');
  });

  it('stops on sign-out and fires nothing afterwards', () => {
    const { c, onExpire, phase } = clock();
    c.start(sessionTiming(), Date.now());
    c.stop();
    vi.advanceTimersByTime(60 * MINUTE);
    expect(phase()).toBe('stopped');
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('expires at once when shown again after its deadline passed unseen', () => {
    const { c, onExpire } = clock();
    c.start(sessionTiming(), Date.now());
    // A sleeping laptop: the clock jumps without the timers running.
    vi.setSystemTime(T0 + 31 * MINUTE);
    c.recheck();
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('tells its subscribers of each change of phase', () => {
    const { c } = clock();
    const heard: string[] = [];
    c.subscribe(() => heard.push(c.getSnapshot().phase));
    c.start(sessionTiming(), Date.now());
    vi.advanceTimersByTime(30 * MINUTE);
    expect(heard).toEqual(['running', 'warning', 'expired']);
  });
});

describe('tabs sharing one session', () => {
  it('an idle tab follows the activity of another one', async () => {
    vi.useRealTimers();
    const busy = new SessionClock(vi.fn());
    const idle = new SessionClock(vi.fn());
    const stopBusy = busy.connect(true);
    const stopIdle = idle.connect(true);
    try {
      const now = Date.now();
      busy.start(sessionTiming(), now);
      idle.start(sessionTiming(), now);
      busy.activity(now + 10 * MINUTE);
      await vi.waitFor(() => expect(idle.getSnapshot().deadline).toBe(now + 39 * MINUTE));
    } finally {
      stopBusy();
      stopIdle();
    }
  });
});

describe('formatRemaining', () => {
  it.each([
    [120_000, '2 minutes'],
    [119_001, '2 minutes'],
    [119_000, '1 minute 59 seconds'],
    [61_000, '1 minute 1 second'],
    [60_000, '1 minute'],
    [45_000, '45 seconds'],
    [1, '1 second'],
    [0, '0 seconds'],
    [-500, '0 seconds'],
  ])('%i ms is "%s"', (ms, text) => {
    expect(formatRemaining(ms)).toBe(text);
  });
});
