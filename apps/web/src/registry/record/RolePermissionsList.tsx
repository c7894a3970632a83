import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { type PermissionScope, SCOPE_LABELS } from '@wfc/contract';
import { useId } from 'react';
import { groupPermissions } from './permissionGroups';

interface Props {
  names: readonly string[];
  /** The permissions held for fewer than all records, by name. */
  scopes?: ReadonlyMap<string, PermissionScope>;
}

/**
 * A role's permissions on its view, read-only and grouped by module, so that a role holding the
 * whole catalogue still reads at a glance; one held for the team or oneself says so.
 */
export function RolePermissionsList({ names, scopes }: Props) {
  const titleId = useId();
  const groups = groupPermissions(names);
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography id={titleId} variant="h3" component="h2" sx={{ mb: 1.5 }}>
        Permissions ({names.length})
      </Typography>
      {groups.length === 0 ? (
        <Typography color="text.secondary">This role has no permissions</Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
            columnGap: 3,
            rowGap: 2,
          }}
        >
          {groups.map((g) => (
            <Box key={g.module} component="section" aria-label={`${g.module} permissions`}>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 0.75 }}>
                {g.module}
              </Typography>
              <Box
                component="ul"
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, listStyle: 'none', m: 0, p: 0 }}
              >
                {g.names.map((name) => {
                  const scope = scopes?.get(name);
                  return (
                    <li key={name}>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={scope ? 'primary' : 'default'}
                        label={scope ? `${name} · ${SCOPE_LABELS[scope]}` : name}
                      />
                    </li>
                  );
                })}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
