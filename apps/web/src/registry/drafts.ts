/*
 * Values typed into a form, handed to another screen of this tab (a deleted record's form opens
 * the create form with them). Kept in memory, not in the history state: they may hold a picture
 * file, and they are no use to another tab.
 */

const MAX_DRAFTS = 20;
const drafts = new Map<string, unknown>();
let counter = 0;

/** Keeps `values` and returns the id to pass on (`BackState.draft`). */
export function stashDraft(values: unknown): string {
  counter += 1;
  const id = `draft-${counter}`;
  drafts.set(id, values);
  // The oldest go first; a draft is read when its screen opens, long before twenty more are made.
  for (const old of drafts.keys()) {
    if (drafts.size <= MAX_DRAFTS) break;
    drafts.delete(old);
  }
  return id;
}

/** The values kept under `id`, if any. They stay, so that Back and forward reopen them too. */
export function readDraft<T>(id: unknown): T | undefined {
  return typeof id === 'string' ? (drafts.get(id) as T | undefined) : undefined;
}
