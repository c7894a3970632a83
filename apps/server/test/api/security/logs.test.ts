import { createHash } from 'node:crypto';
import { BIN_RESOURCES, binModuleOf, localIsoDate, RESOURCES } from '@wfc/contract';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ZodType, z } from 'zod';
import { allRoutes } from '../../../src/app.ts';
import type { ApiRoute } from '../../../src/http/routes.ts';
import { seedDemo } from '../../../src/seed/demo.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../../support/app.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startProvider,
  type TestProvider,
  throughProvider,
} from '../../support/oidc.ts';
import { formEncode } from '../../support/requests.ts';
import { codeAt, cookieOf, enrol, passwordStep } from '../account/support.ts';
import { type FilePart, multipart, pngImage } from '../registry/support.ts';

/*
 * Logs never carry secrets or personal data, even when a write fails and its error is logged.
 * Every table of this test's own database refuses writes (a trigger that raises as a failed check
 * constraint does, with the row in its detail); then every route of the route table is called,
 * with planted values where a client sends them: a password, an email, a token, TOTP codes,
 * session and pending-step cookies, an OpenID authorization code, a user agent and a client
 * address. Every write must reach the refusal, and the whole log stream of the app must hold none
 * of the planted values, no session hash and no argon2 hash.
 */

const PLANTED = {
  password: 'Planted-Passw0rd-9c4e',
  email: 'planted.person.9c4e@example.org',
  token: 'tok_9c4e1d2b7a6f58e3c0b4a2d19f7e6c5b',
  userAgent: 'PlantedAgent/9c4e (a browser of its own)',
  address: '198.51.100.23',
};
/** What a refused write raises: check_violation, as a failed CHECK or NOT NULL does. */
const REFUSED = '23514';
/** The refusal's name, in its message: how a log line shows that its request reached it. */
const REFUSAL = 'wfc_planted_refusal';
const REDIRECT_URI = 'http://console.test/api/oidc/callback';

const lines: string[] = [];
let t: TestApp;
let provider: TestProvider;
/** Values learnt while setting up (cookies, codes, secrets) that must not reach the log either. */
const secrets = new Map<string, string>();
let admin: string;
/** Another session of the administrator, which EndMySession ends. */
let otherAdminSession: string;
let mfaUser: { userCode: string; secret: string; challenge: string };
let enrolling: { cookie: string; secret: string };
let sso: { search: string; pending: string };
/** A token made while writes worked, to revoke; its secret must reach no log line. */
let apiTokenCode: string;
let webhook: { webhookCode: string; deliveryCode: string };
/** An import checked while writes worked, ready to be checked again, committed or cancelled. */
let importCode: string;

/** A gender file whose one row holds a planted value: it must reach no log line either. */
const plantedFile = (): FilePart => ({
  name: 'genders.csv',
  type: 'text/csv',
  field: 'file',
  data: Buffer.from(`Gender Name\n${PLANTED.token}\n`),
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

function rememberCookie(name: string, cookie: string) {
  secrets.set(`${name} cookie`, cookieValue(cookie));
  secrets.set(`${name} cookie's hash`, sha256(cookieValue(cookie)));
}

/** Every table of the database refuses to be written, as a constraint would, naming the row. */
async function refuseEveryWrite() {
  await t.handle.db.execute(
    sql.raw(`create function wfc_test_refuse_write() returns trigger language plpgsql as $$
      begin
        raise exception 'new row for relation "%" violates check constraint "${REFUSAL}"', tg_table_name
          using errcode = '${REFUSED}',
                detail = 'Failing row contains ' || row_to_json(case when tg_op = 'DELETE' then old else new end)::text;
      end $$`),
  );
  const { rows } = (await t.handle.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] };
  for (const { tablename } of rows) {
    await t.handle.db.execute(
      sql.raw(`create trigger wfc_test_refuse_write before insert or update or delete on public."${tablename}"
        for each row execute function wfc_test_refuse_write()`),
    );
  }
  await t.settle();
}

type Json = Record<string, unknown>;
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body's fields by name, through `allOf` (an update's fields and its version). */
const propertiesOf = (schema: JsonSchema): Record<string, JsonSchema> =>
  Object.assign({}, schema.properties, ...(schema.allOf ?? []).map(propertiesOf));

const acceptsString = (schema: JsonSchema): boolean =>
  schema.type === 'string' ||
  (Array.isArray(schema.type) && schema.type.includes('string')) ||
  (schema.anyOf ?? []).some(acceptsString);

