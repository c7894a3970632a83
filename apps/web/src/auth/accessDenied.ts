export const ACCESS_DENIED_PATH = '/access-denied';

/** What the Access Denied page is told: the page that refused, and the permissions it needs. */
export interface AccessDeniedState {
  /** The refused page (path, query and hash). */
  refused?: string;
  /** Permission names the role lacks, when the console knows them (a route guard refused). */
  missing?: string[];
  /** `missing` lists alternatives: any one of them would do. */
  anyOf?: boolean;
}

/**
 * The pages of this console the user has seen, most recent last, for Access Denied's Go Back: it
 * returns to the last one that did not refuse, never to the refused page (which would only refuse
 * again) nor to Access Denied itself. Kept for the tab's life (sessionStorage, so a reload or an
 * address typed in keeps them), forgotten when the user changes.
 */
const SEEN_KEY = 'wfc-pages-seen';
const LIMIT = 50;

/** Pages that are never a place to go back to. */
const NOT_A_PAGE = /^\/(access-denied|login)(\/|$|\?|#)/;

function readSeen(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function writeSeen(seen: string[]) {
  try {
    window.sessionStorage.setItem(SEEN_KEY, JSON.stringify(seen.slice(-LIMIT)));
  } catch {
    // Without storage, Go Back goes home.
  }
}

export function notePageSeen(path: string): void {
  if (NOT_A_PAGE.test(path)) return;
  writeSeen([...readSeen().filter((p) => p !== path), path]);
}

/** A page that refused (its guard, or a 403): not a page the user could see. */
export function notePageRefused(path: string): void {
  writeSeen(readSeen().filter((p) => p !== path));
}

/** The last page seen that has not refused since, if any. */
export function lastPageSeen(): string | undefined {
  return readSeen().at(-1);
}

export function forgetPagesSeen(): void {
  writeSeen([]);
}
