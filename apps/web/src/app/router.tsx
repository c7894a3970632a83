import { lazy } from 'react';
import {
  createBrowserRouter,
  Navigate,
  Outlet,
  type PatchRoutesOnNavigationFunction,
  type RouteObject,
} from 'react-router';
import { MfaSetupGate } from '../account/MfaSetupGate';
import { RedirectIfAuthenticated, RequireAuth, RequirePermission } from '../auth/guards';
import { AppShell } from '../layout/AppShell';
import { RouteErrorShell } from '../layout/RouteErrorShell';
import { AccessDeniedPage } from '../pages/AccessDeniedPage';
import { LoginPage } from '../pages/LoginPage';
import { RequireSelfService } from '../self-service/RequireSelfService';
import { PageLoader } from '../ui/PageLoader';
import { RouteErrorPage } from '../ui/RouteErrorPage';

// The entry chunk holds what a signed-out visitor's first page needs, plus the access-denied page,
// small and shown at once when any call answers 403. Every other screen brings libraries (icons,
// resource definitions with their Zod schemas) that only it needs, so it loads on first visit.
const HomePage = lazy(() => import('../pages/HomePage').then((m) => ({ default: m.HomePage })));
const ModulesPage = lazy(() => import('../registry/ModulesPage').then((m) => ({ default: m.ModulesPage })));
const PerformancePage = lazy(() => import('../performance/PerformancePage'));
// The insight pages bring the chart library, which only they use.
const PerformanceOverviewPage = lazy(() => import('../performance/insights/OverviewPage'));
const EmployeeInsightPage = lazy(() => import('../performance/insights/EmployeeInsightPage'));
const MyProfilePage = lazy(() =>
  import('../self-service/profileScreens').then((m) => ({ default: m.MyProfilePage })),
);
const MyProfileEditPage = lazy(() =>
  import('../self-service/profileScreens').then((m) => ({ default: m.MyProfileEditPage })),
);
const MyPerformancePage = lazy(() => import('../self-service/MyPerformancePage'));
const AccountPage = lazy(() => import('../account/AccountPage').then((m) => ({ default: m.AccountPage })));
const TwoFactorSetupPage = lazy(() =>
  import('../account/TwoFactorSetup').then((m) => ({ default: m.TwoFactorSetupPage })),
);
const ApiTokensPage = lazy(() => import('../integrations/ApiTokensPage'));
const WebhooksPage = lazy(() => import('../integrations/WebhooksPage'));
const WebhookDeliveriesPage = lazy(() => import('../integrations/WebhookDeliveriesPage'));
const ImportsPage = lazy(() => import('../imports/ImportsPage'));
const NewImportPage = lazy(() =>
  import('../imports/ImportWizardPage').then((m) => ({ default: m.NewImportPage })),
);
const ImportPage = lazy(() => import('../imports/ImportWizardPage').then((m) => ({ default: m.ImportPage })));
// The search across modules, which the shell opens: its library and the definitions load with it.
const SearchPalette = lazy(() => import('../registry/search/SearchPalette'));

/** The route the registry screens are attached under once their chunk has loaded. */
export const REGISTRY_ROUTE_ID = 'registry';

/**
 * Every route gets an errorElement (unless it has its own): an error in a screen, or a screen's
 * code that would not load, shows the error page in that screen's place, inside the shell.
 */
export function withRouteErrors(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => ({
    ...route,
    errorElement: route.errorElement ?? <RouteErrorPage />,
    ...(route.children ? { children: withRouteErrors(route.children) } : {}),
  })) as RouteObject[];
}

