import Box from '@mui/material/Box';
import TablePagination from '@mui/material/TablePagination';
import { ROWS_PER_PAGE_OPTIONS } from '@wfc/contract';
import { PageLoader } from './PageLoader';
import { lastPage, type Paged, withLimit } from './paging';

/**
 * The footer of every paged table: 'Rows per page:', 'first - last of total' and first, previous,
 * next and last buttons disabled at the bounds.
 */
export function TablePager<Q extends Paged>({
  total,
  query,
  onChange,
}: {
  total: number;
  query: Q;
  onChange(query: Q): void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={Math.min(query.page, lastPage(total, query.limit)) - 1}
      rowsPerPage={query.limit}
      rowsPerPageOptions={[...ROWS_PER_PAGE_OPTIONS]}
      labelRowsPerPage="Rows per page:"
      labelDisplayedRows={({ from, to, count }) => `${from} - ${to} of ${count}`}
      showFirstButton
      showLastButton
      onPageChange={(_, page) => onChange({ ...query, page: page + 1 })}
      onRowsPerPageChange={(e) => onChange(withLimit(query, Number(e.target.value)))}
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        // On a phone the range ends the first line: keep it off the card's edge.
        '& .MuiTablePagination-toolbar': {
          flexWrap: 'wrap',
          justifyContent: 'flex-end',
          rowGap: 0.5,
          pr: { xs: 2, sm: '2px' },
        },
        '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
      }}
    />
  );
}

/** Covers a table while its next page loads, keeping the current rows visible underneath. */
export function LoadingOverlay({ label, zIndex = 2 }: { label: string; zIndex?: number }) {
  return (
    <Box
      sx={{
        position: 'absolute',
        inset: 0,
        display: 'flex',
        alignItems: 'center',
        bgcolor: (theme) => theme.alpha(theme.vars.palette.background.paper, 0.6),
        zIndex,
      }}
    >
      <PageLoader label={label} />
    </Box>
  );
}
