import type { ApiRoute } from '../http/routes.ts';
import { audits$, permissions$, roles$, users$ } from './definitions/access.ts';
import { cities$, countries$, states$ } from './definitions/geography.ts';
import { employees$, profiles$ } from './definitions/people.ts';
import { departments$, genders$, skills$ } from './definitions/reference.ts';
import { resourceRoutes } from './engine.ts';
import { pictureRoute } from './picture-route.ts';
import type { ServerResource } from './server-resource.ts';

export const SERVER_RESOURCES: readonly ServerResource[] = [
  permissions$,
  audits$,
  roles$,
  users$,
  genders$,
  countries$,
  states$,
  cities$,
  profiles$,
  departments$,
  skills$,
  employees$,
];

export const registryRoutes = (): ApiRoute[] => [...SERVER_RESOURCES.flatMap(resourceRoutes), pictureRoute];