/** The record's own value for a body field: the field itself, or a reference's code (`department.departmentCode`). */
function valueIn(record: Json, key: string): unknown {
  if (key in record) return record[key];
  return Object.values(record).find((v): v is Json => isObject(v) && key in v)?.[key];
}

const codeOf = (v: unknown) => (isObject(v) ? Object.entries(v).find(([k]) => k.endsWith('Code'))?.[1] : v);

/** A body for `schema` holding what `record` holds, as the web form sends it back. */
function fromRecord(schema: JsonSchema, record: Json): Json {
  const body: Json = {};
  for (const [key, field] of Object.entries(propertiesOf(schema))) {
    const value = valueIn(record, key);
    if (value === undefined || value === null) continue;
    if (isObject(value) && field.properties) body[key] = fromRecord(field, value);
    else body[key] = Array.isArray(value) ? value.map(codeOf) : value;
  }
  return body;
}

/**
 * While writes still work (the set-up), registry records get values of their own, since names
 * must be unique; every other body keeps the planted values in both passes, so that what the
 * set-up linked or made is what the refused call names.
 */
let preparing = false;
let prepared = 0;
function plantedFor(key: string, stamp = 0): string {
  if (/password/i.test(key)) return PLANTED.password;
  if (/email/i.test(key)) return stamp ? `prepared.${stamp}@example.org` : PLANTED.email;
  return stamp ? `prepared_${stamp}_${key}` : PLANTED.token;
}

const valueAt = (obj: unknown, keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), obj);

/** Every text field the schema still accepts it in gets a planted value; codes and lists stay as they are. */
function plant(schema: ZodType, json: JsonSchema, body: Json, stamp: number, path: string[] = []): Json {
  let out = body;
  const at = (obj: Json, keys: string[], value: unknown): Json => {
    const [head = '', ...rest] = keys;
    return { ...obj, [head]: rest.length ? at(isObject(obj[head]) ? obj[head] : {}, rest, value) : value };
  };
  for (const [key, field] of Object.entries(propertiesOf(json))) {
    // A list of codes may also be sent as one comma-separated string: it is a list all the same.
    if (/Codes?$/.test(key) || key === 'version' || Array.isArray(valueAt(out, [...path, key]))) continue;
    if (field.properties) out = plant(schema, field, out, stamp, [...path, key]);
    else if (acceptsString(field)) {
      const candidate = at(out, [...path, key], plantedFor(key, stamp));
      if (schema.safeParse(candidate).success) out = candidate;
    }
  }
  return out;
}

async function records(endpoint: string): Promise<Json[]> {
  const res = await t.get(endpoint, admin, { page: 1, limit: 20 });
  return (res.json().data ?? []) as Json[];
}

/** A generated body for a registry write: a listed record's own values, planted where accepted. */
async function registryBody(route: ApiRoute, base: Json): Promise<Json> {
  const schema = route.body as ZodType;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  // Again until nothing changes: a field may be accepted only once another is there (a new user's
  // password, which no record holds).
  let body = fromRecord(json, base);
  const stamp = preparing ? ++prepared : 0;
  for (let before = ''; before !== JSON.stringify(body); ) {
    before = JSON.stringify(body);
    body = plant(schema, json, body, stamp);
  }
  return {
    ...body,
    ...(route.multipart && 'isProfilePictureChanged' in propertiesOf(json)
      ? { isProfilePictureChanged: 'false' }
      : {}),
  };
}

let sequence = 0;
interface Call {
  route: ApiRoute;
  requestId: string;
  res: LightMyRequestResponse;
}
const calls: Call[] = [];

/** A request as a browser at the planted address sends it, with its own request id. */
async function send(
  route: ApiRoute,
  request: {
    body?: Json;
    cookie?: string;
    query?: string;
    json?: boolean;
    files?: boolean;
    upload?: FilePart;
  },
) {
  const requestId = `plant-${++sequence}`;
  const url = `/api/${route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'variant' ? 'thumbnail' : 'X'))}${request.query ?? ''}`;
  const headers: Record<string, string> = {
    'user-agent': PLANTED.userAgent,
    'x-request-id': requestId,
    ...(request.cookie ? { cookie: request.cookie } : {}),
  };
  let payload: string | Buffer | undefined;
  if (route.method === 'POST' && route.multipart) {
    const form = await multipart(
      request.body ?? {},
      request.upload
        ? [request.upload]
        : request.files
          ? [{ name: 'me.png', type: 'image/png', data: await pngImage() }]
          : [],
    );
    payload = form.payload;
    headers['content-type'] = form.contentType;
  } else if (route.method === 'POST') {
    payload = request.json === false ? formEncode(request.body ?? {}) : JSON.stringify(request.body ?? {});
    headers['content-type'] =
      request.json === false ? 'application/x-www-form-urlencoded' : 'application/json';
  }
  const res = await t.app.inject({
    method: route.method,
    url,
    headers,
    remoteAddress: PLANTED.address,
    ...(payload === undefined ? {} : { payload }),
  });
  calls.push({ route, requestId, res });
  return res;
}

