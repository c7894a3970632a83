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
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
