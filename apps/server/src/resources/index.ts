import type { ResourceKey } from '@wfc/contract';
import type { ApiRoute } from '../http/routes.ts';
import { audits$, permissions$, roles$, users$ } from './definitions/access.ts';
import { cities$, countries$, states$ } from './definitions/geography.ts';
import { employees$, profiles$ } from './definitions/people.ts';
import { departments$, genders$, skills$ } from './definitions/reference.ts';
import { pictureRoute } from './picture-route.ts';
import { recycleBinRoutes } from './recycle-bin/routes.ts';
import { restoreRoute } from './restore.ts';
import { resourceRoutes } from './routes.ts';
import { searchRoute } from './search.ts';
import type { ServerResource } from './server-resource.ts';

/** The server half of every contract resource: the type checker names a key left without one. */
const BY_KEY = {
  permission: permissions$,
  audit: audits$,
  role: roles$,
  user: users$,
  gender: genders$,
  country: countries$,
  state: states$,
  city: cities$,
  profile: profiles$,
  department: departments$,
  skill: skills$,
  employee: employees$,
} satisfies Record<ResourceKey, ServerResource>;

export const SERVER_RESOURCE_BY_KEY: ReadonlyMap<ResourceKey, ServerResource> = new Map(
  Object.values(BY_KEY).map((r) => [r.def.key, r]),
);

export const SERVER_RESOURCES: readonly ServerResource[] = [...SERVER_RESOURCE_BY_KEY.values()];

export const registryRoutes = (): ApiRoute[] => [
  ...SERVER_RESOURCES.flatMap((res) => resourceRoutes(res, SERVER_RESOURCE_BY_KEY)),
  pictureRoute,
  searchRoute(SERVER_RESOURCES),
  restoreRoute(SERVER_RESOURCES),
  ...recycleBinRoutes(SERVER_RESOURCES),
];
