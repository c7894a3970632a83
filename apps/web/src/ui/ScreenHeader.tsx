import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Breadcrumbs, type Crumb, useScreenCrumbs } from './Breadcrumbs';

interface Props {
  title: string;
  subtitle?: string;
  back?: string;
  /** The history state Back hands on: the back target's own back target, so Back unwinds at any depth. */
  backState?: unknown;
  actions?: ReactNode;
  /** The way to this screen, shown above the title; a record screen's come from its RecordScreen. */
  crumbs?: readonly Crumb[];
}

/**
 * Title row shared by every registry screen: the breadcrumb trail above, Back on the left, screen
 * actions on the right.
 */
export function ScreenHeader({ title, subtitle, back, backState, actions, crumbs }: Props) {
  const navigate = useNavigate();
  const trail = useScreenCrumbs();
  const shown = crumbs ?? trail;
  return (
    <Box sx={{ mb: { xs: 2.5, md: 3 } }}>
      {shown && <Breadcrumbs crumbs={shown} />}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        {back && (
          <Button
            variant="outlined"
            startIcon={<ArrowBackIcon />}
            onClick={() => navigate(back, backState === undefined ? undefined : { state: backState })}
          >
            Back
          </Button>
        )}
        <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions && <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>{actions}</Box>}
      </Box>
    </Box>
  );
}
