import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { RESOURCE_BY_KEY, type ResourceDef } from '@wfc/contract';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCan } from '../../auth/auth';
import type { TableQuery } from '../list/listQuery';
import { historyPath, stateFrom } from '../paths';
import { type RegistryRecord, useListQuery } from '../queries';
import { actorOf, type RecordStamp, recordStamps } from './recordStamps';

interface Props {
  def: ResourceDef;
  code: string;
  record: RegistryRecord;
}

const AUDIT = RESOURCE_BY_KEY.audit;

/** The record's entries of one action in the audit log, the first (`asc`) or the latest (`desc`). */
const entryQuery = (
  def: ResourceDef,
  code: string,
  action: string,
  sortValue: 'asc' | 'desc',
): TableQuery => ({
  keyword: '',
  sortField: 'createdAt',
  sortValue,
  page: 1,
  limit: 1,
  filters: { collection: def.listSegment, recordCode: code, action },
});

/**
 * A view's "Created … by … · Updated … by …" line. The times are the record's own; who acted comes
 * from the audit log, asked only by those who may read it. Read-only modules (the permission
 * catalogue, the audit log itself) are written by nobody and show none.
 */
export function RecordDetails({ def, code, record }: Props) {
  const can = useCan();
  if (!def.permissions.create && !def.permissions.update) return null;
  return can(AUDIT.permissions.view) ? (
    <AuditedDetails def={def} code={code} record={record} />
  ) : (
    <StampLine def={def} code={code} stamps={recordStamps(record)} />
  );
}

function AuditedDetails({ def, code, record }: Props) {
  const created = useListQuery(AUDIT, entryQuery(def, code, 'CREATE', 'asc'));
  const updated = useListQuery(AUDIT, entryQuery(def, code, 'UPDATE', 'desc'));
  const by = { created: actorOf(created.data?.data?.[0]), updated: actorOf(updated.data?.data?.[0]) };
  return <StampLine def={def} code={code} stamps={recordStamps(record, by)} />;
}

/** The stamps; a name (known only to those who may read the audit log) leads to the record's history. */
function StampLine({
  def,
  code,
  stamps,
}: {
  def: ResourceDef;
  code: string;
  stamps: readonly RecordStamp[];
}) {
  const location = useLocation();
  if (stamps.length === 0) return null;
  const historyState = stateFrom(`${location.pathname}${location.search}`, location.state);
  return (
    <Box
      component="section"
      aria-label="Record details"
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        flexWrap: 'wrap',
        rowGap: 0.5,
        columnGap: 1,
        pt: 2,
        borderTop: 1,
        borderColor: 'divider',
        color: 'text.secondary',
        typography: 'body2',
        // One line from sm up, its stamps apart by a dot; stacked on a phone.
        '& > * + *::before': { sm: { content: '"·"', marginRight: '8px' } },
      }}
    >
      {stamps.map((s) => (
        <span key={s.label}>
          {s.label} {s.when}
          {s.by && (
            <>
              {' by '}
              <Link component={RouterLink} to={historyPath(def, code)} state={historyState}>
                {s.by}
              </Link>
            </>
          )}
        </span>
      ))}
    </Box>
  );
}
