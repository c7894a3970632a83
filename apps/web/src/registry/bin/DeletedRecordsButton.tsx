import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import Button from '@mui/material/Button';
import type { ResourceDef } from '@wfc/contract';
import { useNavigateWithBack } from '../paths';
import { deletedPath } from './binQueries';

/** The list's way into its module's recycle bin, for holders of the module's DELETE permission. */
export function DeletedRecordsButton({ def }: { def: ResourceDef }) {
  const go = useNavigateWithBack();
  return (
    <Button variant="outlined" startIcon={<RestoreFromTrashIcon />} onClick={() => go(deletedPath(def))}>
      Deleted records
    </Button>
  );
}
