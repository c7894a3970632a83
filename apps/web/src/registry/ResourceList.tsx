import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../api/client';
import { PageLoader } from '../ui/PageLoader';
import { ScreenHeader } from '../ui/ScreenHeader';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { DeleteRecordDialog } from './DeleteRecordDialog';
import { ExportButton } from './ExportButton';
import { FilterField } from './FilterField';
import { recordName } from './format';
import { fieldsFor, presetFromParent } from './formValues';
import { ListFilters } from './ListFilters';
import { nextSort, withFilters, withKeyword } from './listQuery';
import { type BackTarget, createPath, useBackTarget, useNavigateWithBack, viewPath } from './paths';
import { type RegistryRecord, type SubListContext, useRecordQuery } from './queries';
import { RecordTable } from './RecordTable';
import type { Option } from './ResourceSelect';
import { RowActions } from './RowActions';
import { useListPage } from './useListPage';
import { useRecordPermissions } from './useRecordPermissions';

interface Props {
  def: ResourceDef;
  /** Set when the list is a parent's sub-list (a role's permissions, a country's states, ...). */
  subList?: SubListContext;
}

/** The one list screen of every registry module and sub-list, driven by the resource definition. */
export function ResourceList({ def, subList }: Props) {
  return subList ? <SubList def={def} subList={subList} /> : <ListScreen def={def} title={def.plural} />;
}

/** A sub-list names its parent, goes back to it, and hands it to a new record's form. */
function SubList({ def, subList }: Props & { subList: SubListContext }) {
  const { code: parentCode = '' } = useParams();
  const parent = useRecordQuery(subList.parent, parentCode);
  const back = useBackTarget(viewPath(subList.parent, parentCode));
  const parentRecord = parent.data?.data;
  return (
    <ListScreen
      def={def}
      subList={subList}
      parentCode={parentCode}
      title={`${subList.parent.label} ${def.plural}`}
      subtitle={`${subList.parent.label}: ${recordName(subList.parent, parentRecord) || parentCode}`}
      back={back}
      addPreset={presetFromParent(fieldsFor(def, 'create'), subList.parent, parentRecord)}
    />
  );
}

interface ListScreenProps {
  def: ResourceDef;
  subList?: SubListContext;
  parentCode?: string;
  title: string;
  subtitle?: string;
  back?: BackTarget;
  addPreset?: Record<string, Option>;
}

function ListScreen({ def, subList, parentCode, title, subtitle, back, addPreset }: ListScreenProps) {
  const { query, setQuery, list, rows, total } = useListPage(def, subList, parentCode);
  const allowed = useRecordPermissions(def);
  const go = useNavigateWithBack();
  const [selected, setSelected] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<RegistryRecord | null>(null);

  if (list.error) {
    return (
      <Alert
        severity="error"
        role="alert"
        sx={{ my: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void list.refetch()}>
            Retry
          </Button>
        }
      >
        {errorMessage(list.error, def.messages.failedList)}
      </Alert>
    );
  }
  if (!list.data) return <PageLoader label={`Loading ${def.plural.toLowerCase()}`} />;

  const selectedRow = rows.find((r) => String(r[def.code]) === selected) ?? null;
  return (
    <Box>
      <ScreenHeader
        title={title}
        subtitle={subtitle}
        back={back?.to}
        backState={back?.state}
        actions={
          <>
            {allowed.view && <ExportButton def={def} query={query} />}
            {allowed.create && (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => go(createPath(def), { preset: addPreset })}
              >
                Add {def.label}
              </Button>
            )}
          </>
        }
      />
      <Paper variant="outlined" sx={{ position: 'relative', overflow: 'hidden' }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 1.5,
            p: 2,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <FilterField
            keyword={query.keyword}
            label={`Filter ${def.plural.toLowerCase()}`}
            onSubmit={(k) => setQuery(withKeyword(query, k))}
          />
          <RowActions
            def={def}
            selected={selectedRow}
            hasRows={rows.length > 0}
            allowed={allowed}
            onDelete={setConfirming}
            onClear={() => setSelected(null)}
          />
          {def.filters.length > 0 && (
            <ListFilters
              filters={def.filters}
              values={query.filters}
              onChange={(filters) => setQuery(withFilters(query, filters))}
            />
          )}
        </Box>
        <RecordTable
          def={def}
          title={title}
          rows={rows}
          query={query}
          onSort={(sortField) => setQuery(nextSort(query, sortField))}
          selected={selected}
          onSelect={setSelected}
          onOpen={allowed.view ? (code) => go(viewPath(def, code)) : undefined}
        />
        <TablePager total={total} query={query} onChange={setQuery} />
        {list.isFetching && <LoadingOverlay label={`Loading ${def.plural.toLowerCase()}`} />}
      </Paper>
      <DeleteRecordDialog
        def={def}
        record={confirming}
        onClose={() => setConfirming(null)}
        onDeleted={() => setSelected(null)}
      />
    </Box>
  );
}
