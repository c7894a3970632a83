import type { RouteObject } from 'react-router';

export const registryRoutes: RouteObject[] = [];
