import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { ResourceDef } from '@wfc/contract';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../api/client';
import { PageLoader } from '../ui/PageLoader';
import { ScreenHeader } from '../ui/ScreenHeader';
import type { FormMode } from './formValues';
import { type BackTarget, listPath, useBackTarget } from './paths';
import { type RegistryRecord, useRecordQuery } from './queries';
import { UserSecurityPanel } from './UserSecurityPanel';

const VERB: Record<FormMode, string> = { view: 'View', create: 'Create', update: 'Update' };

/** 'View Role', 'Create Role', 'Update Role', ... 'View Audit Log'. */
export const formTitle = (def: ResourceDef, mode: FormMode) => `${VERB[mode]} ${def.label}`;

export interface RecordFormProps {
  def: ResourceDef;
  mode: FormMode;
  code: string;
  /** The loaded record on view and update. */
  record?: RegistryRecord;
  /** Where Back (and a successful save) goes: the screen this one was opened from. */
  back: BackTarget;
}

interface Props {
  def: ResourceDef;
  mode: FormMode;
  children(props: RecordFormProps): ReactNode;
}

/**
 * What every view / create / update screen shares: the record loaded by its code, the back
 * target, and the server's message in place of the form when the record cannot be loaded.
 */
export function RecordScreen({ def, mode, children }: Props) {
  const { code = '' } = useParams();
  // A new code is a new record: start from a fresh form rather than the previous one's state.
  return (
    <LoadedRecord key={`${mode}:${code}`} def={def} mode={mode} code={code}>
      {children}
    </LoadedRecord>
  );
}

function LoadedRecord({ def, mode, code, children }: Props & { code: string }) {
  const back = useBackTarget(def.defaultBack ?? listPath(def));
  const record = useRecordQuery(def, mode === 'create' ? '' : code);

  if (mode !== 'create') {
    if (record.error) {
      return (
        <Box>
          <ScreenHeader title={formTitle(def, mode)} back={back.to} backState={back.state} />
          <Alert severity="error" role="alert">
            {errorMessage(record.error, def.messages.viewError)}
          </Alert>
        </Box>
      );
    }
    if (!record.data) return <PageLoader label={`Loading ${def.label.toLowerCase()}`} />;
  }
  return (
    <>
      {children({ def, mode, code, record: record.data?.data, back })}
      {def.key === 'user' && mode === 'view' && <UserSecurityPanel userCode={code} />}
    </>
  );
}
