import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { ResourceDef } from '@wfc/contract';
import { useEffect } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import { useVisibleModules } from '../auth/useVisibleModules';
import { MODULE_ICONS } from '../ui/moduleIcons';
import { PageHeading } from '../ui/PageHeading';
import { prefetchRegistry } from './prefetch';

function ModuleCard({ resource }: { resource: ResourceDef }) {
  const Icon = MODULE_ICONS[resource.key];
  return (
    <Card
      component="li"
      sx={{
        listStyle: 'none',
        transition: 'border-color 120ms, box-shadow 120ms, transform 120ms',
        '&:hover': {
          borderColor: 'brand.main',
          boxShadow: (theme) => `0 8px 24px ${theme.alpha(theme.vars.palette.brand.main, 0.12)}`,
          transform: 'translateY(-2px)',
        },
      }}
    >
      <CardActionArea
        component={RouterLink}
        to={`/registry/${resource.listSegment}`}
        sx={{
          p: { xs: 2, sm: 2.5 },
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'flex-start',
          gap: 2,
        }}
      >
        <Box
          aria-hidden="true"
          sx={{
            width: 48,
            height: 48,
            borderRadius: 2,
            display: 'grid',
            placeItems: 'center',
            bgcolor: (theme) => theme.alpha(theme.vars.palette.brand.main, 0.1),
            color: 'brand.text',
          }}
        >
          <Icon />
        </Box>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            width: '100%',
            gap: 1,
          }}
        >
          <Typography component="h2" sx={{ fontWeight: 600, fontSize: '1rem' }}>
            {resource.moduleTitle}
          </Typography>
          <ArrowForwardIcon fontSize="small" aria-hidden="true" sx={{ color: 'text.secondary' }} />
        </Box>
      </CardActionArea>
    </Card>
  );
}

export function ModulesPage() {
  const modules = useVisibleModules();

  useEffect(() => {
    void prefetchRegistry();
  }, []);

  if (modules.length === 0) return <Navigate to="/access-denied" replace />;
  return (
    <>
      <PageHeading title="Registry" subtitle="Choose a module to browse and manage its records." />
      <Box
        component="ul"
        aria-label="Modules"
        sx={{
          p: 0,
          m: 0,
          display: 'grid',
          gap: { xs: 1.5, sm: 2 },
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(auto-fill, minmax(210px, 1fr))',
          },
        }}
      >
        {modules.map((r) => (
          <ModuleCard key={r.key} resource={r} />
        ))}
      </Box>
    </>
  );
}
