import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import ListIcon from '@mui/icons-material/ListAlt';
import Button from '@mui/material/Button';
import { RESOURCE_BY_KEY, type ResourceDef, subListsOf } from '@wfc/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../../auth/auth';
import { type BackTarget, editPath, historyPath, subListPath, useNavigateWithBack } from '../paths';
import { ErasePersonalDataButton } from '../personal-data/ErasePersonalDataButton';
import { ExportPersonalDataButton } from '../personal-data/ExportPersonalDataButton';
import type { RegistryRecord } from '../queries';
import { useResourceExtension } from '../resourceExtension';
import { useRecordPermissions } from '../useRecordPermissions';
import { DeleteRecordDialog } from './DeleteRecordDialog';

interface Props {
  def: ResourceDef;
  code: string;
  record?: RegistryRecord;
  /** Where a deletion leaves for: the screen the view was opened from. */
  back: BackTarget;
}

/**
 * A record's sub-lists (a country's states) and its module's links elsewhere (an employee's
 * performance insight), those the user may see.
 */
function RecordLinks({ def, code }: { def: ResourceDef; code: string }) {
  const go = useNavigateWithBack();
  const can = useCan();
  const { links = [] } = useResourceExtension(def);
  const subLists = subListsOf(def).filter((s) => can(RESOURCE_BY_KEY[s.resource].permissions.view));
  return (
    <>
      {subLists.map((s) => (
        <Button
          key={s.segment}
          variant="outlined"
          startIcon={<ListIcon />}
          onClick={() => go(subListPath(def, code, s))}
        >
          {s.buttonLabel}
        </Button>
      ))}
      {links
        .filter((link) => can(link.permission))
        .map(({ label, icon: Icon, to }) => (
          <Button key={label} variant="outlined" startIcon={<Icon />} onClick={() => go(to(code))}>
            {label}
          </Button>
        ))}
    </>
  );
}

/**
 * A view leads somewhere: its sub-lists and links, Edit and Delete with their permissions, and
 * the record's History (the audit log filtered to it) for those who may read the log.
 */
export function ViewActions({ def, code, record, back }: Props) {
  const allowed = useRecordPermissions(def);
  const can = useCan();
  const go = useNavigateWithBack();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<RegistryRecord | null>(null);
  return (
    <>
      <RecordLinks def={def} code={code} />
      <ExportPersonalDataButton def={def} code={code} />
      <ErasePersonalDataButton def={def} code={code} record={record} />
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
