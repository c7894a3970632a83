import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_MESSAGES, WEBHOOK_TEST_EVENT } from '@wfc/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { recordAudit } from '../../../src/audit/recorder.ts';
import { deriveKey } from '../../../src/auth/secret-box.ts';
import { webhookDeliveries, webhookEvents, webhooks } from '../../../src/db/schema/index.ts';
import { type JobQueue, startJobs } from '../../../src/jobs/queue.ts';
import { makeServices, watchChanges } from '../../../src/services.ts';
import { deliverDue } from '../../../src/webhooks/delivery.ts';
import { sharedTestApp } from '../../support/app.ts';
import { loginCookie } from '../../support/requests.ts';

/*
 * Webhooks end to end: a receiver on 127.0.0.1 (allowed explicitly, WEBHOOK_ALLOW_PRIVATE), the
 * job queue's delivery worker with short timings, and the calls of Integrations > Webhooks.
 */

const t = sharedTestApp({ WEBHOOK_ALLOW_PRIVATE: true });
const quiet = { info() {}, error() {} };
const TIMING = { retryBaseMs: 300, retryCapMs: 1000, leaseMs: 5000, timeoutMs: 2000 };

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    id: string;
    type: string;
    timestamp: string;
    actor: { userCode: string; username: string } | null;
    data: { module?: string; code?: string; record?: Record<string, unknown> } & Record<string, unknown>;
  };
}

/** The receiver: records every request, and answers as `mode` says. */
let mode: 'ok' | 'down' | 'redirect' = 'ok';
const received: Received[] = [];
let receiver: Server;
let base = '';

function startReceiver(port = 0): Promise<void> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (mode === 'down') {
        res.writeHead(503).end('down');
        return;
      }
      if (mode === 'redirect' && req.url !== '/moved') {
        res.writeHead(302, { location: `${base}/moved` }).end();
        return;
      }
      received.push({ path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => receiver.listen(port, '127.0.0.1', () => resolve()));
}

let jobs: JobQueue | undefined;
const startWorker = (services = t.services) =>
  startJobs(
    { db: services.db, config: services.config, metrics: services.metrics, log: quiet },
    { databaseUrl: t.handle.url, webhooks: { sweepMs: 100, pollSeconds: 0.5, timing: TIMING } },
  );