/**
 * Routes whose call needs what the set-up made (sessions, second factors, a single sign-on on its
 * way back), each called so that it reaches its first write.
 */
function specialCall(route: ApiRoute): (() => Promise<unknown>) | undefined {
  const byPath: Record<string, () => Promise<unknown>> = {
    login: () => send(route, { body: { username: PLANTED.email, password: PLANTED.password }, json: false }),
    logout: () => send(route, { cookie: admin }),
    VerifyMfa: () => send(route, { body: { code: codeAt(mfaUser.secret) }, cookie: mfaUser.challenge }),
    StartMfaEnrollment: () => send(route, { body: { currentPassword: PLANTED.password }, cookie: admin }),
    ConfirmMfaEnrollment: () =>
      send(route, { body: { code: codeAt(enrolling.secret) }, cookie: enrolling.cookie }),
    DisableMfa: () =>
      send(route, {
        body: { currentPassword: PLANTED.password, code: codeAt(mfaUser.secret) },
        cookie: admin,
      }),
    ChangeMyPassword: () =>
      send(route, {
        body: { currentPassword: ADMIN_PASSWORD, newPassword: PLANTED.password },
        cookie: admin,
      }),
    EndMySession: () => send(route, { body: { sessionCode: otherAdminSession }, cookie: admin }),
    EndMyOtherSessions: () => send(route, { cookie: admin }),
    EndUserSessions: () => send(route, { body: { userCode: mfaUser.userCode }, cookie: admin }),
    ResetUserMfa: () => send(route, { body: { userCode: mfaUser.userCode }, cookie: admin }),
    // One of its three codes, not all: the schema takes exactly one.
    ExportPersonalData: () => send(route, { body: { userCode: mfaUser.userCode }, cookie: admin }),
    CreateApiToken: async () => {
      const [role] = await records('GetRoles');
      return send(route, {
        body: {
          name: PLANTED.email,
          roleCode: role?.roleCode,
          expiresAt: localIsoDate(new Date(Date.now() + 30 * 86_400_000)),
          allowedAddresses: [PLANTED.address],
        },
        cookie: admin,
      });
    },
    RevokeApiToken: () => send(route, { body: { tokenCode: apiTokenCode }, cookie: admin }),
    // A file that checks clean, and an import the set-up checked while writes worked.
    StartImport: () =>
      send(route, { body: { module: 'gender', mode: 'create' }, upload: plantedFile(), cookie: admin }),
    CheckImport: () => send(route, { body: { importCode }, cookie: admin }),
    CommitImport: () => send(route, { body: { importCode }, cookie: admin }),
    CancelImport: () => send(route, { body: { importCode }, cookie: admin }),
    CreateWebhook: () =>
      send(route, { body: { url: 'https://8.8.8.8/planted-2', events: ['gender.created'] }, cookie: admin }),
    UpdateWebhook: () =>
      send(route, {
        body: {
          webhookCode: webhook.webhookCode,
          url: 'https://8.8.8.8/planted',
          events: ['gender.updated'],
        },
        cookie: admin,
      }),
    DeleteWebhook: () => send(route, { body: { webhookCode: webhook.webhookCode }, cookie: admin }),
    TestWebhook: () => send(route, { body: { webhookCode: webhook.webhookCode }, cookie: admin }),
    RedeliverWebhook: () => send(route, { body: { deliveryCode: webhook.deliveryCode }, cookie: admin }),
    ErasePersonalData: () =>
      send(route, { body: { userCode: mfaUser.userCode, currentPassword: ADMIN_PASSWORD }, cookie: admin }),
    // An update the log recorded, and the record's version now: the restore is that update undone.
    RestoreVersion: async () => {
      const updates = await t.get('GetAudits', admin, { action: 'UPDATE', collection: 'genders', limit: 1 });
      const [entry] = updates.json().data as { auditCode: string; recordCode: string }[];
      const gender = (await t.post('GetGenderByCode', { genderCode: entry?.recordCode }, admin)).json().data;
      return send(route, { body: { auditCode: entry?.auditCode, version: gender?.version }, cookie: admin });
    },
    // A record the set-up's deletes put in the recycle bin: its restore and its permanent delete write.
    RestoreRecord: () => binCall(route),
    PurgeRecord: () => binCall(route),
    'oidc/callback': () => send(route, { query: sso.search, cookie: sso.pending }),
    CreateUpdatePerformances: async () => {
      const [employee] = await records('GetEmployees');
      const [skill] = await records('GetSkills');
      return send(route, {
        body: {
          performances: [
            {
              employeeCode: employee?.employeeCode,
              date: localIsoDate(new Date()),
              performancePerSkill: [{ skillCode: skill?.skillCode, pointsEarned: '7', totalPoints: 10 }],
            },
          ],
        },
        cookie: admin,
      });
    },
  };
  return byPath[route.path];
}

