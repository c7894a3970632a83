import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { IMPORT_MESSAGES, type ImportModule, type ImportRecord, isImportModule } from '@wfc/contract';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../api/client';
import { failureOf } from '../api/retry';
import { useCan } from '../auth/auth';
import { RequirePermission } from '../auth/guards';
import { type BackState, readBackTarget } from '../registry/paths';
import { notify } from '../ui/notify';
import { PageLoader } from '../ui/PageLoader';
import { RequestError } from '../ui/RequestError';
import { ScreenHeader } from '../ui/ScreenHeader';
import {
  cancelImport,
  checkImport,
  commitImport,
  downloadImportErrors,
  hasEnded,
  startImport,
  useImport,
  useRefreshAfterCommit,
  useStoreImport,
} from './api';
import { type MappingChoice, MappingStep } from './MappingStep';
import {
  ANY_IMPORT_PERMISSION,
  IMPORTS_PATH,
  importPath,
  modesAllowed,
  moduleTitle,
  newImportPath,
  useImportableModules,
} from './modules';
import { PreviewStep } from './PreviewStep';
import { ProgressStep, ResultStep } from './ProgressStep';
import { type UploadChoice, UploadStep } from './UploadStep';

const STEPS = ['Upload', 'Map columns', 'Preview', 'Import'] as const;

/** What the wizard hands on from screen to screen: where Back returns, and the step to open on. */
interface WizardState extends BackState {
  step?: 'mapping' | 'preview';
}

