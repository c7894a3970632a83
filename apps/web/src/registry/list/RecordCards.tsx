import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ResourceDef } from '@wfc/contract';
import { Fragment, type KeyboardEvent } from 'react';
import { EMPTY_CELL } from '../format';
import type { RegistryRecord } from '../queries';
import { CheckAll } from './CheckAll';
import { useCellContent } from './cellContent';
import { useCellText } from './cellText';
import type { TableQuery } from './listQuery';
import type { RecordListProps } from './RecordTable';
import { useFocusBackOnClear } from './RowActions';
import { type CardLayout, cardLayout, checkLabel, selectLabel, sortChoices } from './recordList';

/**
 * A page of records on a phone: one card per record (its name as the title, a few of its columns
 * under it), selected by the same radios as the table, with a Sort by menu for the missing headers.
 */
export function RecordCards({
  def,
  title,
  rows,
  query,
  onSort,
  selected,
  onSelect,
  onOpen,
  actions,
  checked,
  onCheck,
}: RecordListProps) {
  const container = useFocusBackOnClear(selected);
  const layout = cardLayout(def);
  return (
    <Box ref={container}>
      <SortMenus def={def} query={query} onSort={onSort} />
      {checked && onCheck && rows.length > 0 && (
        <Box
          component="label"
          sx={{
            display: 'flex',
            alignItems: 'center',
            pl: 0.5,
            pr: 2,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <CheckAll def={def} rows={rows} checked={checked} onCheck={onCheck} />
          <Typography variant="body2" aria-hidden>
            Choose all on this page
          </Typography>
        </Box>
      )}
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, py: 6, textAlign: 'center' }}>
          {def.messages.empty}
        </Typography>
      ) : (
        <Box component="ul" aria-label={title} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {rows.map((row) => {
            const code = String(row[def.code]);
            const isSelected = code === selected;
            const isChecked = Boolean(checked?.has(code));
            return (
              <Box
                component="li"
                key={code}
                sx={{
                  borderBottom: 1,
                  borderColor: 'divider',
                  // The selection is marked by more than a tint: a bar in the brand colour.
                  borderLeft: 4,
                  borderLeftColor: isSelected ? 'primary.main' : 'transparent',
                  bgcolor: isSelected || isChecked ? 'action.selected' : undefined,
                }}
              >
                <Card
                  def={def}
                  layout={layout}
                  row={row}
                  selected={isSelected}
                  onSelect={() => onSelect(code)}
                  onOpen={onOpen && (() => onOpen(code))}
                  check={onCheck && { on: isChecked, toggle: (on) => onCheck([code], on) }}
                />
                {isSelected && actions && <Box sx={{ pr: 2, pb: 1.5, pl: 6 }}>{actions}</Box>}
              </Box>
            );
          })}
        </Box>
      )}
    </Box>
  );
}

interface CardProps {
  def: ResourceDef;
  layout: CardLayout;
  row: RegistryRecord;
  selected: boolean;
  onSelect(): void;
  onOpen?(): void;
  /** The card's check box, for bulk actions: whether it is chosen, and how to change that. */
  check?: { on: boolean; toggle(on: boolean): void };
}

/**
 * The record's part of its card: clicking it selects, a double-click or Enter on its radio opens.
 * The actions beside it stay outside, so that their clicks and keys are only theirs.
 */
function Card({ def, layout, row, selected, onSelect, onOpen, check }: CardProps) {
  const cellText = useCellText(def);
  const cellContent = useCellContent(def);
  const name = layout.title ? cellText(row, layout.title) : EMPTY_CELL;
  return (
    <Box
      onClick={onSelect}
      onDoubleClick={onOpen}
      onKeyDown={
        onOpen
          ? (e: KeyboardEvent) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              onOpen();
            }
          : undefined
      }
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, py: 1, pr: 2, pl: 0.5, cursor: 'pointer' }}
    >
      {check && (
        <Checkbox
          checked={check.on}
          onChange={(e) => check.toggle(e.target.checked)}
          // Choosing the card for a bulk action does not also select it for its own actions.
          onClick={(e) => e.stopPropagation()}
          slotProps={{ input: { 'aria-label': checkLabel(def, row) } }}
        />
      )}
      <Radio
        checked={selected}
        onChange={onSelect}
        value={String(row[def.code])}
        name={`${def.key}-selection`}
        slotProps={{ input: { 'aria-label': selectLabel(def, row) } }}
      />
      <Box sx={{ flex: 1, minWidth: 0, pt: 1 }}>
        <Typography fontWeight={600} sx={{ overflowWrap: 'break-word' }}>
          {name}
        </Typography>
        {layout.fields.length > 0 && (
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content minmax(0, 1fr)',
              columnGap: 1.5,
              rowGap: 0.25,
              m: 0,
              mt: 0.5,
            }}
          >
            {layout.fields.map((col) => {
              const value = cellText(row, col);
              return (
                <Fragment key={col.path}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {col.label}
                  </Typography>
                  {/* Two lines at most; a longer value ends in an ellipsis and shows in full on hover. */}
                  <Typography
                    component="dd"
                    variant="body2"
                    title={value}
                    sx={{
                      m: 0,
                      display: '-webkit-box',
                      WebkitBoxOrient: 'vertical',
                      WebkitLineClamp: 2,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                    }}
                  >
                    {cellContent(row, col)}
                  </Typography>
                </Fragment>
              );
            })}
          </Box>
        )}
      </Box>
    </Box>
  );
}

const ORDERS = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
] as const;

/**
 * The table's sort headers as two menus: another field starts ascending, and the other direction
 * of the current field toggles it, both through the headers' own `onSort`.
 */
function SortMenus({
  def,
  query,
  onSort,
}: {
  def: ResourceDef;
  query: TableQuery;
  onSort(sortField: string): void;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1.5, px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={query.sortField}
        onChange={(e) => onSort(e.target.value)}
        sx={{ flex: 1, minWidth: 0 }}
      >
        {sortChoices(def).map((c) => (
          <MenuItem key={c.sortField} value={c.sortField}>
            {c.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Order"
        value={query.sortValue}
        onChange={(e) => {
          if (e.target.value !== query.sortValue) onSort(query.sortField);
        }}
        sx={{ flex: '0 0 9.5rem' }}
      >
        {ORDERS.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}
