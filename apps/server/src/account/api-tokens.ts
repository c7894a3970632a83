import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_MESSAGES,
  type ApiTokenRecord,
  apiTokenRecordSchema,
  apiTokenRoleSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
  revokeApiTokenSchema,
} from '@wfc/contract';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/recorder.ts';
import { apiTokenPrefixOf, hashApiToken, newApiTokenSecret } from '../auth/api-tokens.ts';
import { holdsEverything, mayGive } from '../auth/scopes.ts';
import { newCode } from '../db/codes.ts';
import { apiTokens, permissions, rolePermissions, roles } from '../db/schema/index.ts';
import { ApiError, badRequest, notFound } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';

/** Integrations > API tokens (docs/product.md, docs/security.md "API tokens"). */
const MANAGE = anyOf('MANAGE_INTEGRATIONS');
const DAY_MS = 86_400_000;

const DELEGATION_MESSAGE = 'You cannot give a token a role with permissions you do not hold';

/**
 * A date alone means through that day (UTC). The limit allows a day beyond the year, so that the
 * date a year from today, picked in any time zone, passes.
 */
function expiryOf(expiresAt: string | undefined, now: Date): Date | null {
  if (!expiresAt) return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(expiresAt)
    ? new Date(Date.parse(`${expiresAt}T00:00:00Z`) + DAY_MS)
    : new Date(expiresAt);
  const field = (message: string) => badRequest(message, [{ field: 'expiresAt', message }]);
  if (at.getTime() <= now.getTime()) throw field(API_TOKEN_MESSAGES.expiryPast);
  if (at.getTime() > now.getTime() + (API_TOKEN_MAX_DAYS + 1) * DAY_MS) {
    throw field(API_TOKEN_MESSAGES.expiryTooLate);
  }
  return at;
}

const recordColumns = {
  tokenCode: apiTokens.tokenCode,
  name: apiTokens.name,
  roleCode: apiTokens.roleCode,
  roleName: roles.roleName,
  tokenPrefix: apiTokens.tokenPrefix,
  allowedAddresses: apiTokens.allowedAddresses,
  expiresAt: apiTokens.expiresAt,
  createdAt: apiTokens.createdAt,
  createdByCode: apiTokens.createdByCode,
  createdByName: apiTokens.createdByName,
  lastUsedAt: apiTokens.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
};

