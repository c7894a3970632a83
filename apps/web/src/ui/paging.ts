/** Paging rules shared by every paged table. */
export interface Paged {
  page: number;
  limit: number;
}

/** Changing rows per page goes back to page 1. */
export const withLimit = <Q extends Paged>(query: Q, limit: number): Q => ({ ...query, limit, page: 1 });

export const lastPage = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/** Screen-reader-only text. */
export const visuallyHidden = {
  position: 'absolute',
  // In `sx` a bare 1 means 100%: a hidden element as large as its container made the page
  // scroll far below its footer. Pixels, written as such.
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