/** A call on a record in the bin, one that reaches its write (not a restore refused for a missing parent). */
async function binCall(route: ApiRoute) {
  for (const def of BIN_RESOURCES) {
    const module = binModuleOf(def);
    const listed = await t.get('GetDeletedRecords', admin, { module });
    for (const entry of (listed.json().data ?? []) as { recordCode: string }[]) {
      const res = await send(route, { body: { module, [def.code]: entry.recordCode }, cookie: admin });
      if (res.statusCode !== 409) return res;
    }
  }
  return undefined;
}

/** Registry writes, from each module's definition: create and update from a listed record, delete one that nothing refers to. */
function registryCall(route: ApiRoute): (() => Promise<unknown>) | undefined {
  const def = RESOURCES.find((r) =>
    [
      r.endpoints.create,
      r.endpoints.update,
      r.endpoints.delete,
      r.endpoints.deleteMany,
      r.endpoints.changeMany,
    ].includes(route.path),
  );
  if (!def) return undefined;
  return async () => {
    const listed = await records(def.endpoints.list);
    // Several at once, one record named: one refused before it writes (in use, one's own) is passed over.
    const many = route.path === def.endpoints.deleteMany || route.path === def.endpoints.changeMany;
    if (many) {
      // Not while writes still work: it would take the records the other writes need.
      if (preparing) return undefined;
      const book = await codes();
      const change = Object.fromEntries(def.bulkChange.map((f) => [f.name, book.get(f.name)]));
      for (const record of listed) {
        const body = {
          codes: [record[def.code]],
          ...(route.path === def.endpoints.changeMany ? change : {}),
        };
        const res = await send(route, { body, cookie: admin });
        if (res.statusCode !== 409 && res.statusCode !== 403) return res;
      }
      return undefined;
    }
    if (route.path === def.endpoints.delete) {
      // A record still referred to is refused (409) before anything is written: the next is tried.
      for (const record of listed) {
        const res = await send(route, {
          body: { [def.code]: record[def.code], version: record.version },
          cookie: admin,
        });
        if (res.statusCode !== 409) return res;
      }
      return undefined;
    }
    const [base = {}] = listed;
    const creating = route.path === def.endpoints.create;
    const body = await registryBody(
      route,
      creating ? { ...base, [def.code]: undefined, version: undefined } : base,
    );
    const res = await send(route, { body, cookie: admin, files: creating });
    // A field the copied record holds that must be unique to it (an employee's user): left out
    // when it may be, and tried again.
    const taken = res.statusCode === 409 ? fieldsIn(res) : [];
    const without = Object.fromEntries(Object.entries(body).filter(([k]) => !taken.includes(k)));
    if (taken.length === 0 || !(route.body as ZodType).safeParse(without).success) return res;
    return send(route, { body: without, cookie: admin, files: creating });
  };
}

const fieldsIn = (res: LightMyRequestResponse) =>
  ((res.json() as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field);

let codeBook: Map<string, unknown> | undefined;
/** A code of each kind (userCode, roleCode, ...), from the records every module lists. */
async function codes(): Promise<Map<string, unknown>> {
  if (codeBook) return codeBook;
  const book = new Map<string, unknown>();
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value))
      for (const [k, v] of Object.entries(value)) {
        if (k.endsWith('Code') && typeof v === 'string' && !book.has(k)) book.set(k, v);
        else collect(v);
      }
  };
  // A module's own records first: a userCode is a user's code before it is an audit entry's actor.
  const listed = await Promise.all(RESOURCES.map((def) => records(def.endpoints.list)));
  RESOURCES.forEach((def, i) => {
    const own = listed[i]?.[0]?.[def.code];
    if (typeof own === 'string') book.set(def.code, own);
  });
  listed.forEach(collect);
  codeBook = book;
  return book;
}

