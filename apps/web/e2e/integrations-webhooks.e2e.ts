import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/*
 * Integrations > Webhooks in a browser, against the real server and its delivery worker: a webhook
 * to a receiver this file starts on 127.0.0.1 (allowed explicitly), its secret shown once, a test
 * event delivered and seen in the delivery log, sent again, the webhook edited, then deleted.
 */

const e2e = sharedE2E({ WEBHOOK_ALLOW_PRIVATE: true });
const SHOTS = '/tmp/shots';
const pages: Page[] = [];

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  json: { id: string; type: string };
}

const received: Received[] = [];
let receiver: Server;
let base = '';
let host = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        json: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      if (req.url === '/hooks/failing') res.writeHead(500).end('The receiver is down for maintenance');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  base = `http://${host}`;
  await e2e.startJobs({
    webhooks: { sweepMs: 200, pollSeconds: 0.5, timing: { retryBaseMs: 500, retryCapMs: 2000 } },
  });
});

afterAll(async () => {
  for (const p of pages) await p.context().close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function newPage(opts: Parameters<typeof e2e.newPage>[0] = {}) {
  const page = await e2e.newPage(opts);
  pages.push(page);
  return page;
}

const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text }).last();

/** Waits for the toast, then closes every toast. */
async function seeToast(page: Page, text: string) {
  await toast(page, text).waitFor();
  await dismissToasts(page);
}

/**
 * Closes the toasts: a headless page has no focus, so they wait (paused) over the top right corner,
 * where they cover the first row's buttons and the screenshots.
 */
async function dismissToasts(page: Page) {
  await page.locator('.Toastify__toast .Toastify__close-button').evaluateAll((buttons) => {
    for (const b of buttons) (b as HTMLButtonElement).click();
  });
  await expect.poll(() => page.locator('.Toastify__toast').count(), { timeout: 10_000 }).toBe(0);
}

