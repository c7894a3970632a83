import type { ApiRoute } from '../http/routes.ts';

/** The Performance Snapshot's calls (SPEC.md section 7). */
export const performanceRoutes: ApiRoute[] = [];