/** What the other routes answered while writes still worked, by field: an identity a link made, to unlink. */
const answered = new Map<string, unknown>();

/**
 * A body from the route's schema alone: each choice's first option, else what an earlier answer
 * held for the field, else a code of a listed record, else planted text.
 */
function fromSchema(json: JsonSchema, book: Map<string, unknown>): Json {
  const body: Json = {};
  for (const [key, field] of Object.entries(propertiesOf(json))) {
    if (field.enum) body[key] = field.enum[0];
    else if (answered.has(key)) body[key] = answered.get(key);
    else if (book.has(key)) body[key] = book.get(key);
    else if (field.properties) body[key] = fromSchema(field, book);
    else if (acceptsString(field)) body[key] = plantedFor(key);
  }
  return body;
}

/** Any other route: a body made from its schema, as the administrator. */
async function genericCall(route: ApiRoute) {
  const json = route.body
    ? (z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    : undefined;
  const res = await send(route, { cookie: admin, body: json ? fromSchema(json, await codes()) : {} });
  const json200 =
    res.statusCode === 200 && String(res.headers['content-type']).startsWith('application/json');
  const data = json200 ? (res.json() as { data?: unknown }).data : undefined;
  if (preparing && isObject(data))
    for (const [k, v] of Object.entries(data)) if (typeof v === 'string') answered.set(k, v);
  return res;
}

const writes = (r: ApiRoute) => r.changes ?? r.method === 'POST';

/** Every other route: a registry write from its module's records, anything else from its schema. */
const ordinaryCall = (route: ApiRoute) => registryCall(route) ?? (() => genericCall(route));

beforeAll(async () => {
  provider = await startProvider(REDIRECT_URI);
  t = await createTestApp(
    {
      LOG_LEVEL: 'trace',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_REDIRECT_URI: REDIRECT_URI,
    },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
  await seedDemo(t.handle.db, { people: 4, days: 2, cityCountries: ['NZ'], pictures: false });
  await t.settle();

  // Each ordinary write once while writes still work, last route first, so that what a later
  // write needs exists: a record nothing refers to for each delete (its module's create made
  // one), a linked identity for an unlink.
  admin = await t.login();
  preparing = true;
  for (const route of allRoutes().reverse()) {
    if (writes(route) && !specialCall(route)) await ordinaryCall(route)();
  }
  preparing = false;
  calls.length = 0;

  admin = await t.login();
  rememberCookie('admin session', admin);
  rememberCookie('second admin session', await t.login());
  const mine = (await t.get('GetMySessions', admin)).json().data as {
    sessionCode: string;
    current: boolean;
  }[];
  otherAdminSession = mine.find((x) => !x.current)?.sessionCode ?? '';

  const mfa = await t.userWith([], { username: 'mfa.person' });
  const { secret } = await enrol(t, mfa.cookie, mfa.password);
  const { challenge } = await passwordStep(t, mfa.username, mfa.password);
  if (!challenge) throw new Error('no pending second step');
  mfaUser = { userCode: mfa.userCode, secret, challenge };
  secrets.set('TOTP secret', secret);
  rememberCookie('pending second step', challenge);

  const starter = await t.userWith([], { username: 'mfa.starter' });
  const started = await t.post('StartMfaEnrollment', { currentPassword: starter.password }, starter.cookie);
  enrolling = { cookie: starter.cookie, secret: started.json().data.secret };
  secrets.set('TOTP secret being enrolled', enrolling.secret);
  rememberCookie('enrolling user session', starter.cookie);

  provider.signInAs = 'admin';
  const begun = await t.app.inject({ method: 'GET', url: '/api/oidc/login' });
  const pending = cookieOf(begun, 'wfc-oidc') ?? '';
  const back = await throughProvider(String(begun.headers.location), REDIRECT_URI);
  sso = { search: back.search, pending };
  secrets.set('OpenID authorization code', back.searchParams.get('code') ?? '');
  secrets.set('OpenID state', back.searchParams.get('state') ?? '');
  rememberCookie('pending single sign-on', pending);

  const [role] = await records('GetRoles');
  const created = await t.post(
    'CreateApiToken',
    { name: 'Planted integration', roleCode: role?.roleCode, noExpiry: true },
    admin,
  );
  apiTokenCode = created.json().data.tokenCode;
  secrets.set('API token', created.json().data.token);
  secrets.set("API token's hash", sha256(created.json().data.token));

  // A literal public address: no lookup, and no job queue here to send anything.
  const hook = await t.postJson(
    'CreateWebhook',
    { url: 'https://8.8.8.8/planted', events: ['gender.created'] },
    admin,
  );
  secrets.set('webhook signing secret', hook.json().data.secret);
  const webhookCode = hook.json().data.webhookCode as string;
  const tested = await t.postJson('TestWebhook', { webhookCode }, admin);
  webhook = { webhookCode, deliveryCode: tested.json().data.deliveryCode };

  const checked = await send(allRoutes().find((r) => r.path === 'StartImport') as ApiRoute, {
    body: { module: 'gender', mode: 'create' },
    upload: plantedFile(),
    cookie: admin,
  });
  importCode = checked.json().data.importCode;

  await refuseEveryWrite();
  lines.length = 0;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

describe('a failed write leaves no secret and no personal data in the log', () => {
  it('every route is called; every write reaches the refused write', async () => {
    for (const route of allRoutes()) {
      await (specialCall(route) ?? ordinaryCall(route))();
    }
    const refusedRequests = new Set(
      lines
        .map((l) => JSON.parse(l) as { requestId?: string; err?: unknown })
        .filter((l) => JSON.stringify(l.err ?? '').includes(REFUSAL))
        .map((l) => l.requestId),
    );
    const same = (a: ApiRoute, b: ApiRoute) => a.method === b.method && a.path === b.path;
    const missed = allRoutes()
      .filter(writes)
      .filter((r) => !calls.some((c) => same(c.route, r) && refusedRequests.has(c.requestId)))
      .map((r) => {
        const last = calls.filter((c) => same(c.route, r)).at(-1);
        return `${r.method} ${r.path}: ${last ? `${last.res.statusCode} ${last.res.body.slice(0, 200)}` : 'not called'}`;
      });
    expect(missed, 'writes that never reached the refusal: call them so that they do').toEqual([]);
  });

  it('holds none of the planted values, no session or argon2 hash, no address and no user agent', () => {
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    const found = [
      ...Object.entries(PLANTED),
      ...secrets,
      ['percent-encoded email', encodeURIComponent(PLANTED.email)],
    ].filter(([, value]) => value && log.includes(value));
    // Each with the text around its first appearance, to say which line carried it.
    const where = (value: string) =>
      log.slice(Math.max(0, log.indexOf(value) - 200), log.indexOf(value) + 60);
    expect(found.map(([name, value]) => `${name}: ...${where(value ?? '')}`)).toEqual([]);
    expect(log).not.toContain('$argon2');
    // The TOTP codes sent: six digits standing alone, not part of a longer number or word.
    const codes = [
      codeAt(mfaUser.secret, -1),
      codeAt(mfaUser.secret),
      codeAt(enrolling.secret, -1),
      codeAt(enrolling.secret),
    ];
    for (const code of codes) expect(log).not.toMatch(new RegExp(`(?<![\\w.])${code}(?![\\w.])`));
  });

  it('still says which statement failed and why, and each request line its id, method, path and status', () => {
    const parsed = lines.map((l) => JSON.parse(l) as Json);
    const failed = parsed.find(
      (l) =>
        l.msg === 'request failed' &&
        String((l.err as Json | undefined)?.query).includes('insert into "users"'),
    );
    expect(failed, 'the failed insert of register').toBeDefined();
    expect(sqlStates(failed?.err)).toContain(REFUSED);
    const register = calls.find((c) => c.route.path === 'register');
    const incoming = parsed.find((l) => l.requestId === register?.requestId && l.msg === 'incoming request');
    expect(incoming?.req).toEqual({ method: 'POST', url: '/api/register' });
    const completed = parsed.find(
      (l) => l.requestId === register?.requestId && l.msg === 'request completed',
    );
    expect(completed?.res).toEqual({ statusCode: 500 });
  });
});

/** The SQLSTATEs an error line names, through its causes. */
function sqlStates(err: unknown): string[] {
  const states: string[] = [];
  for (let e: unknown = err, depth = 0; isObject(e) && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string') states.push(e.code);
  }
  return states;
}
