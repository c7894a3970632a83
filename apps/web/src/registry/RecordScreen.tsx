import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { ApiEnvelope, FieldError, ResourceDef } from '@wfc/contract';
import { type ReactNode, useCallback } from 'react';
import {
  type FieldErrors,
  type FieldValues,
  get,
  type Resolver,
  type ResolverOptions,
} from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { notify } from '../ui/notify';
import { PageLoader } from '../ui/PageLoader';
import type { FormMode } from './formValues';
import { listPath, useBackTarget } from './paths';
import { errorMessage, type RegistryRecord, useRecordQuery, useRefreshRegistry } from './queries';
import { ScreenHeader } from './ScreenHeader';

const VERB: Record<FormMode, string> = { view: 'View', create: 'Create', update: 'Update' };

/** 'View Role', 'Create Role', 'Update Role', ... 'View Audit Log'. */
export const formTitle = (def: ResourceDef, mode: FormMode) => `${VERB[mode]} ${def.label}`;

export interface RecordFormProps {
  def: ResourceDef;
  mode: FormMode;
  code: string;
  /** The loaded record on view and update. */
  record?: RegistryRecord;
  back: string;
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
  const record = useRecordQuery(def, mode === 'create' ? undefined : code);

  if (mode !== 'create') {
    const failure = record.error
      ? errorMessage(record.error, def.messages.viewError)
      : record.data && record.data.statusCode !== 200
        ? record.data.message || def.messages.viewError
        : null;
    if (failure) {
      return (
        <Box>
          <ScreenHeader title={formTitle(def, mode)} back={back} />
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        </Box>
      );
    }
    if (!record.data) return <PageLoader label={`Loading ${def.label.toLowerCase()}`} />;
  }
  return <>{children({ def, mode, code, record: record.data?.data, back })}</>;
}

/** The first message at or under a (dotted) field name: a multi-select's errors are per item. */
export function errorAt(errors: FieldErrors<FieldValues>, name: string): string | undefined {
  const find = (e: unknown): string | undefined => {
    if (!e || typeof e !== 'object') return undefined;
    const msg = (e as { message?: unknown }).message;
    if (typeof msg === 'string' && msg) return msg;
    for (const v of Object.values(e)) {
      const m = find(v);
      if (m) return m;
    }
    return undefined;
  };
  return find(get(errors, name));
}

/**
 * Sends a create or update. Success: the server's message as a toast, then the back target.
 * Failure: the server's message (else the module's default) as a toast, and its field errors
 * handed back for the form to show beside their fields.
 */
export function useSaveRecord(def: ResourceDef, mode: FormMode, back: string) {
  const navigate = useNavigate();
  const refresh = useRefreshRegistry();
  return useCallback(
    async (send: () => Promise<ApiEnvelope>, onFieldErrors: (errors: FieldError[]) => void) => {
      const failed = mode === 'create' ? def.messages.failedCreate : def.messages.failedUpdate;
      try {
        const res = await send();
        if (res.statusCode === 200) {
          notify.success(res.message || (mode === 'create' ? def.messages.created : def.messages.updated));
          void refresh();
          navigate(back);
          return;
        }
        notify.error(res.message || failed);
        onFieldErrors(res.errors ?? []);
      } catch (err) {
        notify.error(errorMessage(err, failed));
      }
    },
    [def, mode, back, navigate, refresh],
  );
}

/** The contract's schemas typed as what the resolver expects: they parse a request body object. */
interface BodySchema {
  _zod: { output: FieldValues; input: FieldValues };
}

/**
 * Validates with the contract's create or update schema, which describe the request body: the
 * form's values are turned into that body first, so the client applies exactly the server's
 * rules and messages. `extra` adds checks the schema cannot see (a file input).
 */
export function bodyResolver<V extends FieldValues>(
  schema: unknown,
  bodyOf: (values: V) => FieldValues,
  extra: (values: V) => FieldErrors<V> = () => ({}),
): Resolver<V> {
  return async (values, context, options) => {
    const checked = schema
      ? await zodResolver(schema as BodySchema)(
          bodyOf(values),
          context,
          options as unknown as ResolverOptions<FieldValues>,
        )
      : { errors: {} };
    const errors = { ...checked.errors, ...extra(values) } as FieldErrors<V>;
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}
