import { roleCreateSchema, roleUpdateSchema } from '@wfc/contract';
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { roles, users } from '../db/schema/index.ts';
import { roles$, users$ } from '../resources/definitions/access.ts';
import { fetchOne, reach } from '../resources/read.ts';
import { fieldsAt, type Row } from '../resources/server-resource.ts';
import { createRecord, deleteRecord, updateRecord } from '../resources/write.ts';
import { needs } from './access.ts';
import { parseFilter } from './filter.ts';
import { type FilterAttribute, filterSql } from './filter-sql.ts';
import { type Page, type PatchOperation, parsedInput, patchBody, pathKey } from './messages.ts';
import {
  invalidPath,
  invalidValue,
  SCHEMA,
  ScimError,
  scimNotFound,
  scimString,
  versionTag,
} from './protocol.ts';
import { defaultRole, provisionedRoles, type ScimContext, withBody } from './provisioning.ts';
import { updateOf } from './users.ts';

/*
 * /scim/v2/Groups: roles as SCIM Groups (RFC 7643 section 4.2). A user has exactly one role, so
 * being a member of a group is holding its role: adding a member gives them the role, removing
 * them gives them the default role back. A group made here is a role without permissions, which
 * an administrator fills in the console.
 */

const GROUP_FILTERS: Readonly<Record<string, FilterAttribute>> = {
  id: { type: 'string', column: roles.roleCode, caseExact: true },
  displayname: { type: 'string', column: roles.roleName, caseExact: false },
  externalid: { type: 'string', column: roles.externalId, caseExact: true },
  ...Object.fromEntries(
    ['members', 'members.value'].map((key) => [
      key,
      {
        type: 'reference',
        has: (userCode: string) =>
          sql`exists (select 1 from ${users} where ${users.roleCode} = ${roles.roleCode} and ${users.userCode} = ${userCode})`,
        any: sql`exists (select 1 from ${users} where ${users.roleCode} = ${roles.roleCode})`,
      } satisfies FilterAttribute,
    ]),
  ),
};

const groupColumns = {
  roleCode: roles.roleCode,
  roleName: roles.roleName,
  externalId: roles.externalId,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
  version: roles.version,
};
type GroupRow = {
  roleCode: string;
  roleName: string;
  externalId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

/** The members of these roles, by role code. */
async function membersOf(ctx: ScimContext, roleCodes: string[]) {
  const byRole = new Map<string, { userCode: string; username: string }[]>();
  if (roleCodes.length === 0) return byRole;
  const rows = await ctx.services.db
    .select({ roleCode: users.roleCode, userCode: users.userCode, username: users.username })
    .from(users)
    .where(inArray(users.roleCode, roleCodes))
    .orderBy(asc(users.id));
  for (const r of rows) byRole.set(r.roleCode, [...(byRole.get(r.roleCode) ?? []), r]);
  return byRole;
}

function scimGroup(
  role: GroupRow,
  members: { userCode: string; username: string }[] | undefined,
  base: string,
) {
  return {
    schemas: [SCHEMA.group],
    id: role.roleCode,
    ...(role.externalId ? { externalId: role.externalId } : {}),
    displayName: role.roleName,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.userCode,
            display: m.username,
            $ref: `${base}/Users/${m.userCode}`,
            type: 'User',
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: role.createdAt.toISOString(),
      lastModified: role.updatedAt.toISOString(),
      location: `${base}/Groups/${role.roleCode}`,
      version: versionTag(role.version),
    },
  };
}

export async function listGroups(ctx: ScimContext, base: string, page: Page, withMembers: boolean) {
  const { db } = ctx.services;
  const where = page.filter ? filterSql(parseFilter(page.filter), GROUP_FILTERS, SCHEMA.group) : undefined;
  const [total] = await db.select({ n: count() }).from(roles).where(where);
  const rows: GroupRow[] =
    page.count === 0
      ? []
      : await db
          .select(groupColumns)
          .from(roles)
          .where(where)
          .orderBy(asc(roles.id))
          .limit(page.count)
          .offset(page.startIndex - 1);
  const members = withMembers
    ? await membersOf(
        ctx,
        rows.map((r) => r.roleCode),
      )
    : undefined;
  return {
    total: Number(total?.n ?? 0),
    resources: rows.map((r) => scimGroup(r, members ? (members.get(r.roleCode) ?? []) : undefined, base)),
  };
}

