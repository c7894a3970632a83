import AppsIcon from '@mui/icons-material/Apps';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import InsightsIcon from '@mui/icons-material/Insights';
import ShowChartIcon from '@mui/icons-material/ShowChart';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuth, useCan } from '../auth/auth';
import { useVisibleModules } from '../auth/useVisibleModules';
import { SELF_SERVICE_SCREENS, useSelfService } from '../self-service/access';
import { MODULE_ICONS } from '../ui/moduleIcons';
import { PageHeading } from '../ui/PageHeading';

function Destination({
  to,
  icon,
  title,
  description,
}: {
  to: string;
  icon: ReactNode;
  title: string;
  description: string;
}) {
  return (
    <Card
      component="li"
      sx={{
        listStyle: 'none',
        '&:hover': {
          borderColor: 'brand.main',
          boxShadow: (theme) => `0 8px 24px ${theme.alpha(theme.vars.palette.brand.main, 0.12)}`,
        },
      }}
    >
      <CardActionArea
        component={RouterLink}
        to={to}
        sx={{ p: { xs: 2.5, md: 3.5 }, height: '100%', display: 'flex', alignItems: 'flex-start', gap: 2.5 }}
      >
        <Box
          aria-hidden="true"
          sx={{
            flexShrink: 0,
            width: 56,
            height: 56,
            borderRadius: 2.5,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'brand.text',
            color: 'brand.contrastText',
          }}
        >
          {icon}
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography component="h2" variant="h3">
            {title}
            <ArrowForwardIcon
              fontSize="small"
              aria-hidden="true"
              sx={{ color: 'text.secondary', verticalAlign: 'middle', ml: 1 }}
            />
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.75 }}>
            {description}
          </Typography>
        </Box>
      </CardActionArea>
    </Card>
  );
}

export function HomePage() {
  const { user } = useAuth();
  const can = useCan();
  const modules = useVisibleModules();
  const canSeePerformance = can('VIEW_PERFORMANCES');
  const self = useSelfService();
  const mine = { profile: self.can('profile'), performance: self.can('performance') };
  const moduleCount = `${modules.length} ${modules.length === 1 ? 'module' : 'modules'} available to you`;

  return (
    <>
      <PageHeading
        title={`Welcome, ${user?.username ?? ''}`}
        subtitle={
          user?.role ? `Signed in with the ${user.role.roleName} role.` : 'Pick up where you left off below.'
        }
      />
      {modules.length === 0 && !canSeePerformance && !mine.profile && !mine.performance ? (
        <Alert severity="info">
          Your role does not give access to any module yet. Please reach out to the system administrator.
        </Alert>
      ) : (
        <Box
          component="ul"
          aria-label="Sections"
          sx={{ p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
        >
          {mine.profile && (
            <Destination
              to={SELF_SERVICE_SCREENS.profile.path}
              icon={<BadgeIcon fontSize="large" />}
              title={SELF_SERVICE_SCREENS.profile.label}
              description="Your personal and employment details; keep your phone, address and links up to date."
            />
          )}
          {mine.performance && (
            <Destination
              to={SELF_SERVICE_SCREENS.performance.path}
              icon={<ShowChartIcon fontSize="large" />}
              title={SELF_SERVICE_SCREENS.performance.label}
              description="Your own scores by date, your month's and year's averages and how they trend."
            />
          )}
          {modules.length > 0 && (
            <Destination
              to="/registry"
              icon={<AppsIcon fontSize="large" />}
              title="Registry"
              description={`Reference data, access control and people records: ${moduleCount}.`}
            />
          )}
          {canSeePerformance && (
            <Destination
              to="/performance-snapshot"
              icon={<InsightsIcon fontSize="large" />}
              title="Performance Snapshot"
              description="Daily skill scores per employee with daily, monthly and yearly averages."
            />
          )}
        </Box>
      )}
      {modules.length > 0 && (
        <Box component="section" aria-labelledby="quick-access" sx={{ mt: { xs: 4, md: 6 } }}>
          <Typography id="quick-access" component="h2" variant="h3" sx={{ mb: 2 }}>
            Quick access
          </Typography>
          <Box
            component="ul"
            sx={{ p: 0, m: 0, listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: 1.25 }}
          >
            {modules.map((r) => {
              const Icon = MODULE_ICONS[r.key];
              return (
                <li key={r.key}>
                  <Chip
                    component={RouterLink}
                    to={`/registry/${r.listSegment}`}
                    clickable
                    variant="outlined"
                    icon={<Icon fontSize="small" />}
                    label={r.moduleTitle}
                    sx={{
                      bgcolor: 'background.paper',
                      px: 0.5,
                      height: 36,
                      '& .MuiChip-icon': { color: 'brand.text' },
                    }}
                  />
                </li>
              );
            })}
          </Box>
        </Box>
      )}
    </>
  );
}