interface TokenRow {
  tokenCode: string;
  name: string;
  roleCode: string;
  roleName: string;
  tokenPrefix: string;
  allowedAddresses: string[];
  expiresAt: Date | null;
  createdAt: Date;
  createdByCode: string | null;
  createdByName: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toRecord(r: TokenRow, now: Date): ApiTokenRecord {
  const expired = r.expiresAt !== null && r.expiresAt.getTime() <= now.getTime();
  return {
    tokenCode: r.tokenCode,
    name: r.name,
    role: { roleCode: r.roleCode, roleName: r.roleName },
    tokenPrefix: r.tokenPrefix,
    allowedAddresses: r.allowedAddresses,
    expiresAt: iso(r.expiresAt),
    createdAt: r.createdAt.toISOString(),
    createdBy: { userCode: r.createdByCode, username: r.createdByName },
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
    status: r.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
  };
}

const selectTokens = (db: Parameters<typeof recordAudit>[0]) =>
  db.select(recordColumns).from(apiTokens).innerJoin(roles, eq(roles.roleCode, apiTokens.roleCode));

export const apiTokenRoutes = [
  defineRoute({
    method: 'POST',
    path: 'CreateApiToken',
    summary:
      'Creates an API token for an integration, with a role the caller may give, an expiry (or none, by choice) and allowed addresses; answers its secret this once',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    bodyLimit: 64 * 1024,
    body: createApiTokenSchema,
    response: createdApiTokenSchema,
    answers: {
      400: 'Invalid input: no such role, an expiry in the past or more than a year away, or an address that is not one',
      403: `The role has a permission the caller does not hold, or holds for fewer records (${DELEGATION_MESSAGE}); or the caller is an API token`,
    },
    async handler({ body, session, actor, services }) {
      const now = new Date();
      const expiresAt = body.noExpiry ? null : expiryOf(body.expiresAt, now);
      const secret = newApiTokenSecret();
      const tokenCode = newCode('APITOKEN-');
      const created = await services.db.transaction(async (tx) => {
        // Share-locked, as a user's role is when assigned: the role cannot widen between check and write.
        const [role] = await tx
          .select({ roleCode: roles.roleCode })
          .from(roles)
          .where(eq(roles.roleCode, body.roleCode))
          .for('share');
        if (!role) throw badRequest('No such role', [{ field: 'roleCode', message: 'No such role' }]);
        if (!holdsEverything(session)) {
          const grants = await tx
            .select({ name: permissions.permissionName, scope: rolePermissions.scope })
            .from(rolePermissions)
            .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
            .where(eq(rolePermissions.roleCode, role.roleCode));
          if (grants.some((g) => !mayGive(session, g.name, g.scope))) {
            throw new ApiError(403, DELEGATION_MESSAGE);
          }
        }
        await tx.insert(apiTokens).values({
          tokenCode,
          name: body.name,
          tokenHash: hashApiToken(secret),
          tokenPrefix: apiTokenPrefixOf(secret),
          roleCode: role.roleCode,
          allowedAddresses: body.allowedAddresses,
          expiresAt,
          createdByCode: actor.userCode,
          createdByName: actor.username,
        });
        const [row] = await selectTokens(tx).where(eq(apiTokens.tokenCode, tokenCode));
        if (!row) throw new Error('The token just created was not found');
        const record = toRecord(row, now);
        await recordAudit(tx, {
          action: 'API_TOKEN_CREATED',
          collection: 'api tokens',
          recordCode: tokenCode,
          // The prefix identifies the token in a scanner's report; the secret is never recorded.
          after: {
            name: record.name,
            roleCode: record.role.roleCode,
            tokenPrefix: record.tokenPrefix,
            expiresAt: record.expiresAt,
            allowedAddresses: record.allowedAddresses,
          },
          actor,
        });
        return record;
      });
      return {
        message: 'API token created: copy the secret now, it will not be shown again',
        data: { ...created, token: secret },
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetApiTokens',
    summary: 'Every API token, newest first, with its status and last use; never a secret',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    response: apiTokenRecordSchema,
    listed: true,
    async handler({ services }) {
      const now = new Date();
      const rows = await selectTokens(services.db).orderBy(desc(apiTokens.id));
      return {
        message: 'API tokens fetched successfully',
        data: rows.map((r) => toRecord(r, now)),
        total: rows.length,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetApiTokenRoles',
    summary:
      'The roles the caller may give a token (every permission of each held, at least as far), by name: the create form offers these',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    response: apiTokenRoleSchema,
    listed: true,
    // Not GetRoles: managing integrations must not need the right to view every role.
    async handler({ session, services }) {
      const rows = await services.db
        .select({
          roleCode: roles.roleCode,
          roleName: roles.roleName,
          name: permissions.permissionName,
          scope: rolePermissions.scope,
        })
        .from(roles)
        .leftJoin(rolePermissions, eq(rolePermissions.roleCode, roles.roleCode))
        .leftJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
        .orderBy(asc(sql`lower(${roles.roleName})`), asc(roles.roleCode));
      const everything = holdsEverything(session);
      const given = new Map<string, { roleCode: string; roleName: string; ok: boolean }>();
      for (const r of rows) {
        const role = given.get(r.roleCode) ?? { roleCode: r.roleCode, roleName: r.roleName, ok: true };
        if (r.name && r.scope && !everything && !mayGive(session, r.name, r.scope)) role.ok = false;
        given.set(r.roleCode, role);
      }
      const data = [...given.values()]
        .filter((r) => r.ok)
        .map(({ roleCode, roleName }) => ({ roleCode, roleName }));
      return { message: 'Roles fetched successfully', data, total: data.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'RevokeApiToken',
    summary: 'Revokes an API token: its next call, on any instance, is refused with 401',
    tag: 'Integrations',
    access: MANAGE,
    sessionOnly: true,
    body: revokeApiTokenSchema,
    response: apiTokenRecordSchema,
    answers: { 404: 'No API token with that code', 409: 'The token was already revoked' },
    async handler({ body, actor, services }) {
      const now = new Date();
      const record = await services.db.transaction(async (tx) => {
        // Writing the row is what ends the token on every instance: each drops its kept lookup.
        const revoked = await tx
          .update(apiTokens)
          .set({ revokedAt: now })
          .where(and(eq(apiTokens.tokenCode, body.tokenCode), isNull(apiTokens.revokedAt)))
          .returning({ tokenCode: apiTokens.tokenCode });
        if (!revoked.length) {
          const [exists] = await tx
            .select({ one: sql`1` })
            .from(apiTokens)
            .where(eq(apiTokens.tokenCode, body.tokenCode));
          if (!exists) throw notFound('API token not found');
          throw new ApiError(409, 'The API token was already revoked');
        }
        const [row] = await selectTokens(tx).where(eq(apiTokens.tokenCode, body.tokenCode));
        if (!row) throw notFound('API token not found');
        const out = toRecord(row, now);
        await recordAudit(tx, {
          action: 'API_TOKEN_REVOKED',
          collection: 'api tokens',
          recordCode: out.tokenCode,
          after: { name: out.name, tokenPrefix: out.tokenPrefix },
          actor,
        });
        return out;
      });
      return { message: 'API token revoked', data: record };
    },
  }),
];