async function groupRow(ctx: ScimContext, id: string): Promise<GroupRow> {
  const [row] = await ctx.services.db.select(groupColumns).from(roles).where(eq(roles.roleCode, id));
  if (!row) throw scimNotFound('Group', id);
  return row;
}

export async function getGroup(ctx: ScimContext, base: string, id: string, withMembers: boolean) {
  const row = await groupRow(ctx, id);
  const members = withMembers ? ((await membersOf(ctx, [id])).get(id) ?? []) : undefined;
  return scimGroup(row, members, base);
}

/** The role's update body as it stands (its permissions kept), with a new name or external id. */
async function roleUpdate(
  ctx: ScimContext,
  id: string,
  changes: { roleName?: string; externalId?: string | null },
) {
  const record = await fetchOne(ctx.services.db, roles$, id);
  if (!record) throw scimNotFound('Group', id);
  const permissionCodes = (Array.isArray(record.rolePermissions) ? record.rolePermissions : []).map(
    (p: Row) => String(p.permissionCode),
  );
  const input = parsedInput(
    roleUpdateSchema,
    {
      roleCode: id,
      roleName: changes.roleName ?? record.roleName,
      roleDescription: record.roleDescription ?? undefined,
      rolePermissions: permissionCodes,
      permissionScopes: Object.fromEntries(fieldsAt(record, 'permissionScopes')),
      requireMfa: record.requireMfa === true,
    },
    { roleName: 'displayName' },
  );
  const externalId = changes.externalId;
  await updateRecord(
    provisionedRoles,
    withBody(ctx, { ...input, ...(externalId === undefined ? {} : { externalId }) }),
  );
}

/** The user as a member can be named: one the token reaches, else a 400 naming the id. */
async function memberRecord(ctx: ScimContext, userCode: string): Promise<Row> {
  const scoped = reach(users$, ctx.session, ['VIEW_USERS']).where;
  const record = await fetchOne(ctx.services.db, users$, userCode, scoped);
  if (!record) throw invalidValue(`No user ${JSON.stringify(userCode)} to be a member`);
  return record;
}

const roleOf = (record: Row) => (record.role as { roleCode: string } | null)?.roleCode;

/** Gives the user this role, through the user definition (delegation, audit, versions). */
async function giveRole(ctx: ScimContext, record: Row, roleCode: string) {
  if (roleOf(record) === roleCode) return;
  await updateRecord(users$, withBody(ctx, updateOf(record, { roleCode }, undefined)));
}

async function addMember(ctx: ScimContext, id: string, userCode: string) {
  await giveRole(ctx, await memberRecord(ctx, userCode), id);
}

/** A member leaves: back to the default role. One who is no member is left as they are. */
async function removeMember(ctx: ScimContext, id: string, userCode: string) {
  const record = await memberRecord(ctx, userCode);
  if (roleOf(record) !== id) return;
  const fallback = await defaultRole(ctx);
  if (fallback !== id) await giveRole(ctx, record, fallback);
}

/** Exactly these members: the others leave, the new ones join. */
async function setMembers(ctx: ScimContext, id: string, userCodes: string[]) {
  const current = (await membersOf(ctx, [id])).get(id) ?? [];
  const wanted = new Set(userCodes);
  for (const m of current) if (!wanted.has(m.userCode)) await removeMember(ctx, id, m.userCode);
  for (const code of wanted) await addMember(ctx, id, code);
}

const memberList = z.array(z.looseObject({ value: z.string() }));

function memberCodes(value: unknown): string[] {
  const parsed = memberList.safeParse(value);
  if (!parsed.success) throw invalidValue('members must be a list of objects with a value (a user id)');
  return parsed.data.map((m) => m.value);
}

const groupBody = z.looseObject({
  displayName: z.string({ error: 'displayName is required' }),
  externalId: z.string().nullable().optional(),
  members: z.unknown().optional(),
});

