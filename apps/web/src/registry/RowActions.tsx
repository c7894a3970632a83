import ClearIcon from '@mui/icons-material/Clear';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ResourceDef } from '@wfc/contract';
import { editPath, useNavigateWithBack, viewPath } from './paths';
import type { RegistryRecord } from './queries';
import type { RecordPermissions } from './useRecordPermissions';

interface Props {
  def: ResourceDef;
  selected: RegistryRecord | null;
  hasRows: boolean;
  allowed: RecordPermissions;
  onDelete(record: RegistryRecord): void;
  onClear(): void;
}

/** 'view', 'view or edit', 'view, edit or delete': only what this user may do. */
function rowActionsText(view: boolean, edit: boolean, del: boolean): string {
  const words = [view && 'view', edit && 'edit', del && 'delete'].filter((w): w is string => Boolean(w));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
}

/** What can be done with the selected row, or a hint to select one. */
export function RowActions({ def, selected, hasRows, allowed, onDelete, onClear }: Props) {
  const go = useNavigateWithBack();
  if (!selected) {
    if (!hasRows || !(allowed.view || allowed.update || allowed.delete)) return null;
    return (
      <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' } }}>
        Select a row to {rowActionsText(allowed.view, allowed.update, allowed.delete)} it
      </Typography>
    );
  }
  const code = String(selected[def.code]);
  return (
    <Box
      role="toolbar"
      aria-label="Selected row actions"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: { sm: 'auto' } }}
    >
      {allowed.view && (
        <Button variant="outlined" startIcon={<VisibilityIcon />} onClick={() => go(viewPath(def, code))}>
          View
        </Button>
      )}
      {allowed.update && (
        <Button variant="outlined" startIcon={<EditIcon />} onClick={() => go(editPath(def, code))}>
          Edit
        </Button>
      )}
      {allowed.delete && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteIcon />}
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
