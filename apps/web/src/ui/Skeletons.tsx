import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import type { FormFieldKind } from '@wfc/contract';
import type { ReactNode } from 'react';
import { visuallyHidden } from './paging';

/**
 * The stand-in for content on its way: announced once as `label` ("Loading countries"), its
 * shapes hidden from assistive technology, which has nothing to read in them.
 */
export function LoadingRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="status" aria-label={label}>
      <Box component="span" sx={visuallyHidden}>
        {label}
      </Box>
      <Box aria-hidden="true">{children}</Box>
    </Box>
  );
}

// Bars of uneven length read as text; equal ones as a striped block.
const BAR_WIDTHS = ['72%', '48%', '60%', '36%', '54%', '66%'];
const barWidth = (i: number) => BAR_WIDTHS[i % BAR_WIDTHS.length];

/** Keys for `count` repeated shapes, which never reorder. */
const keys = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

/** A row of column bars; on a phone only the first two, as a narrow table would show. */
function Columns({ count, height }: { count: number; height: number }) {
  return (
    <>
      {keys('column', count).map((key, i) => (
        <Box key={key} sx={{ flex: 1, minWidth: 0, display: i < 2 ? 'block' : { xs: 'none', sm: 'block' } }}>
          <Skeleton variant="text" width={barWidth(i)} height={height} />
        </Box>
      ))}
    </>
  );
}

const line = {
  display: 'flex',
  alignItems: 'center',
  gap: 2,
  px: 2,
  borderBottom: 1,
  borderColor: 'divider',
};

/** The grid's rows: a header line and body lines of column bars. */
function GridLines({ columns, rows }: { columns: number; rows: number }) {
  return (
    <>
      <Box sx={{ ...line, height: 48 }}>
        <Columns count={columns} height={18} />
      </Box>
      {keys('row', rows).map((key) => (
        <Box key={key} sx={{ ...line, height: 53 }}>
          <Columns count={columns} height={20} />
        </Box>
      ))}
    </>
  );
}

/**
 * A registry list's rows: a selection circle and column bars, and on a phone, where each record
 * is a card of its fields, a name over a few label and value lines, fewer of them to a screen.
 */
function RecordLines({ columns, rows }: { columns: number; rows: number }) {
  return (
    <>
      <Box sx={{ ...line, height: 48, display: { xs: 'none', sm: 'flex' } }}>
        <Box sx={{ width: 24 }} />
        <Columns count={columns} height={18} />
      </Box>
      {keys('row', rows).map((key, r) => (
        <Box
          key={key}
          sx={{
            ...line,
            height: { xs: 'auto', sm: 53 },
            alignItems: { xs: 'flex-start', sm: 'center' },
            display: { xs: r < 6 ? 'flex' : 'none', sm: 'flex' },
          }}
        >
          <Skeleton variant="circular" width={20} height={20} sx={{ mx: 0.25, mt: { xs: 2, sm: 0 } }} />
          <Box sx={{ display: { xs: 'none', sm: 'contents' } }}>
            <Columns count={columns} height={20} />
          </Box>
          <Box sx={{ display: { xs: 'block', sm: 'none' }, flex: 1, py: 1.5 }}>
            <Skeleton variant="text" width="55%" height={24} />
            {keys('field', 3).map((field, i) => (
              <Skeleton key={field} variant="text" width={barWidth(i + 1)} height={18} />
            ))}
          </Box>
        </Box>
      ))}
    </>
  );
}

function Pager() {
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 2, px: 2, height: 52 }}
    >
      <Skeleton variant="text" width={110} />
      <Skeleton variant="text" width={70} />
      <Skeleton variant="rounded" width={140} height={28} />
    </Box>
  );
}

/**
 * A paged table on its way, laid out as it will show: the filter bar, the header and body rows,
 * the pager. A registry list (`records`) has a selection column and cards on a phone; the
 * performance grid is a plain table.
 */
export function TableSkeleton({
  label,
  columns,
  rows = 10,
  variant,
}: {
  label: string;
  columns: number;
  rows?: number;
  variant: 'records' | 'grid';
}) {
  return (
    <LoadingRegion label={label}>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1.5,
            p: 2,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Skeleton variant="rounded" height={40} sx={{ flex: { xs: '1 1 100%', sm: '0 0 300px' } }} />
          <Skeleton variant="rounded" width={96} height={40} />
        </Box>
        {variant === 'records' ? (
          <RecordLines columns={columns} rows={rows} />
        ) : (
          <GridLines columns={columns} rows={rows} />
        )}
        <Pager />
      </Paper>
    </LoadingRegion>
  );
}

/** How tall a field's input stands, so the form does not jump when it arrives. */
function fieldHeight(kind: FormFieldKind): number {
  if (kind === 'json') return 160;
  if (kind === 'textarea') return 96;
  if (kind === 'switch') return 38;
  return 56;
}

/** A form on its way: one input-sized block per field it will have, and its submit row if editable. */
export function FormSkeleton({
  label,
  fields,
  submit,
  maxWidth = 880,
}: {
  label: string;
  fields: readonly { name: string; kind: FormFieldKind }[];
  submit: boolean;
  maxWidth?: number;
}) {
  return (
    <LoadingRegion label={label}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
          {fields.map((f) => (
            <Skeleton
              key={f.name}
              variant="rounded"
              height={fieldHeight(f.kind)}
              width={f.kind === 'switch' ? 180 : '100%'}
            />
          ))}
          {submit && <Skeleton variant="rounded" width={140} height={40} sx={{ alignSelf: 'flex-end' }} />}
        </Box>
      </Paper>
    </LoadingRegion>
  );
}

/** Chart panels on their way: each a titled block of the chart's height. */
export function PanelsSkeleton({
  label,
  panels,
  height = 300,
}: {
  label: string;
  panels: number;
  height?: number;
}) {
  return (
    <LoadingRegion label={label}>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {keys('panel', panels).map((key, i) => (
          <Paper key={key} variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
            <Skeleton
              variant="text"
              width={barWidth(i + 2)}
              sx={{ maxWidth: 280, mb: 1.5, fontSize: '1.125rem' }}
            />
            <Skeleton variant="rounded" height={height} />
          </Paper>
        ))}
      </Box>
    </LoadingRegion>
  );
}
