import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import type { ResourceDef } from '@wfc/contract';
import type { ReactNode } from 'react';
import { ScreenHeader } from '../../ui/ScreenHeader';
import type { RegistryRecord } from '../queries';
import { heldPermissionNames, heldPermissionScopes, permissionsField } from './permissionGroups';
import { RecordDetails } from './RecordDetails';
import { formTitle, type RecordFormProps } from './RecordScreen';
import { RolePermissionsList } from './RolePermissionsList';
import { ViewActions } from './ViewActions';

/**
 * What every record's view has around what it reads: the title with the record's name under it,
 * the view's actions, and below the fields the permissions it holds (a role's) and its record details.
 */
export function ViewFrame({
  def,
  code,
  record,
  back,
  name,
  children,
}: Omit<RecordFormProps, 'mode'> & { name: string; children: ReactNode }) {
  return (
    <Box>
      <ScreenHeader
        title={formTitle(def, 'view')}
        subtitle={name || undefined}
        back={back.to}
        backState={back.state}
        actions={<ViewActions def={def} code={code} record={record} back={back} />}
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 880 }}>
        <Stack spacing={3}>
          {children}
          {record && <ViewExtras def={def} code={code} record={record} />}
        </Stack>
      </Paper>
    </Box>
  );
}

function ViewExtras({ def, code, record }: { def: ResourceDef; code: string; record: RegistryRecord }) {
  const held = permissionsField(def);
  return (
    <>
      {held && (
        <RolePermissionsList
          names={heldPermissionNames(held, record)}
          scopes={heldPermissionScopes(def, held, record)}
        />
      )}
      <RecordDetails def={def} code={code} record={record} />
    </>
  );
}