/** The app's route paths; the registry screens are patched in below REGISTRY_ROUTE_ID. */
export const appRoutes: RouteObject[] = [
  {
    id: 'root',
    element: <AppShell search={SearchPalette} />,
    // An error in the shell itself: the header and footer drawn again around the error page.
    errorElement: <RouteErrorShell />,
    hydrateFallbackElement: <PageLoader />,
    children: withRouteErrors([
      {
        path: 'login',
        element: (
          <RedirectIfAuthenticated>
            <LoginPage />
          </RedirectIfAuthenticated>
        ),
      },
      { path: 'access-denied', element: <AccessDeniedPage /> },
      {
        element: (
          <RequireAuth>
            <MfaSetupGate>
              <Outlet />
            </MfaSetupGate>
          </RequireAuth>
        ),
        children: [
          { index: true, element: <HomePage /> },
          { path: 'account', element: <AccountPage /> },
          { path: 'account/two-factor', element: <TwoFactorSetupPage /> },
          { id: REGISTRY_ROUTE_ID, path: 'registry', children: [{ index: true, element: <ModulesPage /> }] },
          {
            path: 'performance-snapshot',
            element: (
              <RequirePermission allOf={['VIEW_PERFORMANCES']}>
                <PerformancePage />
              </RequirePermission>
            ),
          },
          {
            path: 'performance-snapshot/overview',
            element: (
              <RequirePermission allOf={['VIEW_PERFORMANCES']}>
                <PerformanceOverviewPage />
              </RequirePermission>
            ),
          },
          {
            path: 'performance-snapshot/employees/:employeeCode',
            element: (
              <RequirePermission allOf={['VIEW_PERFORMANCES']}>
                <EmployeeInsightPage />
              </RequirePermission>
            ),
          },
          { path: 'performance', element: <Navigate to="/performance-snapshot" replace /> },
          // The section opens on its first screen.
          { path: 'integrations', element: <Navigate to="/integrations/api-tokens" replace /> },
          {
            path: 'integrations/api-tokens',
            element: (
              <RequirePermission allOf={['MANAGE_INTEGRATIONS']}>
                <ApiTokensPage />
              </RequirePermission>
            ),
          },
          {
            path: 'integrations/webhooks',
            element: (
              <RequirePermission allOf={['MANAGE_INTEGRATIONS']}>
                <WebhooksPage />
              </RequirePermission>
            ),
          },
          {
            path: 'integrations/webhooks/:webhookCode/deliveries',
            element: (
              <RequirePermission allOf={['MANAGE_INTEGRATIONS']}>
                <WebhookDeliveriesPage />
              </RequirePermission>
            ),
          },
          // Each import screen asks for a permission to import into some module itself: which ones
          // those are comes with the resource definitions, kept out of this entry chunk.
          { path: 'imports', element: <ImportsPage /> },
          { path: 'imports/new', element: <NewImportPage /> },
          { path: 'imports/:importCode', element: <ImportPage /> },
          {
            path: 'my/profile',
            element: (
              <RequireSelfService screen="profile">
                <MyProfilePage />
              </RequireSelfService>
            ),
          },
          {
            path: 'my/profile/edit',
            element: (
              <RequireSelfService screen="profile">
                <RequirePermission allOf={['VIEW_PROFILES', 'UPDATE_PROFILE']}>
                  <MyProfileEditPage />
                </RequirePermission>
              </RequireSelfService>
            ),
          },
          {
            path: 'my/performance',
            element: (
              <RequireSelfService screen="performance">
                <MyPerformancePage />
              </RequireSelfService>
            ),
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ]),
  },
];

/**
 * Loads the registry screens the first time a path below /registry/ is visited. Until then such
 * a path only matches the catch-all, which makes the router ask here before sending it home.
 * One patcher per router: each router keeps its own route tree.
 */
export function registryRoutePatcher(): PatchRoutesOnNavigationFunction {
  let patched = false;
  return async ({ path, patch }) => {
    if (patched || !path.startsWith('/registry/')) return;
    // AppShell names these screens from the resource definitions in ./titles: fetching it now,
    // beside the screens, has the title ready with them. AppShell's own import reports a failure.
    void import('../layout/titles').catch(() => undefined);
    const { registryRoutes } = await import('../registry/routes');
    if (patched) return;
    patch(REGISTRY_ROUTE_ID, withRouteErrors(registryRoutes));
    patched = true;
  };
}

export function createAppRouter() {
  return createBrowserRouter(appRoutes, { patchRoutesOnNavigation: registryRoutePatcher() });
}
