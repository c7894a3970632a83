import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router';

/** The screens of Integrations, in the order the side navigation lists them. */
export const INTEGRATION_SCREENS = [
  { label: 'API tokens', to: '/integrations/api-tokens' },
  { label: 'Webhooks', to: '/integrations/webhooks' },
] as const;

/** Links between the Integrations screens, drawn as tabs under the screen's title. */
export function IntegrationsTabs() {
  const { pathname } = useLocation();
  const current = INTEGRATION_SCREENS.find((s) => pathname === s.to || pathname.startsWith(`${s.to}/`));
  return (
    <Tabs
      component="nav"
      aria-label="Integrations"
      value={current?.to ?? false}
      variant="scrollable"
      scrollButtons={false}
      sx={{ mb: 2, mt: { xs: -1, md: -1.5 }, borderBottom: 1, borderColor: 'divider', minHeight: 40 }}
    >
      {INTEGRATION_SCREENS.map((s) => (
        <Tab
          key={s.to}
          value={s.to}
          label={s.label}
          component={RouterLink}
          to={s.to}
          aria-current={current?.to === s.to ? 'page' : undefined}
          sx={{ minHeight: 40, textTransform: 'none', fontWeight: 600 }}
        />
      ))}
    </Tabs>
  );
}