/** Full-page screenshots at 1280 × 800 and 390 × 844 into /tmp/shots, for looking at. */
async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await dismissToasts(page);
  const original = page.viewportSize();
  for (const [label, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/webhooks-${name}-${label}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

describe('Webhooks', () => {
  it('creates a webhook, shows its secret once, delivers a test event, sends it again, edits and deletes it', async () => {
    const manager = await e2e.userWith(['MANAGE_INTEGRATIONS', 'VIEW_EMPLOYEES', 'VIEW_PERSONAL_DATA']);
    const page = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const console = watchConsole(page);
    await e2e.login(page, manager.username, manager.password);

    await page
      .getByRole('navigation', { name: /modules/i })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.waitForURL((u) => u.pathname === '/integrations/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    expect(await page.title()).toMatch(/^Webhooks \|/);
    await shoot(page, 'empty');

    // Create: the URL and one module's events, with personal details.
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText('URL is required').waitFor();
    await dialog.getByText('Choose at least one event').waitFor();
    await dialog.getByRole('textbox', { name: 'URL' }).fill(`${base}/hooks/payroll`);
    await dialog.getByRole('textbox', { name: 'Description (optional)' }).fill('Payroll sync');
    await dialog
      .getByRole('group', { name: 'Employees' })
      .getByRole('checkbox', { name: 'Employees: all' })
      .check();
    await dialog.getByRole('switch', { name: 'Include personal details' }).check();
    await shoot(page, 'create');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Copy the signing secret' });
    await secretDialog.getByText('This is the only time the secret is shown').waitFor();
    const secret = await secretDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await shoot(page, 'secret');
    await secretDialog.getByRole('button', { name: 'Copy secret' }).click();
    await seeToast(page, 'Signing secret copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.content()).not.toContain(secret);

    const row = page.getByRole('row', { name: /hooks\/payroll/ });
    await row.getByText('Active').waitFor();
    await row.getByText('4 events').waitFor();
    await row.getByText('None yet').waitFor();
    await row.getByText('With personal details').waitFor();

    // A test event, delivered to the receiver and shown in the delivery log.
    await dismissToasts(page);
    await row.getByRole('button', { name: `Send test event to ${host}` }).click();
    await seeToast(page, 'Test event queued');
    await expect
      .poll(() => received.filter((r) => r.json.type === 'webhook.test').length, { timeout: 20_000 })
      .toBe(1);
    const test = received.find((r) => r.json.type === 'webhook.test');
    expect(test?.path).toBe('/hooks/payroll');
    expect(test?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(test?.headers['webhook-id']).toBe(test?.json.id);

    await row.getByRole('link', { name: `Deliveries of ${host}` }).click();
    await page.waitForURL((u) => /^\/integrations\/webhooks\/[^/]+\/deliveries$/.test(u.pathname));
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    const first = deliveries.getByRole('row', { name: /webhook\.test/ }).first();
    // Read again every few seconds while a delivery is pending; Refresh reads it now.
    await expect
      .poll(
        async () => {
          if ((await first.getByText('Delivered').count()) === 0) {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.waitForTimeout(300);
          }
          return first.getByText('Delivered').count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await first.getByText('HTTP 204').waitFor();
    await shoot(page, 'deliveries');

    await dismissToasts(page);
    await first.getByRole('button', { name: /^Send again: webhook\.test of / }).click();
    await seeToast(page, 'The event will be sent again');
    await expect
      .poll(() => received.filter((r) => r.json.type === 'webhook.test').length, { timeout: 20_000 })
      .toBe(2);
    // The same event again, under the same id: a receiver can tell it has it already.
    const [once, again] = received.filter((r) => r.json.type === 'webhook.test');
    expect(again?.json.id).toBe(once?.json.id);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.waitForTimeout(300);
          return deliveries.getByRole('row', { name: /webhook\.test.*Delivered/ }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(2);
    await page.getByText('1 - 2 of 2').waitFor();

    // Edit: paused, one event fewer, a new description.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.waitForURL((u) => u.pathname === '/integrations/webhooks');
    await row.getByText('Delivered').waitFor();
    await shoot(page, 'list');
    await row.getByRole('button', { name: `Edit the webhook to ${host}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    await edit
      .getByRole('textbox', { name: 'Description (optional)' })
      .fill('Payroll sync, paused for the audit');
    await edit.getByRole('group', { name: 'Employees' }).getByRole('checkbox', { name: 'Deleted' }).uncheck();
    await edit.getByRole('switch', { name: 'Active' }).uncheck();
    await shoot(page, 'edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await seeToast(page, 'Webhook updated');
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Paused', { exact: true }).waitFor();
    await row.getByText('Payroll sync, paused for the audit').waitFor();
    // Three events read as themselves.
    for (const verb of ['created', 'updated', 'restored']) await row.getByText(`employee.${verb}`).waitFor();
    expect(await row.getByText('employee.deleted').count()).toBe(0);

    for (const scheme of ['dark'] as const) {
      // The accessibility check stops every animation on its page, a toast's exit too: it runs here.
      const dark = await newPage({ colorScheme: scheme, bypassCSP: true });
      await e2e.login(dark, manager.username, manager.password);
      await dark.goto('/integrations/webhooks');
      await dark.getByRole('row', { name: /hooks\/payroll/ }).waitFor();
      await shoot(dark, `list-${scheme}`);
      expect(await e2e.checkA11y(dark).then(describeViolations)).toBe('');
      await dark
        .getByRole('row', { name: /hooks\/payroll/ })
        .getByRole('link', { name: `Deliveries of ${host}` })
        .click();
      await dark.getByRole('table', { name: 'Deliveries' }).waitFor();
      await shoot(dark, `deliveries-${scheme}`);
      expect(await e2e.checkA11y(dark).then(describeViolations)).toBe('');
      await dark.goBack();
      await dark.getByRole('button', { name: `Edit the webhook to ${host}` }).click();
      await dark.getByRole('dialog', { name: 'Edit webhook' }).waitFor();
      await shoot(dark, `edit-${scheme}`);
      expect(await e2e.checkA11y(dark).then(describeViolations)).toBe('');
    }

    // A receiver that fails: its empty log, then a test event tried again and again.
    await page.getByRole('button', { name: 'New webhook' }).click();
    const second = page.getByRole('dialog', { name: 'New webhook' });
    await second.getByRole('textbox', { name: 'URL' }).fill(`${base}/hooks/failing`);
    await second.getByRole('checkbox', { name: 'Import committed' }).check();
    await second.getByRole('button', { name: 'Create webhook' }).click();
    await page
      .getByRole('dialog', { name: 'Copy the signing secret' })
      .getByRole('button', { name: 'Done' })
      .click();
    const failing = page.getByRole('row', { name: /hooks\/failing/ });
    await failing.getByText('import.committed').waitFor();
    await failing.getByRole('link', { name: `Deliveries of ${host}` }).click();
    await page.getByText('No deliveries yet').waitFor();
    await shoot(page, 'deliveries-empty');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await seeToast(page, 'Test event queued');
    const retrying = page
      .getByRole('table', { name: 'Deliveries' })
      .getByRole('row', { name: /webhook\.test/ });
    await expect
      .poll(
        async () => {
          if ((await retrying.getByText('HTTP 500').count()) === 0) {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await page.waitForTimeout(300);
          }
          return retrying.getByText('HTTP 500').count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await retrying.getByText('Retrying').waitFor();
    expect(await retrying.getByRole('button', { name: /^Send again/ }).isDisabled()).toBe(true);
    await shoot(page, 'deliveries-failing');
    await page.goBack();
    await dismissToasts(page);
    await failing.getByText('Retrying').waitFor();
    await failing.getByRole('button', { name: `Delete the webhook to ${host}` }).click();
    await page
      .getByRole('dialog', { name: `Delete the webhook to ${host}?` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await seeToast(page, 'Webhook deleted');
    await failing.waitFor({ state: 'detached' });

    await dismissToasts(page);
    await row.getByRole('button', { name: `Delete the webhook to ${host}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete the webhook to ${host}?` });
    await shoot(page, 'delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await seeToast(page, 'Webhook deleted');
    await page.getByText('No webhooks yet').waitFor();
    expect(console.errors.filter((e) => !/401|403/.test(e))).toEqual([]);
  });

  it('is not offered to a user without MANAGE_INTEGRATIONS', async () => {
    const viewer = await e2e.userWith(['VIEW_GENDERS']);
    const page = await newPage();
    await e2e.login(page, viewer.username, viewer.password);
    await page.getByRole('link', { name: 'Genders' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await page.goto('/integrations/webhooks');
    await page.waitForURL((u) => u.pathname === '/access-denied');
  });
});
