import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import Button from '@mui/material/Button';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../auth/auth';
import { DeleteRecordDialog } from './DeleteRecordDialog';
import { type BackTarget, editPath, historyPath, useNavigateWithBack } from './paths';
import type { RegistryRecord } from './queries';
import { useRecordPermissions } from './useRecordPermissions';

interface Props {
  def: ResourceDef;
  code: string;
  record?: RegistryRecord;
  /** Where a deletion leaves for: the screen the view was opened from. */
  back: BackTarget;
}

/**
 * A view leads somewhere: Edit and Delete with their permissions, and the record's History (the
 * audit log filtered to it) for those who may read the log.
 */
export function ViewActions({ def, code, record, back }: Props) {
  const allowed = useRecordPermissions(def);
  const can = useCan();
  const go = useNavigateWithBack();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<RegistryRecord | null>(null);
  return (
    <>
      {can('VIEW_AUDITS') && (
        <Button startIcon={<HistoryIcon />} onClick={() => go(historyPath(def, code))}>
          History
        </Button>
      )}
      {allowed.delete && record && (
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteIcon />}
          onClick={() => setConfirming(record)}
        >
          Delete
        </Button>
      )}
      {allowed.update && (
        <Button variant="contained" startIcon={<EditIcon />} onClick={() => go(editPath(def, code))}>
          Edit
        </Button>
      )}
      <DeleteRecordDialog
        def={def}
        record={confirming}
        onClose={() => setConfirming(null)}
        onDeleted={() => navigate(back.to, { state: back.state })}
      />
    </>
  );
}
