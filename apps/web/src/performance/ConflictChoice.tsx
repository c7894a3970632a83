import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { visuallyHidden } from '../ui/paging';
import { type CellConflict, conflictDescription } from './merge';

interface Props {
  /** The id the cell's input is described by. */
  id: string;
  conflict: CellConflict;
  /** The cell's own label: `Speed score for Ann Lee`. */
  label: string;
  onChoose(choice: 'theirs' | 'mine'): void;
}

const shown = (score: number | null) => (score === null ? '–' : String(score));
const spoken = (score: number | null) => (score === null ? 'empty' : String(score));

/**
 * Under a cell that someone else changed too, to another value: both values, each a button that
 * keeps it. The input says the same to a screen reader (`aria-describedby`).
 */
export function ConflictChoice({ id, conflict, label, onChoose }: Props) {
  const choice = {
    size: 'small',
    variant: 'outlined',
    color: 'inherit',
    sx: {
      minWidth: 0,
      px: 0.75,
      py: 0,
      fontSize: '0.75rem',
      lineHeight: 1.9,
      whiteSpace: 'nowrap',
      bgcolor: 'background.paper',
      borderColor: 'warning.dark',
    },
  } as const;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', gap: 0.5, mt: 0.5 }}>
      <Box component="span" id={id} sx={visuallyHidden}>
        {conflictDescription(conflict)}
      </Box>
      <Button
        {...choice}
        aria-label={`Theirs: ${spoken(conflict.theirs)}, for ${label}`}
        onClick={() => onChoose('theirs')}
      >
        Theirs: {shown(conflict.theirs)}
      </Button>
      <Button
        {...choice}
        aria-label={`Mine: ${spoken(conflict.mine)}, for ${label}`}
        onClick={() => onChoose('mine')}
      >
        Mine: {shown(conflict.mine)}
      </Button>
    </Box>
  );
}
