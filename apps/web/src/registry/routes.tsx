import { RESOURCE_BY_KEY, RESOURCES, type ResourceDef, subListsOf } from '@wfc/contract';
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { RequirePermission } from '../auth/guards';
import { DeletedRecordsPage } from './bin/DeletedRecordsPage';
import { EXTENSIONS } from './extensions';
import { ResourceList } from './list/ResourceList';
import { ResourceForm } from './record/ResourceForm';
import { extensionOf, ResourceExtensionsProvider } from './resourceExtension';

function routesFor(def: ResourceDef): RouteObject[] {
  const Form = extensionOf(EXTENSIONS, def).form ?? ResourceForm;
  const guarded = (permissions: string[], key: string, element: ReactNode): ReactNode => (
    <RequirePermission key={key} allOf={permissions}>
      <ResourceExtensionsProvider value={EXTENSIONS}>{element}</ResourceExtensionsProvider>
    </RequirePermission>
  );
  const routes: RouteObject[] = [
    {
      path: def.listSegment,
      element: guarded([def.permissions.view], `${def.key}-list`, <ResourceList def={def} />),
    },
    {
      path: `${def.itemSegment}/:code`,
      element: guarded([def.permissions.view], `${def.key}-view`, <Form def={def} mode="view" />),
    },
  ];
  if (def.endpoints.create && def.permissions.create) {
    routes.push({
      path: `${def.itemSegment}/create`,
      element: guarded([def.permissions.create], `${def.key}-create`, <Form def={def} mode="create" />),
    });
  }
  if (def.endpoints.update && def.permissions.update) {
    routes.push({
      path: `${def.itemSegment}/edit/:code`,
      element: guarded([def.permissions.update], `${def.key}-update`, <Form def={def} mode="update" />),
    });
  }
  if (def.endpoints.delete && def.permissions.delete) {
    routes.push({
      path: `${def.listSegment}/deleted`,
      element: guarded([def.permissions.delete], `${def.key}-deleted`, <DeletedRecordsPage def={def} />),
    });
  }
  for (const sub of subListsOf(def)) {
    const child = RESOURCE_BY_KEY[sub.resource];
    routes.push({
      path: `${def.itemSegment}/:code/${sub.segment}`,
      element: guarded(
        [def.permissions.view, child.permissions.view],
        `${def.key}-${sub.segment}`,
        <ResourceList def={child} subList={{ parent: def, sub }} />,
      ),
    });
  }
  return routes;
}

/** Every registry screen, generated from the resource definitions; paths are relative to /registry. */
export const registryRoutes: RouteObject[] = RESOURCES.flatMap(routesFor);
