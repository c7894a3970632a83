import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatAverage } from '@wfc/contract';
import { visuallyHidden } from '../../ui/paging';

/** A cell: text, or a number shown as an average (two decimals; null as a dash read "None"). */
export type Cell = string | number | null;

interface Props {
  caption: string;
  head: readonly string[];
  /** The first cell of each row names it (a row header). */
  rows: readonly (readonly Cell[])[];
  /** Numbers other than averages (counts) in these columns are shown as they are. */
  counts?: readonly number[];
  /** Scrolls inside itself beyond this height, so a year of days does not push the page down. */
  maxHeight?: number;
}

function show(value: Cell, count: boolean) {
  if (value === null) {
    return (
      <>
        <Box component="span" aria-hidden sx={{ color: 'text.disabled' }}>
          –
        </Box>
        <Box component="span" sx={visuallyHidden}>
          None
        </Box>
      </>
    );
  }
  if (typeof value === 'string') return value;
  return count ? String(value) : formatAverage(value);
}

/** A chart's figures as a plain table: caption, column headers, one header cell per row. */
export function DataTable({ caption, head, rows, counts = [], maxHeight }: Props) {
  return (
    // A table that scrolls is a region the keyboard can reach and scroll: every one does sideways
    // once its panel is narrow enough (beside the side navigation, on a phone).
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label={caption}
      sx={{ maxHeight, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Table
        size="small"
        stickyHeader={Boolean(maxHeight)}
        // Five columns fit a phone's width only a little tighter.
        sx={{
          '& th, & td': { px: { xs: 0.5, sm: 2 }, fontSize: { xs: '0.8125rem', sm: '0.875rem' } },
          '& th:first-of-type': { pl: { xs: 1, sm: 2 } },
          '& thead th': { fontSize: { xs: '0.75rem', sm: '0.875rem' } },
        }}
      >
        <Box component="caption" sx={visuallyHidden}>
          {caption}
        </Box>
        <TableHead>
          <TableRow>
            {head.map((h, i) => (
              <TableCell
                key={h}
                align={i === 0 ? 'left' : 'right'}
                sx={{
                  fontWeight: 600,
                  bgcolor: 'background.subtle',
                  lineHeight: 1.3,
                  verticalAlign: 'bottom',
                }}
              >
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={String(row[0])}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <TableCell key={head[i]} component="th" scope="row">
                    {show(cell, false)}
                  </TableCell>
                ) : (
                  <TableCell key={head[i]} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {show(cell, counts.includes(i))}
                  </TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
