import { RESOURCES, WEBHOOK_EVENT_TYPES, WEBHOOK_RECORD_VERBS, type WebhookRecordVerb } from '@wfc/contract';

/*
 * The events a webhook may subscribe to, as the form offers them: one group per module with its
 * record events (created, updated, deleted, restored), then the events that are no one record's.
 */

export interface WebhookEventChoice {
  /** The event type as the API names it: `employee.created`. */
  type: string;
  /** Its name within its group: 'Created', 'Performance saved'. */
  label: string;
}

export interface WebhookEventGroup {
  /** The module's key (`employee`), or `other`. */
  key: string;
  /** 'Employees', 'Other events'. */
  label: string;
  events: WebhookEventChoice[];
}

export const OTHER_EVENTS_KEY = 'other';

const VERB_LABELS: Record<WebhookRecordVerb, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  restored: 'Restored',
};

/** Events that belong to no module's records, in the words of the screen. */
const OTHER_LABELS: Readonly<Record<string, string>> = {
  'performance.saved': 'Performance saved',
  'import.committed': 'Import committed',
  'user.signed_in_failed_repeatedly': 'Repeated sign-in failures',
};

const MODULE_TITLES: ReadonlyMap<string, string> = new Map(
  RESOURCES.map((def) => [def.key, def.moduleTitle]),
);
const isVerb = (s: string): s is WebhookRecordVerb => (WEBHOOK_RECORD_VERBS as readonly string[]).includes(s);

/** A record event's module and verb; undefined for the other events. */
function recordEventParts(type: string): { key: string; verb: WebhookRecordVerb } | undefined {
  if (OTHER_LABELS[type]) return undefined;
  const dot = type.lastIndexOf('.');
  const verb = type.slice(dot + 1);
  return dot > 0 && isVerb(verb) ? { key: type.slice(0, dot), verb } : undefined;
}

/** 'Employees: created', 'Repeated sign-in failures': an event named on its own, for tooltips. */
export function webhookEventLabel(type: string): string {
  const parts = recordEventParts(type);
  if (!parts) return OTHER_LABELS[type] ?? type;
  return `${MODULE_TITLES.get(parts.key) ?? parts.key}: ${VERB_LABELS[parts.verb].toLowerCase()}`;
}

/**
 * Pure: the event types in groups, each module's in the order the types come, the modules in the
 * order they first come, and the events of no module last. A type this screen does not know (a
 * newer server's) keeps its own name.
 */
export function groupWebhookEvents(types: readonly string[] = WEBHOOK_EVENT_TYPES): WebhookEventGroup[] {
  const modules = new Map<string, WebhookEventGroup>();
  const other: WebhookEventChoice[] = [];
  for (const type of types) {
    const parts = recordEventParts(type);
    if (!parts) {
      other.push({ type, label: OTHER_LABELS[type] ?? type });
      continue;
    }
    const group = modules.get(parts.key) ?? {
      key: parts.key,
      label: MODULE_TITLES.get(parts.key) ?? parts.key,
      events: [],
    };
    group.events.push({ type, label: VERB_LABELS[parts.verb] });
    modules.set(parts.key, group);
  }
  const groups = [...modules.values()];
  return other.length > 0
    ? [...groups, { key: OTHER_EVENTS_KEY, label: 'Other events', events: other }]
    : groups;
}

/** How much of a group is chosen: what its "all" box shows (checked, mixed or empty). */
export function groupSelection(group: WebhookEventGroup, chosen: readonly string[]): 'all' | 'some' | 'none' {
  const n = group.events.filter((e) => chosen.includes(e.type)).length;
  return n === 0 ? 'none' : n === group.events.length ? 'all' : 'some';
}

/**
 * The group's "all" box pressed: every event of the group chosen, or none of them when all were.
 * The result keeps the order of `order` (the form's list of every event), so the body reads the same
 * whatever was clicked first.
 */
export function toggleGroup(
  group: WebhookEventGroup,
  chosen: readonly string[],
  order: readonly string[] = WEBHOOK_EVENT_TYPES,
): string[] {
  const types = group.events.map((e) => e.type);
  const next = new Set(chosen);
  if (groupSelection(group, chosen) === 'all') for (const t of types) next.delete(t);
  else for (const t of types) next.add(t);
  return inOrder(next, order);
}

/** One event ticked or unticked, in the same order. */
export function toggleEvent(
  type: string,
  chosen: readonly string[],
  order: readonly string[] = WEBHOOK_EVENT_TYPES,
): string[] {
  const next = new Set(chosen);
  if (next.has(type)) next.delete(type);
  else next.add(type);
  return inOrder(next, order);
}

/** The set in the order given, then anything the order does not know. */
function inOrder(set: ReadonlySet<string>, order: readonly string[]): string[] {
  const known = order.filter((t) => set.has(t));
  return [...known, ...[...set].filter((t) => !order.includes(t))];
}
