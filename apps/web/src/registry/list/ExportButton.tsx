import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { ImportFormat, ResourceDef } from '@wfc/contract';
import { useId, useRef, useState } from 'react';
import { downloadFile } from '../../api/download';
import { notify } from '../../ui/notify';
import { listParams, type TableQuery } from './listQuery';

/**
 * Downloads every record the list's keyword and filters match (not only the page on screen), in
 * the list's order: as CSV with the button itself, or as XLSX from its menu. A file exported so
 * imports back as no change at all.
 */
export function ExportButton({ def, query }: { def: ResourceDef; query: TableQuery }) {
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const endpoint = def.endpoints.export;
  const { page: _page, limit: _limit, ...wanted } = listParams(query);
  const exportAs = async (format: ImportFormat) => {
    setOpen(false);
    setBusy(true);
    // CSV is the server's default: its query stays as it always was.
    const outcome = await downloadFile(endpoint, format === 'csv' ? wanted : { ...wanted, format }, {
      filename: `${def.listSegment}.${format}`,
      failed: `Failed to export ${def.plural.toLowerCase()}`,
    });
    setBusy(false);
    if (!outcome.ok) notify.error(outcome.message);
  };
  return (
    <>
      <ButtonGroup variant="outlined" ref={anchor} disabled={busy}>
        <Button startIcon={<DownloadIcon />} onClick={() => void exportAs('csv')}>
          {busy ? 'Exporting...' : 'Export CSV'}
        </Button>
        <Button
          size="small"
          aria-label="More export formats"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={() => setOpen(true)}
          sx={{ px: 0.5, minWidth: 0 }}
        >
          <ArrowDropDownIcon />
        </Button>
      </ButtonGroup>
      <Menu id={menuId} anchorEl={anchor.current} open={open} onClose={() => setOpen(false)}>
        <MenuItem onClick={() => void exportAs('csv')}>
          <ListItemText primary="Export CSV" secondary="Comma-separated text" />
        </MenuItem>
        <MenuItem onClick={() => void exportAs('xlsx')}>
          <ListItemText primary="Export XLSX" secondary="Excel workbook" />
        </MenuItem>
      </Menu>
    </>
  );
}
