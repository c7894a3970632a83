import type { SessionUser } from '@wfc/contract';

/** Only the auth state is persisted, under this key. */
export const STORAGE_KEY = 'root';
/** How long a restored session may wait for the server's confirmation before the app shows it anyway. */
export const RESTORE_TIMEOUT_MS = 5000;

interface PersistedState {
  auth: { user: SessionUser | null; isAuthenticated: boolean };
}

function isSessionUser(value: unknown): value is SessionUser {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.userCode === 'string' && typeof v.username === 'string';
}

/** Anything unreadable (old format, hand-edited, storage blocked) counts as signed out. */
export function parseStoredUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<PersistedState> | null;
    const user = parsed?.auth?.user;
    return parsed?.auth?.isAuthenticated && isSessionUser(user) ? user : null;
  } catch {
    return null;
  }
}

export function readStoredUser(storage: Storage = window.localStorage): SessionUser | null {
  try {
    return parseStoredUser(storage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

export function writeStoredUser(user: SessionUser | null, storage: Storage = window.localStorage): void {
  const state: PersistedState = { auth: { user, isAuthenticated: user !== null } };
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Private modes may refuse storage; the session then simply lasts as long as the tab.
  }
}
