import { sendableEvents, WEBHOOK_EVENT_TYPES, webhookEventPermission } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import {
  groupSelection,
  groupWebhookEvents,
  OTHER_EVENTS_KEY,
  toggleEvent,
  toggleGroup,
  webhookEventLabel,
} from '../../src/integrations/webhookEvents';

describe('webhook events in groups', () => {
  it('puts each module with its four record events, in the contract order, and the other events last', () => {
    const groups = groupWebhookEvents();
    const employees = groups.find((g) => g.key === 'employee');
    expect(employees).toEqual({
      key: 'employee',
      label: 'Employees',
      events: [
        { type: 'employee.created', label: 'Created' },
        { type: 'employee.updated', label: 'Updated' },
        { type: 'employee.deleted', label: 'Deleted' },
        { type: 'employee.restored', label: 'Restored' },
      ],
    });
    expect(groups.at(-1)).toEqual({
      key: OTHER_EVENTS_KEY,
      label: 'Other events',
      events: [
        { type: 'performance.saved', label: 'Performance saved' },
        { type: 'import.committed', label: 'Import committed' },
        { type: 'user.signed_in_failed_repeatedly', label: 'Repeated sign-in failures' },
      ],
    });
    // Every event once, none lost, and no read-only module (audit, permission) offered.
    expect(groups.flatMap((g) => g.events.map((e) => e.type)).sort()).toEqual(
      [...WEBHOOK_EVENT_TYPES].sort(),
    );
    expect(groups.map((g) => g.key)).not.toContain('audit');
    expect(groups.map((g) => g.key)).not.toContain('permission');
  });

  it('keeps a type it does not know under its own name', () => {
    const groups = groupWebhookEvents(['employee.created', 'contract.created', 'payroll.closed']);
    expect(groups.map((g) => [g.label, g.events.map((e) => e.label)])).toEqual([
      ['Employees', ['Created']],
      ['contract', ['Created']],
      ['Other events', ['payroll.closed']],
    ]);
  });

  it('names one event on its own', () => {
    expect(webhookEventLabel('employee.deleted')).toBe('Employees: deleted');
    expect(webhookEventLabel('user.signed_in_failed_repeatedly')).toBe('Repeated sign-in failures');
    expect(webhookEventLabel('unknown.thing')).toBe('unknown.thing');
  });

  it('toggles a whole group, and one event, keeping the contract order', () => {
    const employees = groupWebhookEvents().find((g) => g.key === 'employee');
    if (!employees) throw new Error('no employee group');
    expect(groupSelection(employees, [])).toBe('none');
    const some = toggleEvent('employee.deleted', ['import.committed']);
    expect(some).toEqual(['employee.deleted', 'import.committed']);
    expect(groupSelection(employees, some)).toBe('some');
    const all = toggleGroup(employees, some);
    expect(all).toEqual([
      'employee.created',
      'employee.updated',
      'employee.deleted',
      'employee.restored',
      'import.committed',
    ]);
    expect(groupSelection(employees, all)).toBe('all');
    expect(toggleGroup(employees, all)).toEqual(['import.committed']);
    expect(toggleEvent('import.committed', ['import.committed'])).toEqual([]);
  });

  it('offers only the events whose records the user may read in full', () => {
    expect(webhookEventPermission('employee.updated')).toBe('VIEW_EMPLOYEES');
    expect(webhookEventPermission('performance.saved')).toBe('VIEW_PERFORMANCES');
    expect(webhookEventPermission('user.signed_in_failed_repeatedly')).toBe('VIEW_AUDITS');
    expect(webhookEventPermission('import.committed')).toBeUndefined();
    const sendable = sendableEvents(WEBHOOK_EVENT_TYPES, (p) => p === 'VIEW_EMPLOYEES');
    expect(sendable).toEqual([
      'employee.created',
      'employee.updated',
      'employee.deleted',
      'employee.restored',
      'import.committed',
    ]);
  });
});
