import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { TrendRange } from '@wfc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { customRangeError, presetOf, presetRange, RANGE_PRESETS } from './ranges';

interface Props {
  range: TrendRange;
  today: string;
  onChange(range: TrendRange): void;
}

/** The three presets in one click, or any range of up to 366 days through the two dates and Apply. */
export function RangeControls({ range, today, onChange }: Props) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  useEffect(() => {
    setFrom(range.from);
    setTo(range.to);
  }, [range.from, range.to]);
  const problem = customRangeError(from, to, today);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem) onChange({ from, to });
  };
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        aria-label="Range"
        value={presetOf(range, today) ?? null}
        onChange={(_, preset) => preset && onChange(presetRange(preset, today))}
        sx={{ flexWrap: 'wrap' }}
      >
        {RANGE_PRESETS.map((p) => (
          <ToggleButton key={p.key} value={p.key} sx={{ textTransform: 'none', px: 1.5 }}>
            {p.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box
        component="form"
        aria-label="Custom range"
        onSubmit={submit}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}
      >
        <TextField
          size="small"
          type="date"
          label="From"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: { xs: '1 1 9rem', sm: '0 0 11rem' } }}
        />
        <TextField
          size="small"
          type="date"
          label="To"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={Boolean(problem)}
          helperText={problem}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: { xs: '1 1 9rem', sm: '0 0 11rem' } }}
        />
        <Button type="submit" variant="outlined" disabled={Boolean(problem)} sx={{ minHeight: 40 }}>
          Apply range
        </Button>
      </Box>
    </Box>
  );
}
