import ClearIcon from '@mui/icons-material/Clear';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ResourceDef } from '@wfc/contract';
import { useEffect, useRef } from 'react';
import { editPath, useNavigateWithBack, viewPath } from '../paths';
import type { RegistryRecord } from '../queries';
import type { RecordPermissions } from '../useRecordPermissions';

interface Props {
  def: ResourceDef;
  selected: RegistryRecord;
  allowed: RecordPermissions;
  onDelete(record: RegistryRecord): void;
  onClear(): void;
}

/** The toolbar sits on the selection's tint: its outlined buttons keep the page's own background. */
const ON_TINT = { bgcolor: 'background.paper' } as const;

/** 'view', 'view or edit', 'view, edit or delete': only what this user may do. */
function rowActionsText(view: boolean, edit: boolean, del: boolean): string {
  const words = [view && 'view', edit && 'edit', del && 'delete'].filter((w): w is string => Boolean(w));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
}

/** Until a row is selected, the filter bar says what selecting one offers (none: nothing). */
export function SelectRowHint({ hasRows, allowed }: { hasRows: boolean; allowed: RecordPermissions }) {
  if (!hasRows || !(allowed.view || allowed.update || allowed.delete)) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' } }}>
      Select a row to {rowActionsText(allowed.view, allowed.update, allowed.delete)} it
    </Typography>
  );
}

/**
 * What can be done with the selected row. The list renders it right after the selection, so that
 * Tab from the selected radio reaches View.
 */
export function RowActions({ def, selected, allowed, onDelete, onClear }: Props) {
  const go = useNavigateWithBack();
  const code = String(selected[def.code]);
  return (
    <Box role="toolbar" aria-label="Selected row actions" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {allowed.view && (
        <Button
          variant="outlined"
          startIcon={<VisibilityIcon />}
          sx={ON_TINT}
          onClick={() => go(viewPath(def, code))}
        >
          View
        </Button>
      )}
      {allowed.update && (
        <Button
          variant="outlined"
          startIcon={<EditIcon />}
          sx={ON_TINT}
          onClick={() => go(editPath(def, code))}
        >
          Edit
        </Button>
      )}
      {allowed.delete && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteIcon />}
          sx={ON_TINT}
          onClick={() => onDelete(selected)}
        >
          Delete
        </Button>
      )}
      <Button color="inherit" startIcon={<ClearIcon />} onClick={onClear}>
        Clear selection
      </Button>
    </Box>
  );
}

/**
 * Clear selection removes the toolbar that held the focus: the focus goes back to that row's radio
 * rather than to the top of the page. Put the ref on the element holding the rows.
 */
export function useFocusBackOnClear(selected: string | null) {
  const rows = useRef<HTMLDivElement>(null);
  const previous = useRef(selected);
  useEffect(() => {
    const cleared = previous.current;
    previous.current = selected;
    if (cleared === null || selected !== null || document.activeElement !== document.body) return;
    const radios = rows.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? [];
    [...radios].find((r) => r.value === cleared)?.focus();
  }, [selected]);
  return rows;
}
