import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookRecord } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { writeStoredUser } from '../../src/auth/storage';
import {
  ok,
  reply,
  resetScreensAfterEach,
  SCREEN_TEST_TIMEOUT,
  type Stub,
  stubApi,
} from '../registry/harness';
import { renderWholeApp } from '../support/app';
import { sessionUser } from '../support/session';

const MANAGER = ['MANAGE_INTEGRATIONS', 'VIEW_EMPLOYEES', 'VIEW_PERFORMANCES', 'VIEW_PERSONAL_DATA'];

const hook = (over: Partial<WebhookRecord> = {}): WebhookRecord => ({
  webhookCode: 'WH-1',
  url: 'https://payroll.example.com/hooks/workforce',
  events: ['employee.created', 'employee.updated'],
  description: 'Payroll sync',
  includePersonalData: false,
  active: true,
  createdBy: { userCode: 'USER-ADMIN', username: 'admin' },
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  version: 1,
  lastDelivery: { status: 'succeeded', at: '2026-11-21T09:30:00.000Z', statusCode: 200 },
  ...over,
});

function renderWebhooks(permissions: string[], handlers: Record<string, Stub>) {
  const user = sessionUser(permissions);
  writeStoredUser(user);
  const api = stubApi({ GetSession: ok(user), ...handlers });
  return { ...api, ...renderWholeApp('/integrations/webhooks') };
}

const dialog = () => screen.getByRole('dialog');
const submit = (name: RegExp | string) => fireEvent.click(within(dialog()).getByRole('button', { name }));
const urlField = () => within(dialog()).getByRole('textbox', { name: /^URL/ });

resetScreensAfterEach();

