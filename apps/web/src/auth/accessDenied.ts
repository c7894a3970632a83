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
 * again) nor to Access Denied itself. Kept for the tab's life, forgotten when the user changes.
 */
const LIMIT = 50;
let seen: string[] = [];

/** Pages that are never a place to go back to. */
const NOT_A_PAGE = /^\/(access-denied|login)(\/|$)/;

export function notePageSeen(path: string): void {
  if (NOT_A_PAGE.test(path)) return;
  seen = [...seen.filter((p) => p !== path), path].slice(-LIMIT);
}

/** A page that refused (its guard, or a 403): not a page the user could see. */
export function notePageRefused(path: string): void {
  seen = seen.filter((p) => p !== path);
}

/** The last page seen that has not refused since, if any. */
export function lastPageSeen(): string | undefined {
  return seen.at(-1);
}

export function forgetPagesSeen(): void {
  seen = [];
}
