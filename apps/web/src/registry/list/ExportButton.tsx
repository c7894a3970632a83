import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import Button from '@mui/material/Button';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { downloadFile } from '../../api/download';
import { notify } from '../../ui/notify';
import { listParams, type TableQuery } from './listQuery';

/**
 * Downloads every record the list's keyword and filters match (not only the page on screen), in
 * the list's order, as CSV.
 */
export function ExportButton({ def, query }: { def: ResourceDef; query: TableQuery }) {
  const [busy, setBusy] = useState(false);
  const endpoint = def.endpoints.export;
  const { page: _page, limit: _limit, ...wanted } = listParams(query);
  const exportCsv = async () => {
    setBusy(true);
    const outcome = await downloadFile(endpoint, wanted, {
      filename: `${def.listSegment}.csv`,
      failed: `Failed to export ${def.plural.toLowerCase()}`,
    });
    setBusy(false);
    if (!outcome.ok) notify.error(outcome.message);
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void exportCsv()}>
      {busy ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}
