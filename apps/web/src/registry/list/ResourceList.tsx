import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { ResourceDef } from '@wfc/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { failureOf } from '../../api/retry';
import { ImportButton } from '../../imports/ImportButton';
import type { Crumb } from '../../ui/Breadcrumbs';
import { RequestError } from '../../ui/RequestError';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { TableSkeleton } from '../../ui/Skeletons';
import { LoadingOverlay, TablePager } from '../../ui/TablePager';
import { nextSort, withKeyword } from '../../ui/tableState/tableUrl';
import { DeletedRecordsButton } from '../bin/DeletedRecordsButton';
import { listCrumbs } from '../breadcrumbs';
import { recordName } from '../format';
import { type BackTarget, createPath, useBackTarget, useNavigateWithBack, viewPath } from '../paths';
import { type RegistryRecord, type SubListContext, useRecordQuery } from '../queries';
import { DeleteRecordDialog } from '../record/DeleteRecordDialog';
import { fieldsFor, presetFromParent } from '../record/formValues';
import { useResourceExtension } from '../resourceExtension';
import type { Option } from '../select/ResourceSelect';
import { useRecordPermissions } from '../useRecordPermissions';
import { BulkBar, offersBulk, useBulkActions } from './BulkActions';
import { ExportButton } from './ExportButton';
import { FilterField } from './FilterField';
import { ListFilters } from './ListFilters';
import { useListedDefinition } from './listedDefinition';
import { withFilters } from './listQuery';
import { RecordTable } from './RecordTable';
import { RowActions, SelectRowHint } from './RowActions';
import { useListPage } from './useListPage';

interface Props {
  def: ResourceDef;
  /** Set when the list is a parent's sub-list (a role's permissions, a country's states, ...). */
  subList?: SubListContext;
}

/** The one list screen of every registry module and sub-list, driven by the resource definition. */
export function ResourceList({ def: defined, subList }: Props) {
  const def = useListedDefinition(defined);
  return subList ? (
    <SubList def={def} subList={subList} />
  ) : (
    <ListScreen def={def} title={def.plural} crumbs={listCrumbs(def)} />
  );
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
      crumbs={listCrumbs(def, {
        subList,
        record: { code: parentCode, name: recordName(subList.parent, parentRecord) },
      })}
      addPreset={presetFromParent(fieldsFor(def, 'create'), subList.parent, parentRecord)}
    />
  );
}

const NONE: ReadonlySet<string> = new Set();

interface ListScreenProps {
  def: ResourceDef;
  subList?: SubListContext;
  parentCode?: string;
  title: string;
  subtitle?: string;
  back?: BackTarget;
  crumbs: Crumb[];
  addPreset?: Record<string, Option>;
}

function ListScreen({ def, subList, parentCode, title, subtitle, back, crumbs, addPreset }: ListScreenProps) {
  const { query, setQuery, list, rows, total } = useListPage(def, subList, parentCode);
  const allowed = useRecordPermissions(def);
  const { choiceLabels } = useResourceExtension(def);
  const go = useNavigateWithBack();
  const [selected, setSelected] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<RegistryRecord | null>(null);
  const bulk = useBulkActions(def);
  // Records are chosen on the page in view: another page, filter or sort starts with none.
  const pageKey = JSON.stringify(query);
  const [checked, setChecked] = useState<{ pageKey: string; codes: ReadonlySet<string> }>({
    pageKey,
    codes: new Set(),
  });
  const checkedCodes = checked.pageKey === pageKey ? checked.codes : NONE;
  const check = (codes: readonly string[], on: boolean) => {
    const next = new Set(checkedCodes);
    for (const code of codes) {
      if (on) next.add(code);
      else next.delete(code);
    }
    setChecked({ pageKey, codes: next });
  };

  const heading = { title, subtitle, back: back?.to, backState: back?.state, crumbs };
  // With no page to show, the screen keeps its heading over the failure or the list's outline.
  if (list.error) {
    return (
      <Box>
        <ScreenHeader {...heading} />
        <RequestError {...failureOf(list, def.messages.failedList)} />
      </Box>
    );
  }
  if (!list.data) {
    return (
      <Box>
        <ScreenHeader {...heading} />
        <TableSkeleton
          label={`Loading ${def.plural.toLowerCase()}`}
          columns={def.columns.length}
          variant="records"
        />
      </Box>
    );
  }

  const selectedRow = rows.find((r) => String(r[def.code]) === selected) ?? null;
  const chosen = rows.filter((r) => checkedCodes.has(String(r[def.code])));
  return (
    <Box>
      <ScreenHeader
        {...heading}
        actions={
          <>
            {/* The export reads the whole module: a sub-list's parent is not one of its filters. */}
            {allowed.view && !subList && <ExportButton def={def} query={query} />}
            {allowed.delete && !subList && <DeletedRecordsButton def={def} />}
            {allowed.create && !subList && <ImportButton module={def.key} />}
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
          {!selectedRow && <SelectRowHint hasRows={rows.length > 0} allowed={allowed} />}
          {def.filters.length > 0 && (
            <ListFilters
              filters={def.filters}
              choiceLabels={choiceLabels}
              values={query.filters}
              onChange={(filters) => setQuery(withFilters(query, filters))}
            />
          )}
        </Box>
        {chosen.length > 0 && (
          <BulkBar
            def={def}
            actions={bulk}
            chosen={chosen}
            onClear={() => setChecked({ pageKey, codes: NONE })}
          />
        )}
        <RecordTable
          def={def}
          title={title}
          rows={rows}
          query={query}
          onSort={(sortField) => setQuery(nextSort(query, sortField))}
          selected={selected}
          onSelect={setSelected}
          {...(offersBulk(bulk) ? { checked: checkedCodes, onCheck: check } : {})}
          onOpen={allowed.view ? (code) => go(viewPath(def, code)) : undefined}
          actions={
            selectedRow && (
              <RowActions
                def={def}
                selected={selectedRow}
                allowed={allowed}
                onDelete={setConfirming}
                onClear={() => setSelected(null)}
              />
            )
          }
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