describe('Integrations > Webhooks', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists each webhook with its events, status, last delivery and creator', async () => {
    renderWebhooks(MANAGER, {
      GetWebhooks: ok([
        hook(),
        hook({
          webhookCode: 'WH-2',
          url: 'https://bi.example.com/in',
          description: null,
          events: [...WEBHOOK_EVENT_TYPES],
          active: false,
          includePersonalData: true,
          lastDelivery: { status: 'failed', at: '2026-11-22T08:00:00.000Z', statusCode: 500 },
        }),
        hook({ webhookCode: 'WH-3', url: 'https://new.example.com/', lastDelivery: null }),
      ]),
    });
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['URL', 'Events', 'Status', 'Last delivery', 'Actions']);
    const [, payroll, bi, fresh] = within(table).getAllByRole('row');
    if (!payroll || !bi || !fresh) throw new Error('three rows expected');
    expect(within(payroll).getByText('https://payroll.example.com/hooks/workforce')).toBeTruthy();
    expect(within(payroll).getByText('Payroll sync')).toBeTruthy();
    expect(within(payroll).getByText('employee.created')).toBeTruthy();
    expect(within(payroll).getByText('employee.updated')).toBeTruthy();
    expect(within(payroll).getByText('Active')).toBeTruthy();
    expect(within(payroll).getByText('Delivered')).toBeTruthy();
    expect(within(payroll).getByText(/HTTP 200/)).toBeTruthy();
    expect(within(payroll).getByText(/^Created .+ by admin$/)).toBeTruthy();
    // Many events read as a count; the tooltip lists them.
    expect(within(bi).getByText(`All ${WEBHOOK_EVENT_TYPES.length} events`)).toBeTruthy();
    expect(within(bi).queryByText('employee.created')).toBeNull();
    expect(within(bi).getByText('Paused')).toBeTruthy();
    expect(within(bi).getByText('With personal details')).toBeTruthy();
    expect(within(bi).getByText('Failed')).toBeTruthy();
    expect(within(fresh).getByText('None yet')).toBeTruthy();
    for (const name of [
      'Deliveries of',
      'Send test event to',
      'Edit the webhook to',
      'Delete the webhook to',
    ]) {
      expect(
        within(payroll).getByRole(name === 'Deliveries of' ? 'link' : 'button', {
          name: `${name} payroll.example.com`,
        }),
      ).toBeTruthy();
    }
    expect(
      within(payroll).getByRole('link', { name: 'Deliveries of payroll.example.com' }).getAttribute('href'),
    ).toBe('/integrations/webhooks/WH-1/deliveries');
    expect(screen.getByRole('tab', { name: 'Webhooks' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says so when there is none', async () => {
    renderWebhooks(MANAGER, { GetWebhooks: ok([]) });
    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
  });

  it('checks the form with the contract: URL and events required, http(s) only, no credentials', async () => {
    const api = renderWebhooks(MANAGER, { GetWebhooks: ok([]) });
    fireEvent.click(await screen.findByRole('button', { name: 'New webhook' }));
    await screen.findByRole('dialog', { name: 'New webhook' });
    submit('Create webhook');
    expect(await within(dialog()).findByText(WEBHOOK_MESSAGES.urlRequired)).toBeTruthy();
    expect(within(dialog()).getByText(WEBHOOK_MESSAGES.eventsRequired)).toBeTruthy();

    fireEvent.change(urlField(), { target: { value: 'ftp://files.example.com/in' } });
    submit('Create webhook');
    expect(await within(dialog()).findByText(WEBHOOK_MESSAGES.urlInvalid)).toBeTruthy();

    fireEvent.change(urlField(), { target: { value: 'https://bob:secret@hooks.example.com/' } });
    submit('Create webhook');
    expect(await within(dialog()).findByText(WEBHOOK_MESSAGES.urlCredentials)).toBeTruthy();
    expect(api.callsTo('CreateWebhook')).toHaveLength(0);
  });

  it('offers the events by module, with an "all" box per module, and only those the user may read in full', async () => {
    renderWebhooks(MANAGER, { GetWebhooks: ok([]) });
    fireEvent.click(await screen.findByRole('button', { name: 'New webhook' }));
    await screen.findByRole('dialog', { name: 'New webhook' });
    const employees = within(dialog()).getByRole('group', { name: 'Employees' });
    fireEvent.click(within(employees).getByRole('checkbox', { name: 'Employees: all' }));
    for (const verb of ['Created', 'Updated', 'Deleted', 'Restored']) {
      expect((within(employees).getByRole('checkbox', { name: verb }) as HTMLInputElement).checked).toBe(
        true,
      );
    }
    const other = within(dialog()).getByRole('group', { name: 'Other events' });
    expect(within(other).getByRole('checkbox', { name: 'Performance saved' })).toBeTruthy();
    expect(within(other).getByRole('checkbox', { name: 'Import committed' })).toBeTruthy();
    // No VIEW_AUDITS, no VIEW_GENDERS: neither is offered.
    expect(within(other).queryByRole('checkbox', { name: 'Repeated sign-in failures' })).toBeNull();
    expect(within(dialog()).queryByRole('group', { name: 'Genders' })).toBeNull();
    expect(
      within(dialog()).getByText(/Events of modules you may not view in full are not offered/),
    ).toBeTruthy();
  });

  it("shows the server's field errors under their fields, then the secret once", async () => {
    let tries = 0;
    const api = renderWebhooks(MANAGER, {
      GetWebhooks: ok([]),
      CreateWebhook: reply(() =>
        ++tries === 1
          ? {
              statusCode: 400,
              message: WEBHOOK_MESSAGES.urlPrivate,
              errors: [{ field: 'url', message: WEBHOOK_MESSAGES.urlPrivate }],
            }
          : ok({ ...hook(), secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ==' }, 'Webhook created'),
      ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New webhook' }));
    await screen.findByRole('dialog', { name: 'New webhook' });
    fireEvent.change(urlField(), { target: { value: 'https://10.0.0.5/hook' } });
    const employees = within(dialog()).getByRole('group', { name: 'Employees' });
    fireEvent.click(within(employees).getByRole('checkbox', { name: 'Created' }));
    fireEvent.click(within(dialog()).getByRole('switch', { name: 'Include personal details' }));
    submit('Create webhook');
    await waitFor(() => expect(urlField().getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog()).getAllByText(WEBHOOK_MESSAGES.urlPrivate).length).toBeGreaterThan(0);
    expect(api.lastCallTo('CreateWebhook')?.body).toEqual({
      url: 'https://10.0.0.5/hook',
      description: '',
      'events[0]': 'employee.created',
      includePersonalData: 'true',
    });

    fireEvent.change(urlField(), { target: { value: 'https://payroll.example.com/hooks/workforce' } });
    submit('Create webhook');
    const secret = await screen.findByRole('dialog', { name: 'Copy the signing secret' });
    expect(within(secret).getByText('This is the only time the secret is shown')).toBeTruthy();
    expect(
      (within(secret).getByRole('textbox', { name: 'Signing secret' }) as HTMLTextAreaElement).value,
    ).toBe('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ==');
    expect(within(secret).getByRole('button', { name: 'Copy secret' })).toBeTruthy();
  });

  it('leaves the personal details switch off to a user without VIEW_PERSONAL_DATA', async () => {
    renderWebhooks(['MANAGE_INTEGRATIONS', 'VIEW_EMPLOYEES'], { GetWebhooks: ok([]) });
    fireEvent.click(await screen.findByRole('button', { name: 'New webhook' }));
    await screen.findByRole('dialog', { name: 'New webhook' });
    const sw = within(dialog()).getByRole('switch', {
      name: 'Include personal details',
    }) as HTMLInputElement;
    expect(sw.disabled).toBe(true);
    expect(sw.checked).toBe(false);
  });

  it('tells of a change made meanwhile and reloads the webhook as it now stands', async () => {
    const theirs = hook({ url: 'https://payroll.example.com/v2', version: 2, events: ['employee.deleted'] });
    const api = renderWebhooks(MANAGER, {
      GetWebhooks: ok([hook()]),
      UpdateWebhook: { statusCode: 409, message: WEBHOOK_MESSAGES.stale, data: theirs },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the webhook to payroll.example.com' }));
    await screen.findByRole('dialog', { name: 'Edit webhook' });
    expect((within(dialog()).getByRole('switch', { name: 'Active' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(dialog()).getByRole('textbox', { name: 'Description (optional)' }), {
      target: { value: 'Mine' },
    });
    submit('Save changes');
    expect(await within(dialog()).findByText('Not saved: someone else changed this webhook')).toBeTruthy();
    expect(api.lastCallTo('UpdateWebhook')?.body).toMatchObject({
      webhookCode: 'WH-1',
      version: '1',
      active: 'true',
    });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect((urlField() as HTMLInputElement).value).toBe('https://payroll.example.com/v2'),
    );
    const employees = within(dialog()).getByRole('group', { name: 'Employees' });
    expect((within(employees).getByRole('checkbox', { name: 'Deleted' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(employees).getByRole('checkbox', { name: 'Created' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect(within(dialog()).queryByText('Not saved: someone else changed this webhook')).toBeNull();
  });
});