export async function createGroup(ctx: ScimContext, base: string, body: unknown) {
  const group = parsedInput(groupBody, body);
  const members = group.members === undefined ? [] : memberCodes(group.members);
  if (members.length) needs(ctx, 'UPDATE_USER');
  const input = parsedInput(
    roleCreateSchema,
    {
      roleName: group.displayName,
      roleDescription: 'Provisioned by the identity provider',
      rolePermissions: [],
    },
    { roleName: 'displayName' },
  );
  const created = await createRecord(
    provisionedRoles,
    withBody(ctx, { ...input, ...(group.externalId ? { externalId: group.externalId } : {}) }),
  );
  const id = String(created.data?.roleCode);
  for (const code of members) await addMember(ctx, id, code);
  return getGroup(ctx, base, id, true);
}

/** PUT: the name, the external id and, when the body names them, exactly these members. */
export async function replaceGroup(ctx: ScimContext, base: string, id: string, body: unknown) {
  await groupRow(ctx, id);
  const group = parsedInput(groupBody, body);
  if (group.members !== undefined) needs(ctx, 'UPDATE_USER');
  await roleUpdate(ctx, id, {
    roleName: group.displayName,
    ...(group.externalId === undefined ? {} : { externalId: group.externalId }),
  });
  if (group.members !== undefined) await setMembers(ctx, id, memberCodes(group.members));
  return getGroup(ctx, base, id, true);
}

/** The member a path such as `members[value eq "USER-..."]` names. */
const MEMBER_PATH = /^members\[value eq "([^"]+)"\]$/;

/** The operations with a path each (an operation without one spreads over its value's attributes). */
function withPaths(ops: PatchOperation[]): (PatchOperation & { key: string })[] {
  return ops.flatMap((op) => {
    if (op.path !== undefined) return [{ ...op, key: pathKey(op.path, SCHEMA.group) }];
    if (typeof op.value !== 'object' || op.value === null || Array.isArray(op.value)) {
      throw invalidValue('An operation without a path needs an object of attributes as its value');
    }
    return Object.entries(op.value)
      .filter(([path]) => path.toLowerCase() !== 'id')
      .map(([path, value]) => ({ op: op.op, path, value, key: pathKey(path, SCHEMA.group) }));
  });
}

/** PATCH: members added and removed (Okta, Microsoft Entra ID), the name and external id replaced. */
export async function patchGroup(ctx: ScimContext, base: string, id: string, body: unknown) {
  await groupRow(ctx, id);
  const ops = withPaths(patchBody(body));
  const touchesMembers = ops.some((o) => o.key.startsWith('members'));
  const touchesRole = ops.some((o) => !o.key.startsWith('members'));
  if (touchesMembers) needs(ctx, 'UPDATE_USER');
  if (touchesRole) needs(ctx, 'UPDATE_ROLE');
  const roleChanges: { roleName?: string; externalId?: string | null } = {};
  for (const op of ops) {
    const member = MEMBER_PATH.exec(op.key);
    if (op.key === 'displayname') {
      if (op.op === 'remove') throw new ScimError(400, 'displayName cannot be removed', 'mutability');
      roleChanges.roleName = scimString(op.value, 'displayName');
    } else if (op.key === 'externalid') {
      roleChanges.externalId =
        op.op === 'remove' || op.value === null ? null : scimString(op.value, 'externalId');
    } else if (op.key === 'members') {
      if (op.op === 'add') for (const code of memberCodes(op.value)) await addMember(ctx, id, code);
      else if (op.op === 'replace') await setMembers(ctx, id, memberCodes(op.value));
      else if (op.value === undefined) await setMembers(ctx, id, []);
      else for (const code of memberCodes(op.value)) await removeMember(ctx, id, code);
    } else if (member?.[1] && op.op === 'remove') {
      await removeMember(ctx, id, member[1]);
    } else {
      throw invalidPath(`Unknown attribute or operation: ${op.op} ${op.path}`);
    }
  }
  if (roleChanges.roleName !== undefined || roleChanges.externalId !== undefined) {
    await roleUpdate(ctx, id, roleChanges);
  }
  return getGroup(ctx, base, id, true);
}

/** Refused (409) while users hold the role, as the console's own delete refuses it. */
export async function deleteGroup(ctx: ScimContext, id: string) {
  await groupRow(ctx, id);
  await deleteRecord(roles$, withBody(ctx, { code: id }));
}
