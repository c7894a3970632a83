import AddIcon from '@mui/icons-material/Add';
import ClearIcon from '@mui/icons-material/Clear';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiEnvelope, ResourceDef, SubListDef } from '@wfc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { useCan } from '../auth/auth';
import { notify } from '../ui/notify';
import { PageLoader } from '../ui/PageLoader';
import { lastPage, visuallyHidden } from '../ui/paging';
import { LoadingOverlay, TablePager } from '../ui/TablePager';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { formatCell } from './format';
import { fieldsFor, presetFromParent } from './formValues';
import { nextSort, readTableQuery, type TableQuery, withKeyword, writeTableQuery } from './listQuery';
import { createPath, editPath, useBackTarget, useNavigateWithBack, viewPath } from './paths';
import { errorMessage, type RegistryRecord, useRecordQuery, useRefreshRegistry } from './queries';
import { ScreenHeader } from './ScreenHeader';

export interface SubListContext {
  parent: ResourceDef;
  sub: SubListDef;
}

interface Props {
  def: ResourceDef;
  /** Set when the list is a parent's sub-list (a role's permissions, a country's states, ...). */
  subList?: SubListContext;
}

/** The one list screen of every registry module and sub-list, driven by the resource definition. */
export function ResourceList({ def, subList }: Props) {
  const { code: parentCode = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const query = readTableQuery(params, def.sortFields);
  const setQuery = (next: TableQuery) => setParams(writeTableQuery(next));
  const can = useCan();
  const go = useNavigateWithBack();
  const refresh = useRefreshRegistry();
  const [selected, setSelected] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<RegistryRecord | null>(null);
  const [deleting, setDeleting] = useState(false);

  const endpoint = subList ? subList.sub.endpoint : def.endpoints.list;
  const list = useQuery({
    queryKey: ['registry', def.key, 'list', endpoint, parentCode, query],
    queryFn: () =>
      subList
        ? api.post<RegistryRecord[]>(endpoint, { [subList.sub.param]: parentCode }, { ...query })
        : api.get<RegistryRecord[]>(endpoint, { ...query }),
    placeholderData: keepPreviousData,
  });
  const parent = useRecordQuery(subList?.parent, subList ? parentCode : undefined);

  const envelope: ApiEnvelope<RegistryRecord[]> | undefined = list.data;
  const rows = envelope?.statusCode === 200 ? (envelope.data ?? []) : [];
  const total = envelope?.total ?? rows.length;

  // After a delete empties the last page (or a stale link names a page past the end), show the last real one.
  const pastEnd =
    envelope?.statusCode === 200 && rows.length === 0 && query.page > lastPage(total, query.limit);
  useEffect(() => {
    if (pastEnd)
      setParams(writeTableQuery({ ...query, page: lastPage(total, query.limit) }), { replace: true });
  }, [pastEnd, query, total, setParams]);

  const selectedRow = rows.find((r) => String(r[def.code]) === selected) ?? null;

  const back = useBackTarget(subList ? viewPath(subList.parent, parentCode) : '');
  const failure = list.error
    ? errorMessage(list.error, def.messages.failedList)
    : envelope && envelope.statusCode !== 200
      ? envelope.message || def.messages.failedList
      : null;
  if (failure) {
    return (
      <Alert severity="error" role="alert" sx={{ my: 2 }}>
        {failure}
      </Alert>
    );
  }
  if (!envelope) return <PageLoader label={`Loading ${def.plural.toLowerCase()}`} />;

  const canView = can(def.permissions.view);
  const canCreate = Boolean(def.endpoints.create && def.permissions.create && can(def.permissions.create));
  const canUpdate = Boolean(def.endpoints.update && def.permissions.update && can(def.permissions.update));
  const canDelete = Boolean(def.endpoints.delete && def.permissions.delete && can(def.permissions.delete));

  const parentRecord = parent.data?.statusCode === 200 ? parent.data.data : undefined;
  const parentName = readName(subList?.parent, parentRecord);
  const addPreset = subList
    ? presetFromParent(fieldsFor(def, 'create'), subList.parent, parentRecord)
    : undefined;
  const title = subList ? `${subList.parent.label} ${def.plural}` : def.plural;
  const subtitle = subList ? `${subList.parent.label}: ${parentName || parentCode}` : undefined;

  async function confirmDelete() {
    if (!confirming || !def.endpoints.delete) return;
    setDeleting(true);
    try {
      const res = await api.post(def.endpoints.delete, { [def.code]: confirming[def.code] });
      if (res.statusCode === 200) {
        notify.success(res.message || def.messages.deleted);
        setSelected(null);
        await refresh();
      } else {
        notify.error(res.message || def.messages.failedDelete);
      }
    } catch (err) {
      notify.error(errorMessage(err, def.messages.failedDelete));
    } finally {
      setDeleting(false);
      setConfirming(null);
    }
  }

  return (
    <Box>
      <ScreenHeader
        title={title}
        subtitle={subtitle}
        back={subList ? back : undefined}
        actions={
          canCreate ? (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => go(createPath(def), { preset: addPreset })}
            >
              Add {def.label}
            </Button>
          ) : null
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
          {selectedRow && (
            <Box
              role="toolbar"
              aria-label="Selected row actions"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: { sm: 'auto' } }}
            >
              {canView && (
                <Button
                  variant="outlined"
                  startIcon={<VisibilityIcon />}
                  onClick={() => go(viewPath(def, String(selectedRow[def.code])))}
                >
                  View
                </Button>
              )}
              {canUpdate && (
                <Button
                  variant="outlined"
                  startIcon={<EditIcon />}
                  onClick={() => go(editPath(def, String(selectedRow[def.code])))}
                >
                  Edit
                </Button>
              )}
              {canDelete && (
                <Button
                  variant="outlined"
                  color="error"
                  startIcon={<DeleteIcon />}
                  onClick={() => setConfirming(selectedRow)}
                >
                  Delete
                </Button>
              )}
              <Button color="inherit" startIcon={<ClearIcon />} onClick={() => setSelected(null)}>
                Clear selection
              </Button>
            </Box>
          )}
          {!selectedRow && rows.length > 0 && (canView || canUpdate || canDelete) && (
            <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' } }}>
              Select a row to {rowActionsText(canView, canUpdate, canDelete)} it
            </Typography>
          )}
        </Box>
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label={title} sx={{ minWidth: 640 }}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Box component="span" sx={visuallyHidden}>
                    Select
                  </Box>
                </TableCell>
                {def.columns.map((col) => (
                  <TableCell
                    key={col.path}
                    sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                    sortDirection={
                      col.sortField && query.sortField === col.sortField ? query.sortValue : false
                    }
                  >
                    {col.sortField ? (
                      <TableSortLabel
                        active={query.sortField === col.sortField}
                        direction={query.sortField === col.sortField ? query.sortValue : 'asc'}
                        onClick={() => setQuery(nextSort(query, col.sortField as string))}
                      >
                        {col.label}
                      </TableSortLabel>
                    ) : (
                      col.label
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={def.columns.length + 1} align="center" sx={{ py: 6 }}>
                    <Typography color="text.secondary">{def.messages.empty}</Typography>
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((row) => {
                  const code = String(row[def.code]);
                  const isSelected = code === selected;
                  return (
                    <TableRow
                      key={code}
                      hover
                      selected={isSelected}
                      onClick={() => setSelected(code)}
                      sx={{ cursor: 'pointer' }}
                    >
                      <TableCell padding="checkbox">
                        <Radio
                          checked={isSelected}
                          onChange={() => setSelected(code)}
                          value={code}
                          name={`${def.key}-selection`}
                          slotProps={{ input: { 'aria-label': `Select ${readName(def, row) || code}` } }}
                        />
                      </TableCell>
                      {def.columns.map((col) => (
                        <TableCell
                          key={col.path}
                          sx={{
                            whiteSpace:
                              col.format === 'datetime' || col.format === 'date' ? 'nowrap' : undefined,
                            maxWidth: 360,
                            overflowWrap: 'anywhere',
                          }}
                        >
                          {formatCell(row, col)}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePager total={total} query={query} onChange={setQuery} />
        {list.isFetching && <LoadingOverlay label={`Loading ${def.plural.toLowerCase()}`} />}
      </Paper>
      <ConfirmDeleteDialog
        open={confirming !== null}
        label={def.label}
        name={confirming ? readName(def, confirming) || String(confirming[def.code]) : ''}
        busy={deleting}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmDelete}
      />
    </Box>
  );
}

/** 'view', 'view or edit', 'view, edit or delete': only what this user may do. */
function rowActionsText(view: boolean, edit: boolean, del: boolean): string {
  const words = [view && 'view', edit && 'edit', del && 'delete'].filter((w): w is string => Boolean(w));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0];
}

function readName(def: ResourceDef | undefined, record: RegistryRecord | undefined): string {
  if (!def || !record) return '';
  const value = record[def.nameField];
  return typeof value === 'string' ? value : '';
}

function FilterField({
  keyword,
  label,
  onSubmit,
}: {
  keyword: string;
  label: string;
  onSubmit(keyword: string): void;
}) {
  const [text, setText] = useState(keyword);
  // Back navigation or a link can change the keyword under the field.
  useEffect(() => setText(keyword), [keyword]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(text);
  };
  return (
    <Box component="form" role="search" onSubmit={submit} sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}>
      <TextField
        size="small"
        fullWidth
        placeholder="Filter..."
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': label },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                {text && (
                  <IconButton
                    aria-label="Clear filter"
                    edge="end"
                    size="small"
                    onClick={() => {
                      setText('');
                      if (keyword) onSubmit('');
                    }}
                  >
                    <ClearIcon fontSize="small" />
                  </IconButton>
                )}
                <IconButton aria-label="Apply filter" type="submit" edge="end" size="small">
                  <SearchIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
