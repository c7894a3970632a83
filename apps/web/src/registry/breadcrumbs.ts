import type { ResourceDef } from '@wfc/contract';
import type { Crumb } from '../ui/Breadcrumbs';
import { listPath, REGISTRY, viewPath } from './paths';
import type { SubListContext } from './queries';
import type { FormMode } from './record/formValues';

/** The record a crumb names: its display name, else its code (a record still loading, or nameless). */
export interface CrumbRecord {
  code: string;
  name: string;
}

const ROOT: Crumb = { label: 'Registry', to: REGISTRY };

const recordLabel = (record: CrumbRecord) => record.name || record.code;

/**
 * A list's trail: Registry / Countries; a sub-list's goes through its parent record,
 * Registry / Countries / France / States.
 */
export function listCrumbs(
  def: ResourceDef,
  parent?: { subList: SubListContext; record: CrumbRecord },
): Crumb[] {
  if (!parent) return [ROOT, { label: def.plural }];
  const owner = parent.subList.parent;
  return [
    ROOT,
    { label: owner.plural, to: listPath(owner) },
    { label: recordLabel(parent.record), to: viewPath(owner, parent.record.code) },
    { label: def.plural },
  ];
}

/**
 * A record screen's trail: Registry / Countries / France on view, … / France / Edit on update,
 * … / Add Country on create (the list's button says the same). A role may hold a module's create
 * or update permission without its view permission: the list and the record are then named but
 * not linked, as following them would only end at Access Denied.
 */
export function recordCrumbs(
  def: ResourceDef,
  mode: FormMode,
  record: CrumbRecord,
  mayView: boolean,
): Crumb[] {
  const linked = (label: string, to: string): Crumb => (mayView ? { label, to } : { label });
  const list = linked(def.plural, listPath(def));
  if (mode === 'create') return [ROOT, list, { label: `Add ${def.label}` }];
  if (mode === 'view') return [ROOT, list, { label: recordLabel(record) }];
  return [ROOT, list, linked(recordLabel(record), viewPath(def, record.code)), { label: 'Edit' }];
}