let admin: string;
beforeAll(async () => {
  admin = await t.login();
  await startReceiver();
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  jobs = await startWorker();
}, 60_000);
afterAll(async () => {
  await jobs?.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Waits until `check` holds (or fails with what it last saw). */
async function until<T>(what: string, read: () => T | Promise<T>, check: (v: T) => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  let last = await read();
  while (!check(last)) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await sleep(100);
    last = await read();
  }
  return last;
}

const ofHook = (path: string) => received.filter((r) => r.path === path);

async function createHook(body: Record<string, unknown>, cookie = admin) {
  const res = await t.postJson('CreateWebhook', body, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { webhookCode: string; secret: string; version: number; url: string };
}

async function gender(name: string) {
  const res = await t.post('CreateGender', { genderName: name }, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { genderCode: string; version: number };
}

const deliveryRows = (webhookCode: string) =>
  t.handle.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookCode, webhookCode))
    .orderBy(asc(webhookDeliveries.id));

describe('webhook subscriptions', () => {
  it('creates one with a whsec_ secret shown once and kept sealed, lists it, and audits it without the secret', async () => {
    const hook = await createHook({ url: `${base}/list`, events: ['gender.created'], description: 'BI' });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(32);
    const [row] = await t.handle.db.select().from(webhooks).where(eq(webhooks.webhookCode, hook.webhookCode));
    expect(row?.secret).toMatch(/^v1\./);
    expect(row?.secret).not.toContain(hook.secret.slice(6));

    const list = await t.get('GetWebhooks', admin);
    expect(list.statusCode).toBe(200);
    const listed = list.json().data.find((w: { webhookCode: string }) => w.webhookCode === hook.webhookCode);
    expect(listed).toMatchObject({
      url: `${base}/list`,
      events: ['gender.created'],
      description: 'BI',
      includePersonalData: false,
      active: true,
      version: 1,
      lastDelivery: null,
      createdBy: { username: 'admin' },
    });
    expect(listed.secret).toBeUndefined();
    expect(list.body).not.toContain(hook.secret);

    const audit = await t.handle.db.execute(
      sql`select action, after::text as after from audits where collection = 'webhooks' and record_code = ${hook.webhookCode}`,
    );
    const rows = (audit as unknown as { rows: { action: string; after: string }[] }).rows;
    expect(rows.map((r) => r.action)).toEqual(['CREATE']);
    expect(rows[0]?.after).not.toContain(hook.secret.slice(6));
    expect(await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin)).toMatchObject({
      statusCode: 200,
    });
  });

  it('refuses no session (401), no MANAGE_INTEGRATIONS (403), personal details without VIEW_PERSONAL_DATA (403), a bad URL or event (400) and a stale version (409)', async () => {
    const body = { url: `${base}/x`, events: ['gender.created'] };
    expect((await t.postJson('CreateWebhook', body)).statusCode).toBe(401);
    expect((await t.get('GetWebhooks')).statusCode).toBe(401);

    const viewer = await t.userWith(['VIEW_GENDERS']);
    const refused = await t.postJson('CreateWebhook', body, viewer.cookie);
    expect(refused.statusCode).toBe(403);
    expect((await t.get('GetWebhooks', viewer.cookie)).statusCode).toBe(403);

    const integrator = await t.userWith(['MANAGE_INTEGRATIONS', 'VIEW_GENDERS']);
    const personal = await t.postJson(
      'CreateWebhook',
      { ...body, includePersonalData: true },
      integrator.cookie,
    );
    expect(personal.statusCode).toBe(403);
    expect(personal.json().message).toBe(WEBHOOK_MESSAGES.personalData);
    // Events of a module the caller may not view are refused too.
    const hidden = await t.postJson(
      'CreateWebhook',
      { ...body, events: ['user.created'] },
      integrator.cookie,
    );
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().message).toBe(WEBHOOK_MESSAGES.moduleHidden);
    expect((await t.postJson('CreateWebhook', body, integrator.cookie)).statusCode).toBe(200);

    const badUrl = await t.postJson('CreateWebhook', { ...body, url: 'ftp://example.com/' }, admin);
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().errors).toEqual([{ field: 'url', message: WEBHOOK_MESSAGES.urlInvalid }]);
    const creds = await t.postJson('CreateWebhook', { ...body, url: 'https://u:p@example.com/' }, admin);
    expect(creds.json().errors).toEqual([{ field: 'url', message: WEBHOOK_MESSAGES.urlCredentials }]);
    const unknown = await t.postJson('CreateWebhook', { ...body, events: ['gender.exploded'] }, admin);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ message: WEBHOOK_MESSAGES.eventUnknown });
    const none = await t.postJson('CreateWebhook', { ...body, events: [] }, admin);
    expect(none.statusCode).toBe(400);

    const hook = await createHook(body);
    const update = { ...body, webhookCode: hook.webhookCode, description: 'first', version: 1 };
    const first = await t.postJson('UpdateWebhook', update, admin);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ description: 'first', version: 2 });
    const stale = await t.postJson('UpdateWebhook', { ...update, description: 'second' }, admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: WEBHOOK_MESSAGES.stale,
      data: { webhookCode: hook.webhookCode, description: 'first', version: 2 },
    });
    const staleDelete = await t.postJson(
      'DeleteWebhook',
      { webhookCode: hook.webhookCode, version: 1 },
      admin,
    );
    expect(staleDelete.statusCode).toBe(409);
    const missing = await t.postJson('UpdateWebhook', { ...update, webhookCode: 'WEBHOOK-NOPE' }, admin);
    expect(missing.statusCode).toBe(404);
    expect(
      (await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode, version: 2 }, admin)).statusCode,
    ).toBe(200);
    expect(await deliveryRows(hook.webhookCode)).toEqual([]);
  });

  it('lets an API token read, test and delete subscriptions, but not create or change one', async () => {
    const role = await t.userWith(['MANAGE_INTEGRATIONS', 'VIEW_GENDERS'], { signIn: 'none' });
    const made = await t.postJson(
      'CreateApiToken',
      { name: 'Webhook admin', roleCode: role.roleCode, noExpiry: true },
      admin,
    );
    expect(made.statusCode, made.body).toBe(200);
    const bearer = { authorization: `Bearer ${made.json().data.token}` };
    const call = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
      t.app.inject({ method, url: `/api/${path}`, payload: payload as object, headers: bearer });
    const body = { url: `${base}/token`, events: ['gender.created'] };
    expect((await call('POST', 'CreateWebhook', body)).statusCode).toBe(403);
    const hook = await createHook(body);
    expect((await call('GET', 'GetWebhooks')).statusCode).toBe(200);
    const update = { ...body, webhookCode: hook.webhookCode };
    expect((await call('POST', 'UpdateWebhook', update)).statusCode).toBe(403);
    expect((await call('POST', 'TestWebhook', { webhookCode: hook.webhookCode })).statusCode).toBe(200);
    await until(
      'the test event',
      () => ofHook('/token').length,
      (n) => n === 1,
    );
    expect((await call('POST', 'DeleteWebhook', { webhookCode: hook.webhookCode })).statusCode).toBe(200);
  });

  it('refuses private addresses by default: 400 at create, and no request at send time', async () => {
    const config = t.services.config as { WEBHOOK_ALLOW_PRIVATE: boolean };
    const hook = await createHook({ url: `${base}/private`, events: ['gender.created'] });
    config.WEBHOOK_ALLOW_PRIVATE = false;
    try {
      for (const url of [
        `${base}/x`,
        'http://localhost:9/x',
        'http://10.0.0.8/x',
        'http://[::1]/x',
        'http://[::ffff:169.254.169.254]/x',
        'http://100.64.1.1/x',
      ]) {
        const res = await t.postJson('CreateWebhook', { url, events: ['gender.created'] }, admin);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().errors).toEqual([{ field: 'url', message: WEBHOOK_MESSAGES.urlPrivate }]);
      }
      // Subscribed while allowed, sent once it is not: the send refuses the address itself.
      await gender('Private guard');
      const [delivery] = await until(
        'a refused attempt',
        () => deliveryRows(hook.webhookCode),
        (rows) => (rows[0]?.attempts ?? 0) >= 1 && rows[0]?.lastError !== null,
      );
      expect(delivery?.lastError).toMatch(/not a public address/);
      expect(delivery?.lastStatusCode).toBeNull();
      expect(ofHook('/private')).toEqual([]);
    } finally {
      config.WEBHOOK_ALLOW_PRIVATE = true;
    }
    await until(
      'the delivery once allowed',
      () => ofHook('/private').length,
      (n) => n === 1,
    );
    await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin);
  });
});

