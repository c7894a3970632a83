import FolderZipIcon from '@mui/icons-material/FolderZipOutlined';
import Button from '@mui/material/Button';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { downloadFile } from '../../api/download';
import { useCan } from '../../auth/auth';
import { notify } from '../../ui/notify';

/**
 * On the view of a record about a person (its definition states `personal`): the ZIP of
 * everything the console holds about them, for whoever answers access requests.
 */
export function ExportPersonalDataButton({ def, code }: { def: ResourceDef; code: string }) {
  const can = useCan();
  const [busy, setBusy] = useState(false);
  if (!def.personal || !can('EXPORT_PERSONAL_DATA')) return null;
  const exportData = async () => {
    setBusy(true);
    const outcome = await downloadFile(
      'ExportPersonalData',
      {},
      { filename: `personal-data-${code}.zip`, failed: 'Failed to export the personal data' },
      { [def.code]: code },
    );
    setBusy(false);
    if (outcome.ok) notify.success('Personal data exported');
    else notify.error(outcome.message);
  };
  return (
    <Button
      variant="outlined"
      startIcon={<FolderZipIcon />}
      disabled={busy}
      onClick={() => void exportData()}
    >
      {busy ? 'Exporting...' : 'Export personal data'}
    </Button>
  );
}
