import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import Button from '@mui/material/Button';
import { type ImportModule, importPermissions, isImportModule } from '@wfc/contract';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCan } from '../auth/auth';
import type { BackState } from '../registry/paths';
import { newImportPath } from './modules';

/**
 * Import, beside a list's Add: shown for a module a file can be imported into, to a user who may
 * create its records. Back returns to the list as it was (its filter, sort and page).
 */
export function ImportButton({ module }: { module: string }) {
  const can = useCan();
  const { pathname, search, state } = useLocation();
  if (!isImportModule(module) || !can(...importPermissions(module as ImportModule, 'create'))) return null;
  const back: BackState = {
    back: `${pathname}${search}`,
    ...(state ? { backState: state as BackState } : {}),
  };
  return (
    <Button
      variant="outlined"
      startIcon={<UploadFileIcon />}
      component={RouterLink}
      to={newImportPath(module)}
      state={back}
    >
      Import
    </Button>
  );
}