describe('webhook delivery', () => {
  it('sends each event once, signed so that a Standard Webhooks verifier accepts it', async () => {
    const hook = await createHook({
      url: `${base}/signed`,
      events: ['gender.created', 'gender.updated', 'gender.deleted', 'gender.restored'],
    });
    const g = await gender('Signed');
    expect(
      (await t.post('UpdateGender', { genderCode: g.genderCode, genderName: 'Signed twice' }, admin))
        .statusCode,
    ).toBe(200);
    expect((await t.post('DeleteGender', { genderCode: g.genderCode }, admin)).statusCode).toBe(200);
    await until(
      'three events',
      () => ofHook('/signed').length,
      (n) => n >= 3,
    );
    await sleep(1500);
    const got = ofHook('/signed');
    expect(got.map((r) => r.json.type)).toEqual(['gender.created', 'gender.updated', 'gender.deleted']);
    expect(new Set(got.map((r) => r.json.id)).size).toBe(3);
    const verifier = new Webhook(hook.secret);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(r.json.id);
      expect(r.headers['webhook-signature']).toMatch(/^v1,/);
      expect(verifier.verify(r.body, r.headers as Record<string, string>)).toEqual(r.json);
      expect(r.json.actor).toMatchObject({ username: 'admin' });
      expect(r.json.data).toMatchObject({ module: 'gender', code: g.genderCode });
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        got[0]?.body ?? '',
        got[0]?.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(got[0]?.json.data.record).toMatchObject({ genderCode: g.genderCode, genderName: 'Signed' });
    expect(got[1]?.json.data.record).toMatchObject({ genderName: 'Signed twice' });
    // A deletion tells the code only.
    expect(got[2]?.json.data.record).toBeUndefined();

    const rows = await deliveryRows(hook.webhookCode);
    expect(rows.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
      ['succeeded', 1, 204],
      ['succeeded', 1, 204],
      ['succeeded', 1, 204],
    ]);

    // The delivery log answers the same.
    const log = await t.postJson(
      'GetWebhookDeliveries',
      { webhookCode: hook.webhookCode, pageSize: 2 },
      admin,
    );
    expect(log.statusCode).toBe(200);
    const page = log.json().data;
    expect(page).toMatchObject({ total: 3, pageNumber: 1, pageSize: 2 });
    expect(page.deliveries).toHaveLength(2);
    expect(page.deliveries[0]).toMatchObject({
      eventType: 'gender.deleted',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    const listed = (await t.get('GetWebhooks', admin))
      .json()
      .data.find((w: { webhookCode: string }) => w.webhookCode === hook.webhookCode);
    expect(listed.lastDelivery).toMatchObject({ status: 'succeeded', statusCode: 204 });

    // Send again: a new delivery of the same event, with the same webhook-id.
    const redo = await t.postJson(
      'RedeliverWebhook',
      { deliveryCode: page.deliveries[0].deliveryCode },
      admin,
    );
    expect(redo.statusCode).toBe(200);
    expect(redo.json().data).toMatchObject({ status: 'pending', attempts: 0, eventType: 'gender.deleted' });
    await until(
      'the redelivery',
      () => ofHook('/signed').length,
      (n) => n === 4,
    );
    expect(ofHook('/signed')[3]?.json.id).toBe(got[2]?.json.id);
    expect(
      (await t.postJson('RedeliverWebhook', { deliveryCode: 'WHDELIVERY-NONE' }, admin)).statusCode,
    ).toBe(404);

    // A test event, to this subscription only.
    const test = await t.postJson('TestWebhook', { webhookCode: hook.webhookCode }, admin);
    expect(test.statusCode).toBe(200);
    expect(test.json().data).toMatchObject({ eventType: WEBHOOK_TEST_EVENT, status: 'pending' });
    await until(
      'the test event',
      () => ofHook('/signed').length,
      (n) => n === 5,
    );
    const testEvent = ofHook('/signed')[4];
    expect(testEvent?.json).toMatchObject({
      type: WEBHOOK_TEST_EVENT,
      data: { webhookCode: hook.webhookCode },
    });
    expect(verifier.verify(testEvent?.body ?? '', testEvent?.headers as Record<string, string>)).toBeTruthy();
    await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin);
  });

  it('sends nothing for a rolled-back write', async () => {
    const hook = await createHook({ url: `${base}/rollback`, events: ['gender.deleted', 'gender.created'] });
    const first = await gender('Rollback one');
    const second = await gender('Rollback two');
    await until(
      'the two creations',
      () => ofHook('/rollback').length,
      (n) => n === 2,
    );
    await t.post('UpdateGender', { genderCode: second.genderCode, genderName: 'Rollback changed' }, admin);
    // The first is deleted (and its event queued) before the second's stale version refuses it all.
    const res = await t.postJson(
      'DeleteGenders',
      { codes: [first.genderCode, second.genderCode], versions: [first.version, second.version] },
      admin,
    );
    expect(res.statusCode).toBe(409);
    // A transaction that audits a change and then fails leaves no event either.
    await t.handle.db
      .transaction(async (tx) => {
        await recordAudit(tx, {
          action: 'CREATE',
          collection: 'genders',
          recordCode: 'GENDER-ROLLEDBACK',
          after: { genderCode: 'GENDER-ROLLEDBACK' },
          actor: null,
        });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await sleep(1500);
    expect(ofHook('/rollback').map((r) => r.json.type)).toEqual(['gender.created', 'gender.created']);
    const events = await t.handle.db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.recordCode} in (${first.genderCode}, 'GENDER-ROLLEDBACK')`);
    expect(events.map((e) => e.type)).toEqual(['gender.created']);
    expect(await deliveryRows(hook.webhookCode)).toHaveLength(2);
    await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin);
  });

  it('leaves out personal details unless the subscription includes them', async () => {
    const plain = await createHook({ url: `${base}/plain`, events: ['user.created'] });
    const full = await createHook({
      url: `${base}/full`,
      events: ['user.created'],
      includePersonalData: true,
    });
    const role = await t.userWith([], { signIn: 'none' });
    const res = await t.postJson(
      'register',
      {
        username: 'webhook-person',
        email: 'webhook-person@example.com',
        password: 'Webhook-Person-Pass-42',
        roleCode: role.roleCode,
      },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    await until(
      'both deliveries',
      () => ofHook('/plain').length + ofHook('/full').length,
      (n) => n === 2,
    );
    const withoutDetails = ofHook('/plain')[0]?.json.data.record;
    const withDetails = ofHook('/full')[0]?.json.data.record;
    expect(withoutDetails).toMatchObject({ username: 'webhook-person' });
    expect(withoutDetails).not.toHaveProperty('email');
    expect(withDetails).toMatchObject({ username: 'webhook-person', email: 'webhook-person@example.com' });
    for (const r of [...ofHook('/plain'), ...ofHook('/full')]) {
      expect(r.body).not.toMatch(/passwordHash|\$argon2/);
    }
    await t.postJson('DeleteWebhook', { webhookCode: plain.webhookCode }, admin);
    await t.postJson('DeleteWebhook', { webhookCode: full.webhookCode }, admin);
  });

  it('counts a redirect as a failure and never follows it', async () => {
    const hook = await createHook({ url: `${base}/redirected`, events: ['gender.created'] });
    mode = 'redirect';
    try {
      await gender('Redirected');
      const [row] = await until(
        'a redirected attempt',
        () => deliveryRows(hook.webhookCode),
        (rows) => rows[0]?.lastStatusCode === 302,
      );
      expect(row).toMatchObject({ status: 'pending', lastStatusCode: 302 });
      expect(row?.lastError).toMatch(/Redirect \(302\) not followed/);
      expect(ofHook('/moved')).toEqual([]);
      expect(ofHook('/redirected')).toEqual([]);
    } finally {
      mode = 'ok';
    }
    await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin);
  });

  it('marks a delivery failed once out of retries', async () => {
    const hook = await createHook({ url: `${base}/gone`, events: ['gender.created'] });
    mode = 'down';
    try {
      await gender('Out of time');
      const [row] = await until(
        'an attempt',
        () => deliveryRows(hook.webhookCode),
        (rows) => rows[0]?.lastStatusCode === 503,
      );
      expect(row?.status).toBe('pending');
      // Another instance whose retries end at once: the next failure is the last.
      await t.handle.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date() })
        .where(eq(webhookDeliveries.webhookCode, hook.webhookCode));
      await jobs?.stop();
      jobs = undefined;
      await deliverDue(t.handle.db, {
        key: deriveKey(t.services.config.SECRET_KEY ?? ''),
        allowPrivate: true,
        timing: { ...TIMING, retryWindowMs: 0 },
      });
      const [failed] = await deliveryRows(hook.webhookCode);
      expect(failed).toMatchObject({ status: 'failed', lastStatusCode: 503 });
      expect(failed?.completedAt).not.toBeNull();
    } finally {
      mode = 'ok';
      jobs ??= await startWorker();
    }
    await sleep(1000);
    expect(ofHook('/gone')).toEqual([]);
    await t.postJson('DeleteWebhook', { webhookCode: hook.webhookCode }, admin);
  });

  it('tells of a sign-in name locked out by failed attempts, with the name only', async () => {
    await createHook({ url: `${base}/locked`, events: ['user.signed_in_failed_repeatedly'] });
    for (let i = 0; i < t.services.config.LOGIN_MAX_FAILURES_PER_USER; i++) {
      const res = await t.postJson('login', { username: 'Locked-Out-Name', password: 'wrong-password-1' });
      expect(res.statusCode).toBe(401);
    }
    await until(
      'the lock event',
      () => ofHook('/locked').length,
      (n) => n >= 1,
    );
    await sleep(500);
    expect(ofHook('/locked').map((r) => r.json)).toEqual([
      expect.objectContaining({
        type: 'user.signed_in_failed_repeatedly',
        actor: null,
        data: { username: 'locked-out-name' },
      }),
    ]);
  });

  it('sends everything queued while the receiver was down once it is back, in order per record, across a restart', async () => {
    const hook = await createHook({ url: `${base}/later`, events: ['gender.created', 'gender.updated'] });
    const port = (receiver.address() as AddressInfo).port;
    mode = 'down';
    const a = await gender('Later A0');
    const b = await gender('Later B0');
    for (let i = 1; i <= 3; i++) {
      await t.post('UpdateGender', { genderCode: a.genderCode, genderName: `Later A${i}` }, admin);
      await t.post('UpdateGender', { genderCode: b.genderCode, genderName: `Later B${i}` }, admin);
    }
    await until(
      'failed attempts',
      () => deliveryRows(hook.webhookCode),
      (rows) => rows.filter((r) => r.attempts >= 2).length >= 2,
    );
    // Then nobody listens at all.
    await new Promise((resolve) => receiver.close(resolve));
    receiver.closeAllConnections();
    await sleep(800);
    // The worker's instance stops; another one starts on the same database.
    await jobs?.stop();
    jobs = undefined;
    const watch = await watchChanges(t.handle);
    const services = makeServices(t.handle.db, t.services.config, watch);
    const restarted: FastifyInstance = await buildApp(services);
    await restarted.ready();
    try {
      const rows = await deliveryRows(hook.webhookCode);
      expect(rows).toHaveLength(8);
      expect(rows.every((r) => r.status === 'pending')).toBe(true);
      expect(ofHook('/later')).toEqual([]);
      mode = 'ok';
      await startReceiver(port);
      jobs = await startWorker(services);
      await until(
        'every queued event',
        () => ofHook('/later').length,
        (n) => n >= 8,
        30_000,
      );
      await sleep(1000);
      const got = ofHook('/later');
      expect(got).toHaveLength(8);
      const names = (code: string) =>
        got.filter((r) => r.json.data.code === code).map((r) => r.json.data.record?.genderName);
      expect(names(a.genderCode)).toEqual(['Later A0', 'Later A1', 'Later A2', 'Later A3']);
      expect(names(b.genderCode)).toEqual(['Later B0', 'Later B1', 'Later B2', 'Later B3']);
      const done = await deliveryRows(hook.webhookCode);
      expect(done.every((r) => r.status === 'succeeded' && r.lastStatusCode === 204)).toBe(true);
      expect(Math.min(...done.map((r) => r.attempts))).toBeGreaterThanOrEqual(1);
      // The restarted instance answers the log.
      const cookie = await loginCookie(restarted, 'admin', 'admin-password-1');
      const log = await restarted.inject({
        method: 'POST',
        url: '/api/GetWebhookDeliveries',
        payload: { webhookCode: hook.webhookCode },
        headers: { cookie },
      });
      expect(log.json().data.total).toBe(8);
    } finally {
      await restarted.close();
      await watch.stop();
    }
  }, 90_000);
});
