import Box from '@mui/material/Box';
import type { ResourceDef } from '@wfc/contract';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { failureOf } from '../../api/retry';
import { useCan } from '../../auth/auth';
import { ScreenCrumbsProvider } from '../../ui/Breadcrumbs';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { FormSkeleton } from '../../ui/Skeletons';
import { recordCrumbs } from '../breadcrumbs';
import { recordName } from '../format';
import { type BackTarget, listPath, useBackTarget } from '../paths';
import { type RecordOf, useRecordQuery } from '../queries';
import { useResourceExtension } from '../resourceExtension';
import { type FormMode, fieldsFor } from './formValues';

const VERB: Record<FormMode, string> = { view: 'View', create: 'Create', update: 'Update' };

/** 'View Role', 'Create Role', 'Update Role', ... 'View Audit Log'. */
export const formTitle = (def: ResourceDef, mode: FormMode) => `${VERB[mode]} ${def.label}`;

export interface RecordFormProps<D extends ResourceDef = ResourceDef> {
  def: D;
  mode: FormMode;
  code: string;
  /** The loaded record on view and update. */
  record?: RecordOf<D>;
  /** Where Back (and a successful save) goes: the screen this one was opened from. */
  back: BackTarget;
}

interface Props<D extends ResourceDef> {
  def: D;
  mode: FormMode;
  children(props: RecordFormProps<D>): ReactNode;
}

/**
 * What every view / create / update screen shares: the record loaded by its code, the back
 * target, the breadcrumb trail (handed to whichever header the form draws), a skeleton of the
 * form while the record loads, and the server's message in its place when it cannot be loaded.
 */
export function RecordScreen<D extends ResourceDef>({ def, mode, children }: Props<D>) {
  const { code = '' } = useParams();
  // A new code is a new record: start from a fresh form rather than the previous one's state.
  return (
    <LoadedRecord key={`${mode}:${code}`} def={def} mode={mode} code={code}>
      {children}
    </LoadedRecord>
  );
}

function LoadedRecord<D extends ResourceDef>({ def, mode, code, children }: Props<D> & { code: string }) {
  const back = useBackTarget(def.defaultBack ?? listPath(def));
  const record = useRecordQuery(def, mode === 'create' ? '' : code);
  const can = useCan();
  const { viewPanels = {}, recordName: nameOf } = useResourceExtension(def);
  const row = record.data?.data;
  const crumbs = recordCrumbs(
    def,
    mode,
    { code, name: row && nameOf ? nameOf(row) : recordName(def, row) },
    can(def.permissions.view),
  );
  // A record that fails to load again (deleted meanwhile) gives way to the message, as on first load.
  const failed = mode !== 'create' && record.error;
  const loading = mode !== 'create' && !record.data;
  return (
    <ScreenCrumbsProvider value={crumbs}>
      {failed ? (
        <Box>
          <ScreenHeader title={formTitle(def, mode)} back={back.to} backState={back.state} />
          <RequestError {...failureOf(record, def.messages.viewError)} />
        </Box>
      ) : loading ? (
        <RecordSkeleton def={def} mode={mode} back={back} />
      ) : (
        <>
          {children({ def, mode, code, record: record.data?.data, back })}
          {mode === 'view' &&
            Object.entries(viewPanels).map(([name, Panel]) => <Panel key={name} code={code} />)}
        </>
      )}
    </ScreenCrumbsProvider>
  );
}

/**
 * A record screen while what it shows is on its way: the form's heading and trail over one
 * skeleton field per field of the form.
 */
export function RecordSkeleton({
  def,
  mode,
  back,
  label = `Loading ${def.label.toLowerCase()}`,
}: {
  def: ResourceDef;
  mode: FormMode;
  back: BackTarget;
  label?: string;
}) {
  return (
    <Box>
      <ScreenHeader title={formTitle(def, mode)} back={back.to} backState={back.state} />
      <FormSkeleton label={label} fields={fieldsFor(def, mode)} submit={mode !== 'view'} />
    </Box>
  );
}
