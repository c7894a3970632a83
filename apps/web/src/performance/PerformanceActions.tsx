import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/EditOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import Button from '@mui/material/Button';
import { Spinner } from '../ui/Spinner';

interface Props {
  editing: boolean;
  /** Holds both CREATE_PERFORMANCE and UPDATE_PERFORMANCE: a save may do either. */
  canEdit: boolean;
  hasRows: boolean;
  dirty: boolean;
  saving: boolean;
  exporting: boolean;
  onEdit(): void;
  onSave(): void;
  onCancel(): void;
  onExport(): void;
}

/** Edit, or Save and Cancel while editing; Export CSV either way. */
export function PerformanceActions(props: Props) {
  const { editing, canEdit, hasRows, dirty, saving, exporting } = props;
  return (
    <>
      {editing ? (
        <>
          <Button
            variant="contained"
            startIcon={saving ? <Spinner label="Saving" /> : <SaveIcon />}
            disabled={!dirty || saving}
            onClick={props.onSave}
          >
            {saving ? 'Saving...' : 'Save'}
          </Button>
          <Button
            variant="outlined"
            color="inherit"
            startIcon={<CloseIcon />}
            disabled={saving}
            onClick={props.onCancel}
          >
            Cancel
          </Button>
        </>
      ) : (
        canEdit && (
          <Button variant="contained" startIcon={<EditIcon />} disabled={!hasRows} onClick={props.onEdit}>
            Edit
          </Button>
        )
      )}
      <Button
        variant="outlined"
        startIcon={exporting ? <Spinner label="Exporting" /> : <DownloadIcon />}
        disabled={exporting}
        onClick={props.onExport}
      >
        {exporting ? 'Exporting...' : 'Export CSV'}
      </Button>
    </>
  );
}
