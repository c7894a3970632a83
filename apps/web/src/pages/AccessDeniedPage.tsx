import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { normalisePermissionName, PERMISSION_CATALOGUE } from '@wfc/contract/permissions';
import { Fragment, useEffect, useState } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import type { AccessDeniedState } from '../auth/accessDenied';
import { lastPageSeen, notePageRefused } from '../auth/accessDenied';
import { CentredPage } from '../ui/CentredPage';

/** 'View the performance snapshot' for VIEW_PERFORMANCES; an unknown name as it is. */
export function permissionLabel(name: string): string {
  const key = normalisePermissionName(name);
  const description = PERMISSION_CATALOGUE.find((p) => p.name === key)?.description;
  return description ?? name;
}

/** "A", "A and B", "A, B and C" ("or" for alternatives), each permission named and coded. */
function PermissionList({ names, joiner }: { names: string[]; joiner: 'and' | 'or' }) {
  return (
    <>
      {names.map((name, i) => (
        <Fragment key={name}>
          {i > 0 && (i === names.length - 1 ? ` ${joiner} ` : ', ')}
          <Box component="strong" sx={{ color: 'text.primary' }}>
            {permissionLabel(name)}
          </Box>{' '}
          (
          <Box component="code" sx={{ fontSize: '0.9em' }}>
            {normalisePermissionName(name)}
          </Box>
          )
        </Fragment>
      ))}
    </>
  );
}

/** Which permission the page needed, when the console knows it. */
function MissingPermissions({ missing, anyOf }: { missing: string[]; anyOf: boolean }) {
  const many = missing.length > 1;
  return (
    <Typography color="text.secondary" sx={{ mb: 2, fontSize: '1.05rem' }} data-testid="missing-permission">
      {anyOf && many
        ? 'This page needs one of the permissions '
        : `This page needs the permission${many ? 's' : ''} `}
      <PermissionList names={missing} joiner={anyOf ? 'or' : 'and'} />
      {', which your role does not have.'}
    </Typography>
  );
}

export function AccessDeniedPage() {
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as AccessDeniedState;
  const navigationType = useNavigationType();
  // A screen that sent the user here in its own place without saying so (the Modules page with no
  // module to show) was the last page seen: that one refused.
  const [refused] = useState(
    () => state.refused ?? (navigationType === 'REPLACE' ? lastPageSeen() : undefined),
  );
  const missing = Array.isArray(state.missing) ? state.missing.filter((m) => typeof m === 'string') : [];
  // The refused page is not one the user can see: Go Back never returns to it.
  useEffect(() => {
    if (refused) notePageRefused(refused);
  }, [refused]);
  // In place of this page, so that Back from where it lands does not come here again.
  const goBack = () => navigate(lastPageSeen() ?? '/', { replace: true });
  return (
    <CentredPage
      picture={
        <Box
          component="img"
          src={`${import.meta.env.BASE_URL}access-denied.svg`}
          alt="A locked padlock on a shield"
          width={240}
          height={200}
          sx={{ width: { xs: 200, md: 240 }, height: 'auto', mb: 3 }}
        />
      }
      title="Access Denied"
      maxWidth={560}
    >
      {missing.length > 0 && <MissingPermissions missing={missing} anyOf={Boolean(state.anyOf)} />}
      <Typography color="text.secondary" sx={{ mb: 4, fontSize: '1.05rem' }}>
        You do not have permission to access this page. Please reach out to the system administrator if you
        need access.
      </Typography>
      <Button variant="contained" size="large" startIcon={<ArrowBackIcon />} onClick={goBack}>
        Go Back
      </Button>
    </CentredPage>
  );
}