function WizardFrame({
  step,
  title,
  subtitle,
  children,
}: {
  step: number;
  title: string;
  subtitle?: string;
  children: React.ReactNode;
}) {
  const location = useLocation();
  const back = readBackTarget(location.state);
  return (
    <Box>
      <ScreenHeader
        title={title}
        subtitle={subtitle}
        back={back?.to}
        backState={back?.state}
        crumbs={[{ label: 'Imports', to: IMPORTS_PATH }, { label: title }]}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stepper
          activeStep={step}
          alternativeLabel
          sx={{ mb: { xs: 2.5, sm: 3.5 }, mx: { xs: -1.5, sm: 0 } }}
        >
          {STEPS.map((label, i) => (
            <Step key={label} completed={step > i || (step === 3 && i === 3)}>
              <StepLabel>{label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {children}
      </Paper>
    </Box>
  );
}

/** `/imports/new?module=employee`: the first step, the upload. */
export function NewImportPage() {
  const [params] = useSearchParams();
  const modules = useImportableModules();
  const asked = params.get('module') ?? '';
  const initial = isImportModule(asked) && modules.includes(asked) ? asked : undefined;
  const navigate = useNavigate();
  const location = useLocation();
  const store = useStoreImport();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async (choice: UploadChoice) => {
    setStarting(true);
    setError(null);
    try {
      const record = await startImport(choice);
      store(record);
      if (record.status === 'failed') {
        setError(record.message ?? IMPORT_MESSAGES.unreadable);
        return;
      }
      const back = readBackTarget(location.state);
      const state: WizardState = {
        step: 'mapping',
        ...(back ? { back: back.to, backState: back.state } : {}),
      };
      navigate(importPath(record.importCode), { state });
    } catch (err) {
      setError(errorMessage(err, 'Failed to upload the file'));
    } finally {
      setStarting(false);
    }
  };

  return (
    <RequirePermission anyOf={ANY_IMPORT_PERMISSION}>
      <WizardFrame step={0} title={initial ? `Import ${moduleTitle(initial)}` : 'New import'}>
        <UploadStep
          key={initial ?? ''}
          modules={modules}
          initialModule={initial}
          starting={starting}
          error={error}
          onStart={(c) => void start(c)}
        />
      </WizardFrame>
    </RequirePermission>
  );
}

/** `/imports/:importCode`: an uploaded file's mapping, preview, progress and result. */
export function ImportPage() {
  const { importCode = '' } = useParams();
  const query = useImport(importCode);
  const record = query.data;
  if (!record) {
    return (
      <RequirePermission anyOf={ANY_IMPORT_PERMISSION}>
        <WizardFrame step={1} title="Import">
          {query.error ? (
            <RequestError {...failureOf(query, 'Failed to load the import')} />
          ) : (
            <PageLoader label="Loading the import" />
          )}
        </WizardFrame>
      </RequirePermission>
    );
  }
  return (
    <RequirePermission anyOf={ANY_IMPORT_PERMISSION}>
      <ImportSteps key={record.importCode} record={record} />
    </RequirePermission>
  );
}

function ImportSteps({ record }: { record: ImportRecord }) {
  const location = useLocation();
  const navigate = useNavigate();
  const can = useCan();
  const store = useStoreImport();
  const refresh = useRefreshAfterCommit();
  const [view, setView] = useState<'mapping' | 'preview'>(
    (location.state as WizardState | null)?.step === 'mapping' ? 'mapping' : 'preview',
  );
  const [busy, setBusy] = useState<'checking' | 'committing' | 'cancelling' | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; stale: boolean } | null>(null);

  // Once committed, whichever way the news came (the answer, or a poll of a background job), the
  // screens that show the module read it again; the toast only for a commit seen happening here.
  const seen = useRef(record.status);
  useEffect(() => {
    if (seen.current === record.status) return;
    const was = seen.current;
    seen.current = record.status;
    if (record.status === 'committed') {
      refresh(record.module);
      if (was === 'ready' || was === 'committing') notify.success(IMPORT_MESSAGES.committed);
    }
  }, [record.status, record.module, refresh]);

  const module: ImportModule = record.module;
  const title = `Import ${moduleTitle(module)}`;

  const check = async (choice: Partial<MappingChoice>) => {
    setBusy('checking');
    try {
      store(await checkImport({ importCode: record.importCode, ...choice }));
      setRefusal(null);
      setView('preview');
    } catch (err) {
      notify.error(errorMessage(err, 'Failed to check the file'));
    } finally {
      setBusy(null);
    }
  };
  const commit = async (skipErrors: boolean) => {
    setBusy('committing');
    setRefusal(null);
    try {
      const answer = await commitImport(record.importCode, skipErrors);
      if (answer.data) store(answer.data);
    } catch (err) {
      const stale = err instanceof ApiError && err.status === 409;
      setRefusal({ message: errorMessage(err, stale ? IMPORT_MESSAGES.stale : 'Failed to import'), stale });
    } finally {
      setBusy(null);
    }
  };
  const cancel = async () => {
    setBusy('cancelling');
    try {
      const answer = await cancelImport(record.importCode);
      if (answer.data) store(answer.data);
      notify.success(answer.message || IMPORT_MESSAGES.cancelled);
    } catch (err) {
      notify.error(errorMessage(err, 'Failed to cancel the import'));
    } finally {
      setBusy(null);
    }
  };
  const startAgain = () => {
    // A checked file left behind is cancelled, so that the Imports screen shows no import waiting.
    if (record.status === 'ready')
      void cancelImport(record.importCode).then(
        (a) => a.data && store(a.data),
        () => undefined,
      );
    const back = readBackTarget(location.state);
    navigate(newImportPath(module), back ? { state: { back: back.to, backState: back.state } } : undefined);
  };
  const downloadErrors = async () => {
    const outcome = await downloadImportErrors(record.importCode);
    if (!outcome.ok) notify.error(outcome.message);
  };

  const subtitle = `${record.fileName}${record.sheet ? ` · ${record.sheet}` : ''}`;
  if (hasEnded(record.status) || record.status === 'committing') {
    return (
      <WizardFrame step={3} title={title} subtitle={subtitle}>
        {record.status === 'committing' ? (
          <ProgressStep record={record} cancelling={busy === 'cancelling'} onCancel={() => void cancel()} />
        ) : (
          <ResultStep record={record} onStartAgain={startAgain} />
        )}
      </WizardFrame>
    );
  }
  if (record.status === 'checking') {
    return (
      <WizardFrame step={2} title={title} subtitle={subtitle}>
        <ProgressStep record={record} cancelling={busy === 'cancelling'} onCancel={() => void cancel()} />
      </WizardFrame>
    );
  }
  if (view === 'mapping') {
    return (
      <WizardFrame step={1} title={title} subtitle={subtitle}>
        <MappingStep
          record={record}
          modes={modesAllowed(module, can)}
          checking={busy === 'checking'}
          onCheck={(choice) => void check(choice)}
          onContinue={() => setView('preview')}
          onBack={startAgain}
        />
      </WizardFrame>
    );
  }
  return (
    <WizardFrame step={2} title={title} subtitle={subtitle}>
      <PreviewStep
        record={record}
        committing={busy === 'committing'}
        refusal={refusal}
        onCommit={(skip) => void commit(skip)}
        onCheckAgain={() =>
          void check({
            mode: record.mode,
            mapping: record.mapping,
            ...(record.sheet ? { sheet: record.sheet } : {}),
          })
        }
        onBack={() => setView('mapping')}
        onDownloadErrors={() => void downloadErrors()}
      />
    </WizardFrame>
  );
}
