import { APP_NAME } from '../env';

const FIXED: Record<string, string> = {
  '/': 'Home',
  '/login': 'Login',
  '/access-denied': 'Access Denied',
  '/registry': 'Registry',
  '/performance-snapshot': 'Performance Snapshot',
  '/performance-snapshot/overview': 'Performance Overview',
  '/account': 'My Account',
  '/account/two-factor': 'Two-Factor Sign-In',
  '/my/profile': 'My Profile',
  '/my/profile/edit': 'Edit My Details',
  '/my/performance': 'My Performance',
  '/integrations/api-tokens': 'API Tokens',
  '/integrations/webhooks': 'Webhooks',
  '/imports': 'Imports',
  '/imports/new': 'New Import',
};

export const trimTrailingSlashes = (pathname: string) =>
  pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;

/**
 * The title of a screen the shell knows by itself, or null for a path that is no screen.
 * Undefined for the registry module screens: naming those takes the resource definitions,
 * which carry every Zod schema and so stay out of the bundle that opens the login page.
 */
export function shellScreenTitle(pathname: string): string | null | undefined {
  const path = trimTrailingSlashes(pathname);
  if (FIXED[path]) return FIXED[path];
  if (/^\/performance-snapshot\/employees\/[^/]+$/.test(path)) return 'Performance Insight';
  if (/^\/integrations\/webhooks\/[^/]+\/deliveries$/.test(path)) return 'Webhook Deliveries';
  if (/^\/imports\/[^/]+$/.test(path)) return 'Import';
  return path.startsWith('/registry/') ? undefined : null;
}

export const withAppName = (title: string | null) => (title ? `${title} | ${APP_NAME}` : APP_NAME);
