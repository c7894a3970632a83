import FilterAltOffIcon from '@mui/icons-material/FilterAltOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ListFilterDef } from '@wfc/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ReferenceFilter } from './ReferenceFilter';

interface Props {
  filters: readonly ListFilterDef[];
  values: Readonly<Record<string, string>>;
  onChange(values: Record<string, string>): void;
  /** A filter's choices said otherwise than their values, by the filter's parameter. */
  choiceLabels?: Readonly<Record<string, (choice: string) => string>>;
}

const ANY = 'Any';

/** A filter typed as free text, applied on Enter or on leaving the field. */
const isTyped = (f: ListFilterDef) => f.match !== 'from' && f.match !== 'to' && !f.choices && !f.source;

/** The filters' content, empty values left out, as the address carries them. */
const filterKey = (values: Readonly<Record<string, string>>) =>
  JSON.stringify(
    Object.entries(values)
      .filter(([, v]) => v !== '')
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/**
 * A list's own filters beside the keyword (the audit log's user, module, action and dates; an
 * employee's department and join dates). A choice, a reference or a date applies at once; typed
 * text applies on Enter, as the keyword does.
 */
export function ListFilters({ filters, values, onChange, choiceLabels = {} }: Props) {
  const [typed, setTyped] = useState<Record<string, string>>({ ...values });
  // The router commits a navigation as a transition, so a second choice made before the first
  // has rendered would start from stale props: every change starts from the last one sent.
  const sent = useRef<Record<string, string>>(values);
  const ours = useRef(new Set<string>());
  const valuesKey = filterKey(values);
  // Back navigation or a link can change the filters under the fields; our own changes coming
  // back through the address are not news.
  // biome-ignore lint/correctness/useExhaustiveDependencies: valuesKey stands for values' content
  useEffect(() => {
    if (ours.current.delete(valuesKey)) return;
    ours.current.clear();
    sent.current = values;
    setTyped({ ...values });
  }, [valuesKey]);
  const send = (next: Record<string, string>) => {
    sent.current = next;
    ours.current.add(filterKey(next));
    onChange(next);
  };
  const apply = (param: string, value: string) => send({ ...sent.current, [param]: value });
  // Only the text filters' typed values: the others are as last sent.
  const withTyped = () => ({
    ...sent.current,
    ...Object.fromEntries(filters.filter(isTyped).map((f) => [f.param, typed[f.param] ?? ''])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(withTyped());
  };
  const active = Object.values(values).some((v) => v !== '');
  // A range cannot end before it starts: each date bounds the other.
  const bound = (f: ListFilterDef) => {
    const other = filters.find((o) => o.path === f.path && o.match === (f.match === 'from' ? 'to' : 'from'));
    const value = other ? values[other.param] : undefined;
    return value ? { [f.match === 'from' ? 'max' : 'min']: value } : {};
  };

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filters"
      onSubmit={submit}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, width: '100%' }}
    >
      {filters.map((f) => {
        const id = `filter-${f.param}`;
        const common = {
          id,
          label: f.label,
          size: 'small' as const,
          sx: { flex: { xs: '1 1 140px', sm: '0 1 180px' } },
        };
        if (f.source) {
          return (
            <ReferenceFilter
              key={f.param}
              filter={f}
              value={values[f.param] ?? ''}
              onChange={(code) => apply(f.param, code)}
            />
          );
        }
        if (f.match === 'from' || f.match === 'to') {
          return (
            <TextField
              key={f.param}
              {...common}
              type="date"
              value={values[f.param] ?? ''}
              onChange={(e) => apply(f.param, e.target.value)}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: bound(f) }}
            />
          );
        }
        if (f.choices) {
          return (
            <TextField
              key={f.param}
              {...common}
              select
              value={values[f.param] ?? ''}
              onChange={(e) => apply(f.param, e.target.value)}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{ANY}</MenuItem>
              {f.choices.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {choiceLabels[f.param]?.(choice) ?? choice}
                </MenuItem>
              ))}
            </TextField>
          );
        }
        return (
          <TextField
            key={f.param}
            {...common}
            value={typed[f.param] ?? ''}
            placeholder={ANY}
            onChange={(e) => setTyped({ ...typed, [f.param]: e.target.value })}
            onBlur={() => {
              if ((typed[f.param] ?? '') !== (sent.current[f.param] ?? '')) send(withTyped());
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        );
      })}
      {/* Enter in a text filter submits the form; the button stays out of sight and of the tab order. */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
      {active && (
        <Button
          size="small"
          startIcon={<FilterAltOffIcon />}
          onClick={() => {
            setTyped({});
            send({});
          }}
        >
          Clear filters
        </Button>
      )}
    </Box>
  );
}
