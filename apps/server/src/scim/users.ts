import { userCreateSchema, userUpdateSchema } from '@wfc/contract';
import { and, asc, count, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { users } from '../db/schema/index.ts';
import { users$ } from '../resources/definitions/access.ts';
import { shown } from '../resources/need-to-know.ts';
import { fetchOne, fetchRecords, reach } from '../resources/read.ts';
import type { Row } from '../resources/server-resource.ts';
import { createRecord, deleteRecord, updateRecord } from '../resources/write.ts';
import { parseFilter } from './filter.ts';
import { type FilterAttribute, filterSql } from './filter-sql.ts';
import { type Page, type PatchOperation, parsedInput, patchBody, pathKey } from './messages.ts';
import {
  invalidPath,
  invalidValue,
  SCHEMA,
  ScimError,
  scimBoolean,
  scimNotFound,
  scimString,
  versionTag,
} from './protocol.ts';
import {
  defaultRole,
  provisionedUsers,
  type ScimContext,
  unusablePassword,
  withBody,
} from './provisioning.ts';

/*
 * /scim/v2/Users: console users as SCIM Users (RFC 7643 section 4.1). `id` is the user code,
 * `userName` the username, the one email is the work email, `active` the user's switch; the user's
 * role is their one group. Other attributes of the core schema are accepted and not kept.
 */

const USER_FILTERS: Readonly<Record<string, FilterAttribute>> = {
  id: { type: 'string', column: users.userCode, caseExact: true },
  username: { type: 'string', column: users.username, caseExact: false },
  externalid: { type: 'string', column: users.externalId, caseExact: true },
  emails: { type: 'string', column: users.email, caseExact: false },
  'emails.value': { type: 'string', column: users.email, caseExact: false },
  active: { type: 'boolean', column: users.active },
  'groups.value': { type: 'string', column: users.roleCode, caseExact: true },
  'meta.created': { type: 'dateTime', column: users.createdAt },
  'meta.lastmodified': { type: 'dateTime', column: users.updatedAt },
};

/** Attributes of the core User schema and its enterprise extension that the console does not keep. */
const NOT_KEPT = new Set([
  'name',
  'displayname',
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'phonenumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509certificates',
]);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user';

const notKept = (key: string) => {
  const head = key.split(/[.[]/)[0] ?? key;
  return NOT_KEPT.has(head) || key.startsWith(ENTERPRISE);
};

/** The user record as the SCIM User it is. */
export function scimUser(record: Row, base: string) {
  const code = String(record.userCode);
  const role = record.role as { roleCode: string; roleName: string } | null;
  const email = typeof record.email === 'string' ? record.email : undefined;
  return {
    schemas: [SCHEMA.user],
    id: code,
    ...(typeof record.externalId === 'string' ? { externalId: record.externalId } : {}),
    userName: String(record.username),
    active: record.active !== false,
    // Left out for a token whose role may not see personal details (VIEW_PERSONAL_DATA).
    ...(email ? { emails: [{ value: email, type: 'work', primary: true }] } : {}),
    groups: role
      ? [
          {
            value: role.roleCode,
            display: role.roleName,
            $ref: `${base}/Groups/${role.roleCode}`,
            type: 'direct',
          },
        ]
      : [],
    meta: {
      resourceType: 'User',
      created: String(record.createdAt),
      lastModified: String(record.updatedAt),
      location: `${base}/Users/${code}`,
      version: versionTag(record.version),
    },
  };
}

const emailEntry = z.looseObject({
  value: z.string(),
  type: z.string().optional(),
  primary: z.unknown().optional(),
});

/** The email a list of SCIM emails means: the primary one, else the work one, else the first. */
function chosenEmail(value: unknown): string {
  const parsed = z.array(emailEntry).safeParse(value);
  if (!parsed.success) throw invalidValue('emails must be a list of objects with a value');
  const list = parsed.data;
  const found =
    list.find((e) => e.primary === true || e.primary === 'true' || e.primary === 'True') ??
    list.find((e) => e.type?.toLowerCase() === 'work') ??
    list[0];
  if (!found) throw invalidValue('emails must hold the user’s email');
  return found.value;
}

const userBody = z.looseObject({
  userName: z.string({ error: 'userName is required' }),
  externalId: z.string().nullable().optional(),
  active: z.unknown().optional(),
  password: z.string().optional(),
  emails: z.unknown().optional(),
  groups: z.array(z.looseObject({ value: z.string() })).optional(),
});

/** What a SCIM User body says of the attributes the console keeps. */
function readUser(body: unknown) {
  const parsed = parsedInput(userBody, body);
  if (parsed.emails === undefined) throw invalidValue('emails must hold the user’s email');
  return {
    username: parsed.userName,
    email: chosenEmail(parsed.emails),
    active: parsed.active === undefined ? undefined : scimBoolean(parsed.active, 'active'),
    externalId: parsed.externalId,
    password: parsed.password,
    firstGroup: parsed.groups?.[0]?.value,
  };
}

/** The console's names of a user's fields, in a refusal, as SCIM names them. */
const SCIM_NAMES = { username: 'userName', email: 'emails', roleCode: 'groups', password: 'password' };

export async function listUsers(ctx: ScimContext, base: string, page: Page) {
  const { db } = ctx.services;
  const scoped = reach(users$, ctx.session, ['VIEW_USERS']).where;
  const filtered = page.filter ? filterSql(parseFilter(page.filter), USER_FILTERS, SCHEMA.user) : undefined;
  const where = and(scoped, filtered) as SQL | undefined;
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const { records } =
    page.count === 0
      ? { records: [] }
      : await fetchRecords(db, users$, {
          where,
          orderBy: [asc(users.id)],
          limit: page.count,
          offset: page.startIndex - 1,
        });
  return {
    total: Number(total?.n ?? 0),
    resources: records.map((r) => scimUser(shown(users$, ctx.session, r), base)),
  };
}

async function userRecord(ctx: ScimContext, id: string): Promise<Row> {
  const scoped = reach(users$, ctx.session, ['VIEW_USERS']).where;
  const record = await fetchOne(ctx.services.db, users$, id, scoped);
  if (!record) throw scimNotFound('User', id);
  return record;
}

export async function getUser(ctx: ScimContext, base: string, id: string) {
  return scimUser(shown(users$, ctx.session, await userRecord(ctx, id)), base);
}

/**
 * A new user: the role of the first group the request names, else the default role; the
 * password it carries under the password rules, else one nobody knows (single sign-on only).
 */
export async function createUser(ctx: ScimContext, base: string, body: unknown) {
  const user = readUser(body);
  const roleCode = user.firstGroup ?? (await defaultRole(ctx));
  const input = parsedInput(
    userCreateSchema,
    {
      username: user.username,
      email: user.email,
      password: user.password ?? unusablePassword(),
      roleCode,
      ...(user.active === undefined ? {} : { active: user.active }),
    },
    SCIM_NAMES,
  );
  const created = await createRecord(
    provisionedUsers,
    withBody(ctx, { ...input, ...(user.externalId ? { externalId: user.externalId } : {}) }),
  );
  return getUser(ctx, base, String(created.data?.userCode));
}

/** The update body of a user as it stands, with `changes` over it: the role is kept. */
export function updateOf(record: Row, changes: Record<string, unknown>, version: number | undefined) {
  const role = record.role as { roleCode: string } | null;
  const input = parsedInput(
    userUpdateSchema,
    {
      userCode: record.userCode,
      username: record.username,
      email: record.email,
      roleCode: role?.roleCode,
      ...changes,
    },
    SCIM_NAMES,
  );
  const externalId = new Map(Object.entries(changes)).get('externalId');
  return {
    ...input,
    ...(externalId !== undefined ? { externalId } : {}),
    ...(version === undefined ? {} : { version }),
  };
}

/** PUT: the user's kept attributes replaced by the body's; `groups` is read-only here. */
export async function replaceUser(
  ctx: ScimContext,
  base: string,
  id: string,
  body: unknown,
  version: number | undefined,
) {
  const record = await userRecord(ctx, id);
  const user = readUser(body);
  const changes = {
    username: user.username,
    email: user.email,
    ...(user.active === undefined ? {} : { active: user.active }),
    ...(user.externalId === undefined ? {} : { externalId: user.externalId }),
    ...(user.password ? { password: user.password } : {}),
  };
  await updateRecord(provisionedUsers, withBody(ctx, updateOf(record, changes, version)));
  return getUser(ctx, base, id);
}

/** One PATCH operation on the changes made so far (RFC 7644 section 3.5.2). */
function applyUserOperation(changes: Record<string, unknown>, op: PatchOperation) {
  if (op.path === undefined) {
    // No path: the value is an object of attributes (Okta's `{"active": false}`).
    if (op.op === 'remove') throw new ScimError(400, 'A remove operation needs a path', 'noTarget');
    if (typeof op.value !== 'object' || op.value === null || Array.isArray(op.value)) {
      throw invalidValue('An operation without a path needs an object of attributes as its value');
    }
    for (const [path, value] of Object.entries(op.value))
      applyUserOperation(changes, { op: op.op, path, value });
    return;
  }
  const key = pathKey(op.path, SCHEMA.user);
  if (notKept(key)) return;
  const remove = op.op === 'remove';
  if (key === 'externalid') {
    changes.externalId = remove || op.value === null ? null : scimString(op.value, 'externalId');
    return;
  }
  if (remove) throw new ScimError(400, `${op.path} cannot be removed`, 'mutability');
  if (key === 'active') changes.active = scimBoolean(op.value, 'active');
  else if (key === 'username') changes.username = scimString(op.value, 'userName');
  else if (key === 'password') changes.password = scimString(op.value, 'password');
  else if (key === 'emails') changes.email = chosenEmail(op.value);
  else if (/^emails(\[[^\]]*\])?\.value$/.test(key)) changes.email = scimString(op.value, 'emails.value');
  else if (key === 'groups' || key.startsWith('groups')) {
    throw new ScimError(400, 'A user’s groups are changed through the group (its members)', 'mutability');
  } else throw invalidPath(`Unknown attribute: ${op.path}`);
}

/** PATCH: Okta's and Microsoft Entra ID's operations, each on what the previous ones left. */
export async function patchUser(
  ctx: ScimContext,
  base: string,
  id: string,
  body: unknown,
  version: number | undefined,
) {
  const record = await userRecord(ctx, id);
  const changes: Record<string, unknown> = {};
  for (const op of patchBody(body)) applyUserOperation(changes, op);
  if (Object.keys(changes).length > 0) {
    await updateRecord(provisionedUsers, withBody(ctx, updateOf(record, changes, version)));
  }
  return getUser(ctx, base, id);
}

export async function deleteUser(ctx: ScimContext, id: string, version: number | undefined) {
  await userRecord(ctx, id);
  await deleteRecord(users$, withBody(ctx, { code: id, ...(version === undefined ? {} : { version }) }));
}
