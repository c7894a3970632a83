import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withAuditContext } from '../audit/context.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import { newCode } from '../db/codes.ts';
import { roles } from '../db/schema/index.ts';
import type { SessionContext } from '../http/routes.ts';
import { roles$, users$ } from '../resources/definitions/access.ts';
import { fetchOne } from '../resources/read.ts';
import type { Row, ServerResource } from '../resources/server-resource.ts';
import type { Services } from '../services.ts';
import { ScimError } from './protocol.ts';

/*
 * Provisioning writes through the user and role definitions' own write path (resources/write.ts):
 * delegation, versions, audit, the recycle bin and every hook apply to them as to a user manager's
 * edit. The only addition is the identity provider's id (`externalId`), which no console form sets.
 */

/** A call of the SCIM API: the token's principal as a session, as every write expects. */
export type ScimContext = SessionContext<undefined, undefined>;

/** The same write context with a body: what createRecord and updateRecord read. */
export const withBody = <B>(ctx: ScimContext, body: B) => ({ ...ctx, body }) as SessionContext<B>;

/**
 * The definition with the one SCIM attribute the console's forms do not carry: the identity
 * provider's id (`externalId`), stored when the body names it. Everything else is the definition's.
 */
function withExternalId<R extends ServerResource>(res: R): R {
  const toRow = res.toRow;
  return {
    ...res,
    async toRow(input: Row, wctx: Parameters<NonNullable<R['toRow']>>[1], existing?: Row) {
      const row = toRow ? await toRow(input as never, wctx, existing) : {};
      const fields = new Map(Object.entries(input));
      return fields.has('externalId') ? { ...row, externalId: fields.get('externalId') ?? null } : row;
    },
  } as R;
}

export const provisionedUsers = withExternalId(users$);
export const provisionedRoles = withExternalId(roles$);

/** The built-in role of provisioned users when neither a group nor SCIM_DEFAULT_ROLE names one. */
export const PROVISIONED_ROLE = 'Provisioned';

async function roleNamed(db: Executor, name: string): Promise<string | undefined> {
  const [role] = await db
    .select({ roleCode: roles.roleCode })
    .from(roles)
    .where(sql`lower(${roles.roleName}) = lower(${name})`);
  return role?.roleCode;
}

/**
 * The role a provisioned user gets when the request names no group, and goes back to when a group
 * lets them go: the role SCIM_DEFAULT_ROLE names, else the built-in role without permissions (Home
 * and My account only). The built-in role is made on first need, by the console itself as
 * bootstrap makes the Administrator role (the token may hold no role permission), and audited.
 */
export async function defaultRole(ctx: ScimContext): Promise<string> {
  const { db, config } = ctx.services;
  if (config.SCIM_DEFAULT_ROLE) {
    const named = await roleNamed(db, config.SCIM_DEFAULT_ROLE);
    if (named) return named;
    throw new ScimError(500, `SCIM_DEFAULT_ROLE names no role: ${config.SCIM_DEFAULT_ROLE}`);
  }
  const existing = await roleNamed(db, PROVISIONED_ROLE);
  if (existing) return existing;
  await db.transaction(async (tx) => {
    const roleCode = newCode('ROLE-');
    // Made meanwhile by another call: the unique name keeps that one.
    const made = await tx
      .insert(roles)
      .values({ roleCode, roleName: PROVISIONED_ROLE, roleDescription: PROVISIONED_DESCRIPTION })
      .onConflictDoNothing()
      .returning({ roleCode: roles.roleCode });
    if (made.length === 0) return;
    await recordAudit(tx, {
      action: 'CREATE',
      collection: roles$.def.listSegment,
      recordCode: roleCode,
      after: await fetchOne(tx, roles$, roleCode),
      actor: null,
    });
  });
  const created = await roleNamed(db, PROVISIONED_ROLE);
  if (!created) throw new ScimError(500, 'The role for provisioned users could not be made');
  return created;
}

const PROVISIONED_DESCRIPTION =
  'Users provisioned by the identity provider without a group: Home and My account only';

/**
 * Nobody knows this password: the user signs in through single sign-on until someone sets one.
 * It meets the password rules like any other (a lowercase letter and a number).
 */
export const unusablePassword = () => `${randomBytes(32).toString('base64url')}a1`;

/** The write context of a SCIM call whose token check has passed. */
export function scimContext(req: FastifyRequest, reply: FastifyReply, services: Services): ScimContext {
  const session = req.session;
  if (!session) throw new ScimError(401, 'An API token is required');
  return {
    req,
    reply,
    session,
    actor: { userCode: session.userCode, username: session.username },
    body: undefined,
    query: undefined,
    services,
  };
}

/** Runs a SCIM handler as the console's routes run: audit entries name the request. */
export const asRequest = <T>(req: FastifyRequest, run: () => Promise<T>) =>
  withAuditContext({ requestId: req.id }, run);
