import { type AuditAction, RESOURCES, type ResourceDef } from '@wfc/contract';
import { formatDate, formatDateTime } from '../../ui/dates';
import { recordName } from '../format';

/*
 * The audit log as its readers speak: the modules as the Modules screen names them, the actions
 * as what happened, a record by its name, its fields by their labels and its values as the screens
 * show them. The entry itself stays as it was written; only its reading changes.
 */

/** The modules an entry can name that are not registry modules. */
const OTHER_MODULES: ReadonlyMap<string, string> = new Map([
  ['auth', 'Sign-in'],
  ['security', 'Security'],
  ['performances', 'Performance Snapshot'],
  ['demo data', 'Demo data'],
  ['api tokens', 'API tokens'],
  ['retention', 'Retention'],
]);

/** The registry module an entry is about, if it is about one. */
export const auditTarget = (collection: string | null | undefined): ResourceDef | undefined =>
  RESOURCES.find((r) => r.listSegment === collection);

/** Pure: a module as the Modules screen names it ('employees' is 'Employees'). */
export function moduleLabel(collection: string): string {
  const target = auditTarget(collection);
  return target ? (target.moduleTitle ?? target.plural) : (OTHER_MODULES.get(collection) ?? collection);
}

const ACTIONS: Readonly<Record<AuditAction, string>> = {
  CREATE: 'Created',
  UPDATE: 'Updated',
  DELETE: 'Deleted',
  IMPORT: 'Imported',
  LOGIN: 'Signed in',
  LOGIN_FAILED: 'Sign-in failed',
  LOGOUT: 'Signed out',
  PASSWORD_CHANGED: 'Password changed',
  SESSION_ENDED: 'Session ended',
  MFA_ENABLED: 'Two-factor turned on',
  MFA_DISABLED: 'Two-factor turned off',
  MFA_RESET: 'Two-factor reset',
  SSO_FAILED: 'Single sign-on failed',
  SSO_LINKED: 'Single sign-on linked',
  SSO_UNLINKED: 'Single sign-on unlinked',
  SSO_LINKING_CHANGED: 'Single sign-on linking changed',
  ACCESS_DENIED: 'Access denied',
  UNAUTHENTICATED: 'Not signed in',
  PERSONAL_DATA_EXPORTED: 'Personal data exported',
  ERASURE: 'Personal data erased',
  RESTORE: 'Restored from the recycle bin',
  PURGE: 'Deleted permanently',
  RETENTION_PURGE: 'Old records purged',
  API_TOKEN_CREATED: 'API token created',
  API_TOKEN_REVOKED: 'API token revoked',
};
const ACTION_LABELS: ReadonlyMap<string, string> = new Map(Object.entries(ACTIONS));

/** Pure: what happened, in words ('CREATE' is 'Created'); an action it does not know, as it is. */
export const actionLabel = (action: string): string => ACTION_LABELS.get(action) ?? action;

/** What an entry says of itself, as its list and its view name it. */
export interface AuditSubject {
  action: string;
  collection: string;
  recordCode?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Pure: the record an entry is about, by its module's label and its name as the entry kept it
 * ('Employee Quinn Tester'); its code where the entry kept no name; '' for an entry about none.
 */
export function auditRecordLabel(entry: AuditSubject): string {
  const target = auditTarget(entry.collection);
  if (!target || !entry.recordCode) return entry.recordCode ?? '';
  const name = recordName(target, entry.after) || recordName(target, entry.before);
  return `${target.label} ${name || entry.recordCode}`;
}

/** Pure: the view's one line: 'Created Employee Quinn Tester'. */
export function auditHeadline(entry: AuditSubject): string {
  const record = auditRecordLabel(entry);
  return record ? `${actionLabel(entry.action)} ${record}` : actionLabel(entry.action);
}

/** Pure: 'joinDate' as a reader says it, 'Join date', for a field no definition labels. */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Pure: a field of `target`'s records by the label its screens give it: the list column or the
 * form field at that path or under it (`department` is the Department column's `department.name`).
 */
export function fieldLabel(target: ResourceDef | undefined, path: string): string {
  const under = (p: string | undefined) => p !== undefined && (p === path || p.startsWith(`${path}.`));
  const column = target?.columns.find((c) => under(c.path));
  const field = target?.formFields.find((f) => under(f.name) || under(f.valuePath));
  const label = column?.label ?? field?.label;
  if (label) return label;
  const parts = path.split('.');
  return parts.map(humanize).join(' · ');
}

type Plain = Readonly<Record<string, unknown>>;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A reference as the API nests it, `{ departmentCode, name }`: a code and what to call it. Its
 * name is what a reader knows it by.
 */
function referenceName(value: Plain): string | undefined {
  const entries = Object.entries(value);
  if (!entries.some(([k]) => k.endsWith('Code'))) return undefined;
  const named = entries.find(([k, v]) => !k.endsWith('Code') && typeof v === 'string');
  return named ? String(named[1]) : undefined;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Pure: one value as the screens show it: references by name, dates as dates, yes and no. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (ISO_DAY.test(value)) return formatDate(value);
    if (ISO_MOMENT.test(value)) return formatDateTime(value);
    return value;
  }
  if (Array.isArray(value)) return value.map(auditValue).filter(Boolean).join(', ');
  if (isPlain(value)) {
    const name = referenceName(value);
    if (name !== undefined) return name;
    return Object.entries(value)
      .map(([k, v]) => [humanize(k), auditValue(v)])
      .filter(([, v]) => v)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
  }
  return String(value);
}

/**
 * Pure: a record's fields as rows, one per value a reader looks for: a reference is one row (its
 * name), a group of fields (an address) one row per field in it.
 */
export function auditFields(record: unknown, prefix = ''): [path: string, value: unknown][] {
  if (!isPlain(record)) return [];
  return Object.entries(record).flatMap(([key, value]): [string, unknown][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isPlain(value) && referenceName(value) === undefined && Object.keys(value).length > 0
      ? auditFields(value, path)
      : [[path, value]];
  });
}
