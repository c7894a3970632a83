import type { FieldError, FormFieldDef, ResourceDef } from '@wfc/contract';
import { readPath } from '../paths';
import type { RegistryRecord } from '../queries';
import type { Option } from '../select/ResourceSelect';
import { chosenScopes, scopeValues } from './scopeChoices';

export type FormMode = 'view' | 'create' | 'update';

/** Form state: text for inputs, option objects for selectors (they carry the shown label). */
export type FormValues = Record<string, unknown>;

/** The fields a form shows in `mode`, each with the help that mode gives it. */
export const fieldsFor = (def: ResourceDef, mode: FormMode): FormFieldDef[] =>
  def.formFields
    .filter((f) => !f.modes || f.modes.includes(mode))
    .map((f) => (mode === 'update' && f.updateHelp ? { ...f, help: f.updateHelp } : f));

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function initialValue(field: FormFieldDef, record: RegistryRecord | undefined): unknown {
  const value = record ? readPath(record, field.valuePath ?? field.name) : undefined;
  if (field.kind === 'json') return value ?? null;
  if (field.kind === 'scopes') return scopeValues(value);
  if (field.kind === 'switch') return value === true;
  if (field.kind === 'multiselect') {
    const codes = Array.isArray(value) ? value : [];
    const labels = field.labelPath ? readPath(record, field.labelPath) : [];
    return codes.map((code, i) => ({
      value: asText(code),
      label: asText((Array.isArray(labels) ? labels[i] : undefined) ?? code),
    }));
  }
  if (field.kind === 'select') {
    if (value === null || value === undefined || value === '') return null;
    const label = field.labelPath ? readPath(record, field.labelPath) : undefined;
    return { value: asText(value), label: asText(label ?? value) } satisfies Option;
  }
  // Passwords are never sent back by the server; an empty one on update keeps the current password.
  if (field.kind === 'password') return '';
  return asText(value);
}

export function initialValues(fields: readonly FormFieldDef[], record?: RegistryRecord): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, initialValue(f, record)]));
}

/** The request body: option objects become codes; missing values are sent as '' or an empty list. */
export function toBody(fields: readonly FormFieldDef[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'json') continue;
    if (f.kind === 'multiselect') body[f.name] = Array.isArray(v) ? (v as Option[]).map((o) => o.value) : [];
    else if (f.kind === 'select') body[f.name] = (v as Option | null)?.value ?? '';
    else if (f.kind === 'scopes') body[f.name] = chosenScopes(scopeValues(v), values[f.scopesOf ?? '']);
    else body[f.name] = asText(v);
  }
  return body;
}

/** Fields that depend on `name`, directly or through another dependent, cleared when it changes. */
export function dependentsOf(fields: readonly FormFieldDef[], name: string): string[] {
  const direct = fields.filter((f) => f.dependsOn?.field === name).map((f) => f.name);
  return direct.flatMap((d) => [d, ...dependentsOf(fields, d)]);
}

/**
 * Server field errors name body keys, possibly nested (`rolePermissions.0`, `address.cityCode`):
 * each is shown beside the closest field the form has; the rest are returned for a general note.
 */
export function placeFieldErrors(
  errors: readonly FieldError[] | undefined,
  fieldNames: readonly string[],
): { placed: Map<string, string>; unplaced: string[] } {
  const placed = new Map<string, string>();
  const unplaced: string[] = [];
  for (const e of errors ?? []) {
    const parts = e.field.split('.');
    let target: string | undefined;
    for (let n = parts.length; n > 0 && !target; n--) {
      const candidate = parts.slice(0, n).join('.');
      if (fieldNames.includes(candidate)) target = candidate;
    }
    if (target) {
      if (!placed.has(target)) placed.set(target, e.message);
    } else unplaced.push(e.message);
  }
  return { placed, unplaced };
}

/**
 * A create form opened from a parent's sub-list starts with what the parent fixes: the selector
 * offering the parent itself, and any selector whose value the parent record also holds (a
 * state's cities inherit the state's country).
 */
export function presetFromParent(
  fields: readonly FormFieldDef[],
  parent: ResourceDef,
  record: RegistryRecord | undefined,
): Record<string, Option> {
  const preset: Record<string, Option> = {};
  if (!record) return preset;
  for (const f of fields) {
    if (f.kind !== 'select') continue;
    const value =
      f.source === parent.key ? record[parent.code] : f.valuePath ? readPath(record, f.valuePath) : undefined;
    if (typeof value !== 'string' || !value) continue;
    const label =
      f.source === parent.key
        ? record[parent.nameField]
        : f.labelPath
          ? readPath(record, f.labelPath)
          : value;
    preset[f.name] = { value, label: typeof label === 'string' && label ? label : value };
  }
  return preset;
}
