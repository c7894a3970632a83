import { PERFORMANCE_SORT_FIELDS, type PerformanceSortField } from '@wfc/contract';
import {
  pageParams,
  readPage,
  type SortRule,
  searchParams,
  type TablePage,
  type TableUrl,
  tableDefaults,
  withKeyword,
} from '../ui/tableState/tableUrl';

/** The grid's query lives in the URL, so a reload or a shared link shows the same date and page. */
export interface GridQuery extends TablePage<PerformanceSortField> {
  date: string;
  /** '' for every department. */
  departmentCode: string;
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

/** People are looked up by name: the grid opens in alphabetical order. */
const GRID_SORT: SortRule<PerformanceSortField> = {
  fields: PERFORMANCE_SORT_FIELDS,
  field: 'name',
  value: 'asc',
};

/**
 * The grid's address: a date and a department ahead of the page part. A missing or unreal date
 * means today, so the plain route /performance-snapshot shows today's scores.
 */
export const gridUrl = (today: string): TableUrl<GridQuery> => ({
  read: (params) => {
    const date = params.get('date') ?? '';
    return {
      date: isIsoDate(date) ? date : today,
      departmentCode: params.get('departmentCode') ?? '',
      ...readPage(params, GRID_SORT),
    };
  },
  write: (query) =>
    searchParams([
      ['date', query.date, today],
      ['departmentCode', query.departmentCode, ''],
      ...pageParams(query, GRID_SORT),
    ]),
});

export const defaultGridQuery = (today: string): GridQuery => tableDefaults(gridUrl(today));

/** Applying the filter form starts again from the first page. */
export const withFilter = (query: GridQuery, date: string, keyword: string): GridQuery =>
  withKeyword({ ...query, date }, keyword);

/** Another department starts again from the first page. */
export const withDepartment = (query: GridQuery, departmentCode: string): GridQuery => ({
  ...query,
  departmentCode,
  page: 1,
});

/** Scores are recorded up to today: a later date's grid can be read but not edited. */
export const isFutureDate = (date: string, today: string) => date > today;
