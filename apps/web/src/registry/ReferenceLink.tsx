import Link from '@mui/material/Link';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCan } from '../auth/auth';
import { stateFrom, viewPath } from './paths';
import type { RecordReference } from './references';

/**
 * Another record, by name: a link to its view for those who may view its module (handing this
 * screen on as the way back), plain text for the others.
 */
export function ReferenceLink({ reference }: { reference: RecordReference }) {
  const can = useCan();
  const location = useLocation();
  const { source, code, name } = reference;
  if (!can(source.permissions.view)) return <>{name}</>;
  return (
    <Link
      component={RouterLink}
      to={viewPath(source, code)}
      state={stateFrom(`${location.pathname}${location.search}`, location.state)}
      // A link inside a selectable row leads away; the row's own click and Enter (select, open) stay its own.
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => e.stopPropagation()}
    >
      {name}
    </Link>
  );
}
