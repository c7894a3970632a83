import MuiBreadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { createContext, useContext } from 'react';
import { Link as RouterLink } from 'react-router';

/** One step of the way to a screen: a link to an earlier screen, or the current one when `to` is absent. */
export interface Crumb {
  label: string;
  to?: string;
}

const ScreenCrumbs = createContext<readonly Crumb[] | undefined>(undefined);

/**
 * Crumbs for every ScreenHeader inside that is given none: a record screen states its place once,
 * whichever form (the generic one, the profile's, the audit entry's) draws its header.
 */
export const ScreenCrumbsProvider = ScreenCrumbs.Provider;

export const useScreenCrumbs = () => useContext(ScreenCrumbs);

// A long record name is cut with an ellipsis; its full text stays the link's name and its tooltip.
const cut = {
  display: 'block',
  maxWidth: { xs: '9rem', sm: '24rem' },
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

/**
 * The trail above a screen's title. On a phone a trail of four or more keeps its first step and
 * its last two, the middle behind an ellipsis that opens it, so it seldom needs a second line.
 */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <MuiBreadcrumbs
      aria-label="Breadcrumb"
      maxItems={phone ? 3 : 8}
      itemsBeforeCollapse={1}
      itemsAfterCollapse={2}
      sx={{ mb: 1, typography: 'body2', '& .MuiBreadcrumbs-li': { minWidth: 0 } }}
    >
      {crumbs.map((crumb, i) =>
        crumb.to && i < crumbs.length - 1 ? (
          <Link
            key={crumb.to}
            component={RouterLink}
            to={crumb.to}
            underline="hover"
            color="text.secondary"
            title={crumb.label}
            sx={cut}
          >
            {crumb.label}
          </Link>
        ) : (
          <Typography
            key="current"
            variant="body2"
            color="text.primary"
            aria-current="page"
            title={crumb.label}
            sx={{ ...cut, fontWeight: 600 }}
          >
            {crumb.label}
          </Typography>
        ),
      )}
    </MuiBreadcrumbs>
  );
}
