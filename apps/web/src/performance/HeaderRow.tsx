import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import {
  PERFORMANCE_COLUMN_TITLES,
  type PerformanceSkillCell,
  type PerformanceSortField,
} from '@wfc/contract';
import type { ReactNode } from 'react';
import { AVERAGES } from './GridRow';
import type { GridQuery } from './query';
import {
  fixedWidth,
  headSx,
  ID_WIDTH,
  skillHeadSx,
  stickyAverage,
  stickyName,
  Z_FROZEN_HEAD,
} from './tableStyles';

const t = PERFORMANCE_COLUMN_TITLES;

interface SortProps {
  query: GridQuery;
  onSort(field: PerformanceSortField): void;
}

function SortHeader({
  field,
  query,
  onSort,
  children,
  sx,
}: SortProps & { field: PerformanceSortField; children: ReactNode; sx?: object }) {
  const active = query.sortField === field;
  return (
    <TableCell sortDirection={active ? query.sortValue : false} sx={{ ...headSx, ...sx }}>
      <TableSortLabel
        active={active}
        direction={active ? query.sortValue : 'asc'}
        onClick={() => onSort(field)}
      >
        {children}
      </TableSortLabel>
    </TableCell>
  );
}

/**
 * The column titles. A skill's title is on one line, ellipsised when longer than its column, and
 * whole on hover (`title`), which screen readers read as the header's description.
 */
export function HeaderRow({
  skills,
  widths,
  query,
  onSort,
}: SortProps & { skills: readonly PerformanceSkillCell[]; widths: readonly string[] }) {
  return (
    <TableRow>
      <SortHeader field="employeeId" query={query} onSort={onSort} sx={fixedWidth(ID_WIDTH)}>
        {t.employeeId}
      </SortHeader>
      <SortHeader field="name" query={query} onSort={onSort} sx={{ ...stickyName, zIndex: Z_FROZEN_HEAD }}>
        {t.employeeName}
      </SortHeader>
      {skills.map((s, i) => (
        <TableCell
          key={s.skillCode}
          align="center"
          title={s.title}
          sx={{ ...headSx, ...skillHeadSx, ...fixedWidth(widths[i] ?? '') }}
        >
          {s.title}
        </TableCell>
      ))}
      {AVERAGES.map((a, i) => (
        <SortHeader
          key={a.field}
          field={a.field}
          query={query}
          onSort={onSort}
          sx={{ ...stickyAverage(i), textAlign: 'right', zIndex: Z_FROZEN_HEAD }}
        >
          {a.title}
        </SortHeader>
      ))}
    </TableRow>
  );
}
