import type { SessionUser } from '@wfc/contract';

/**
 * - `open`: calls go through as usual.
 * - `signIn`: the session has ended while the user had unsaved input; calls answered 401 wait
 *   until the user signs in again in place.
 * - `discarding`: someone else signed in (or the user chose to sign out): the screen and its drafts
 *   are being thrown away, then the app goes to `goTo`.
 */
export type GateState =
  | { kind: 'open' }
  | { kind: 'signIn' }
  | { kind: 'discarding'; goTo: 'home'; user: SessionUser; sentAt: number }
  | { kind: 'discarding'; goTo: 'login' };

export type HoldOutcome = 'retry' | 'drop';

const OPEN: GateState = { kind: 'open' };

/**
 * Where the screens' unsaved input is registered (`useUnsavedInput`) and where calls answered 401
 * wait while the user signs in again. The dialog that asks for the password registers itself as
 * the host: without one on screen (a bare provider in a test, the restore loader) nothing is held.
 */
export class SessionGate {
  private readonly inputs = new Set<symbol>();
  private hosts = 0;
  private waiting: ((outcome: HoldOutcome) => void)[] = [];
  private state: GateState = OPEN;
  private readonly listeners = new Set<() => void>();
  /** When (this browser's clock) the latest sign-in was answered: calls sent before it used the old cookie. */
  signedInAt = 0;
  /** When the latest sign-in as a different user was answered: calls sent before it were someone else's. */
  userChangedAt = 0;

  /** A sign-in has just been answered, as the user signed in before (`sameUser`) or another. */
  noteSignIn(sameUser: boolean, at = Date.now()): void {
    this.signedInAt = at;
    if (!sameUser) this.userChangedAt = at;
  }

  setInput(token: symbol, dirty: boolean): void {
    if (dirty) this.inputs.add(token);
    else this.inputs.delete(token);
  }

  hasUnsavedInput(): boolean {
    return this.inputs.size > 0;
  }

  /** The sign-in dialog is mounted; returns its unmount. */
  attachHost(): () => void {
    this.hosts++;
    return () => {
      this.hosts--;
    };
  }

  /** Would an ended session be answered in place (a dialog over the screen) rather than by signing out? */
  canHold(): boolean {
    return this.state.kind === 'signIn' || (this.hosts > 0 && this.hasUnsavedInput());
  }

  /** Opens the sign-in dialog, if it is not open yet; resolves once the user has signed in, or discarded. */
  hold(): Promise<HoldOutcome> {
    if (this.state.kind === 'discarding') return Promise.resolve('drop');
    if (this.state.kind !== 'signIn') this.set({ kind: 'signIn' });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The same user has signed in again: every held call is sent again. */
  resume(): void {
    this.settle('retry');
    if (this.state.kind === 'signIn') this.set(OPEN);
  }

  /** Drafts are thrown away: held calls are dropped, and the screen goes Home (as `user`) or to /login. */
  discard(next: { goTo: 'home'; user: SessionUser; sentAt: number } | { goTo: 'login' }): void {
    this.settle('drop');
    this.inputs.clear();
    this.set({ kind: 'discarding', ...next });
  }

  /** The app has gone where `discard` said: screens show again. */
  finishDiscard(): void {
    if (this.state.kind === 'discarding') this.set(OPEN);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): GateState => this.state;

  private settle(outcome: HoldOutcome): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(outcome);
  }

  private set(state: GateState): void {
    this.state = state;
    for (const l of this.listeners) l();
  }
}
