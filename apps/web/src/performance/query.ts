import {
  type PageQuery,
  PERFORMANCE_SORT_FIELDS,
  type PerformanceSortField,
  ROWS_PER_PAGE_OPTIONS,
} from '@wfc/contract';

/** The grid's query lives in the URL, so a reload or a shared link shows the same date and page. */
export interface GridQuery extends PageQuery {
  date: string;
  /** '' for every department. */
  departmentCode: string;
  sortField: PerformanceSortField;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The browser's own calendar day: what "today" means to the person looking at the grid. */
export const todayIso = (now = new Date()) =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

export const isIsoDate = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** The grid's defaults: name ascending, 10 rows, page 1, and today when no date is given. */
export const defaultGridQuery = (today: string): GridQuery => ({
  date: today,
  departmentCode: '',
  keyword: '',
  sortField: 'name',
  sortValue: 'asc',
  page: 1,
  limit: ROWS_PER_PAGE_OPTIONS[0],
});

export function readGridQuery(params: URLSearchParams, today: string): GridQuery {
  const d = defaultGridQuery(today);
  const date = params.get('date') ?? '';
  const sortField = PERFORMANCE_SORT_FIELDS.find((f) => f === params.get('sortField'));
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const limit = Number.parseInt(params.get('limit') ?? '', 10);
  return {
    date: isIsoDate(date) ? date : d.date,
    departmentCode: params.get('departmentCode') ?? '',
    keyword: params.get('keyword') ?? '',
    sortField: sortField ?? d.sortField,
    sortValue:
      params.get('sortValue') === 'desc' ? 'desc' : params.get('sortValue') === 'asc' ? 'asc' : d.sortValue,
    page: Number.isFinite(page) && page >= 1 ? page : d.page,
    limit: (ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(limit) ? limit : d.limit,
  };
}

/** Only what differs from the defaults is written, so the plain route stays /performance-snapshot. */
export function writeGridQuery(query: GridQuery, today: string): URLSearchParams {
  const d = defaultGridQuery(today);
  const params = new URLSearchParams();
  for (const key of [
    'date',
    'departmentCode',
    'keyword',
    'sortField',
    'sortValue',
    'page',
    'limit',
  ] as const) {
    if (query[key] !== d[key]) params.set(key, String(query[key]));
  }
  return params;
}

/** The current sort header toggles its direction; another header starts ascending. */
export function toggleSort(query: GridQuery, sortField: PerformanceSortField): GridQuery {
  const sortValue = query.sortField === sortField && query.sortValue === 'asc' ? 'desc' : 'asc';
  return { ...query, sortField, sortValue, page: 1 };
}

/** Applying the filter form starts again from the first page. */
export const withFilter = (query: GridQuery, date: string, keyword: string): GridQuery => ({
  ...query,
  date,
  keyword: keyword.trim(),
  page: 1,
});

/** Another department starts again from the first page. */
export const withDepartment = (query: GridQuery, departmentCode: string): GridQuery => ({
  ...query,
  departmentCode,
  page: 1,
});

/** Scores are recorded up to today: a later date's grid can be read but not edited. */
export const isFutureDate = (date: string, today: string) => date > today;
