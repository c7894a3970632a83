import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withAuditContext } from '../audit/context.ts';
import { RefusalLimiter, recordRefusal } from '../audit/refusals.ts';
import { bearerToken } from '../auth/api-tokens.ts';
import { BODY_LIMIT, maxJsonValues, parseJsonBody } from '../http/body.ts';
import { allOf, sessionCookieName, tokenCheck } from '../http/routes.ts';
import type { Services } from '../services.ts';
import { resourceTypeList, schemaList, serviceProviderConfig } from './discovery.ts';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './groups.ts';
import { listResponse, pageOf } from './messages.ts';
import { errorBody, SCIM_MEDIA_TYPE, SCIM_PREFIX, ScimError, toScimError } from './protocol.ts';
import { type ScimContext, scimContext } from './provisioning.ts';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './users.ts';

/*
 * SCIM 2.0 provisioning at /scim/v2 (RFC 7644, the subset Okta and Microsoft Entra ID use). Its
 * own protocol, not the console's API: JSON in SCIM's media type, errors in SCIM's format, and no
 * place in the API description. Only an API token may call it, with the permissions each call
 * needs; the cookie and origin handling of the browser's calls never applies to it.
 */

/** The route table's refusal of a token whose role lacks a permission (http/routes.ts). */
const NO_PERMISSION = 'You do not have permission to do this';

type Handler = (ctx: ScimContext, call: Call) => Promise<{ status?: number; body?: unknown } | undefined>;

interface Call {
  req: FastifyRequest;
  /** The service provider's base URL as the client reached it: resources' `location` starts with it. */
  base: string;
  id: string;
  query: Record<string, unknown>;
  /** The version an `If-Match: W/"3"` names: a write based on an older one is refused (409). */
  version: number | undefined;
}

const ifMatchVersion = (header: string | undefined) => {
  const match = /^(?:W\/)?"(\d+)"$/.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : undefined;
};

/** `excludedAttributes=members`: Microsoft Entra ID lists groups without their members. */
const withMembers = (query: Record<string, unknown>) =>
  !String(query.excludedAttributes ?? '')
    .toLowerCase()
    .split(',')
    .map((a) => a.trim())
    .includes('members');

function send(reply: FastifyReply, status: number, body: unknown) {
  reply.code(status).header('Cache-Control', 'no-store').type(`${SCIM_MEDIA_TYPE}; charset=utf-8`);
  const location = (body as { meta?: { location?: unknown } } | undefined)?.meta?.location;
  if (status === 201 && typeof location === 'string') reply.header('Location', location);
  const version = (body as { meta?: { version?: unknown } } | undefined)?.meta?.version;
  if (typeof version === 'string') reply.header('ETag', version);
  return reply.send(JSON.stringify(body));
}

export async function scimRoutes(app: FastifyInstance, services: Services) {
  await app.register(
    async (scim) => {
      const cookieName = sessionCookieName(services.config.COOKIE_SECURE);
      const refusals = new RefusalLimiter();

      // Bodies in SCIM's media type are JSON, read as the API reads JSON (duplicate keys refused).
      scim.addContentTypeParser(
        SCIM_MEDIA_TYPE,
        { parseAs: 'string' },
        (_req: FastifyRequest, body: string | Buffer) =>
          parseJsonBody(String(body), maxJsonValues(BODY_LIMIT)),
      );

      scim.setErrorHandler(async (err, req, reply) => {
        const e = toScimError(err);
        if (e.status >= 500) req.log.error({ err }, 'SCIM request failed');
        if (e.status === 401 || e.status === 403) {
          const session = req.session;
          await withAuditContext({ requestId: req.id }, () =>
            recordRefusal(services.db, refusals, {
              status: e.status,
              reason: e.detail,
              method: req.method,
              route: (req.routeOptions.url ?? req.url.split('?')[0] ?? '').slice(0, 200),
              ip: req.ip,
              actor: session ? { userCode: session.userCode, username: session.username } : null,
            }),
          ).catch((error: unknown) => req.log.error({ err: error }, 'could not record a refused request'));
        }
        if (e.headers) reply.headers(e.headers);
        if (e.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="SCIM"');
        return send(reply, e.status, errorBody(e));
      });

      scim.setNotFoundHandler((req, reply) =>
        send(
          reply,
          404,
          errorBody(new ScimError(404, `No such endpoint: ${req.method} ${req.url.split('?')[0]}`)),
        ),
      );

      const route = (
        method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: string,
        permissions: readonly string[],
        handler: Handler,
      ) => {
        const access = allOf(...permissions);
        scim.route({
          method,
          url,
          // Before the body is read: an anonymous or unauthorised client sends it for nothing.
          onRequest: async (req) => {
            const secret = bearerToken(req.headers.authorization);
            if (secret === undefined)
              throw new ScimError(401, 'An API token is required (Authorization: Bearer wfc_...)');
            try {
              await tokenCheck({ access }, services, req, secret, req.cookies?.[cookieName]);
            } catch (err) {
              const e = toScimError(err);
              if (e.status !== 403 || !req.session || e.detail !== NO_PERMISSION) throw e;
              const missing = permissions.filter((p) => !req.session?.permissions.has(p));
              throw missing.length
                ? new ScimError(403, `The API token's role lacks ${missing.join(', ')}`)
                : e;
            }
          },
          handler: async (req, reply) => {
            const ctx = scimContext(req, reply, services);
            const call: Call = {
              req,
              base: `${req.protocol}://${req.host}${SCIM_PREFIX}`,
              id: String((req.params as { id?: string }).id ?? ''),
              query: req.query as Record<string, unknown>,
              version: ifMatchVersion(req.headers['if-match']),
            };
            const writes = method !== 'GET';
            let answer: Awaited<ReturnType<Handler>>;
            try {
              answer = await withAuditContext({ requestId: req.id }, () => handler(ctx, call));
            } finally {
              if (writes) await services.settle();
            }
            if (!answer) return reply.code(204).header('Cache-Control', 'no-store').send();
            return send(reply, answer.status ?? 200, answer.body);
          },
        });
      };

      const VIEW_USERS = ['VIEW_USERS'];
      route('GET', '/Users', VIEW_USERS, async (ctx, c) => {
        const page = pageOf(c.query);
        const { total, resources } = await listUsers(ctx, c.base, page);
        return { body: listResponse(page, total, resources) };
      });
      route('GET', '/Users/:id', VIEW_USERS, async (ctx, c) => ({ body: await getUser(ctx, c.base, c.id) }));
      route('POST', '/Users', [...VIEW_USERS, 'CREATE_USER'], async (ctx, c) => ({
        status: 201,
        body: await createUser(ctx, c.base, c.req.body),
      }));
      route('PUT', '/Users/:id', [...VIEW_USERS, 'UPDATE_USER'], async (ctx, c) => ({
        body: await replaceUser(ctx, c.base, c.id, c.req.body, c.version),
      }));
      route('PATCH', '/Users/:id', [...VIEW_USERS, 'UPDATE_USER'], async (ctx, c) => ({
        body: await patchUser(ctx, c.base, c.id, c.req.body, c.version),
      }));
      route('DELETE', '/Users/:id', [...VIEW_USERS, 'DELETE_USER'], async (ctx, c) => {
        await deleteUser(ctx, c.id, c.version);
        return undefined;
      });

      // A group's members are users: reading them needs VIEW_USERS too.
      const VIEW_GROUPS = ['VIEW_ROLES', 'VIEW_USERS'];
      route('GET', '/Groups', VIEW_GROUPS, async (ctx, c) => {
        const page = pageOf(c.query);
        const { total, resources } = await listGroups(ctx, c.base, page, withMembers(c.query));
        return { body: listResponse(page, total, resources) };
      });
      route('GET', '/Groups/:id', VIEW_GROUPS, async (ctx, c) => ({
        body: await getGroup(ctx, c.base, c.id, withMembers(c.query)),
      }));
      route('POST', '/Groups', [...VIEW_GROUPS, 'CREATE_ROLE'], async (ctx, c) => ({
        status: 201,
        body: await createGroup(ctx, c.base, c.req.body),
      }));
      route('PUT', '/Groups/:id', [...VIEW_GROUPS, 'UPDATE_ROLE'], async (ctx, c) => ({
        body: await replaceGroup(ctx, c.base, c.id, c.req.body),
      }));
      // Members alone need UPDATE_USER, a new name UPDATE_ROLE: the handler asks for what it does.
      route('PATCH', '/Groups/:id', VIEW_GROUPS, async (ctx, c) => ({
        body: await patchGroup(ctx, c.base, c.id, c.req.body),
      }));
      route('DELETE', '/Groups/:id', [...VIEW_GROUPS, 'DELETE_ROLE'], async (ctx, c) => {
        await deleteGroup(ctx, c.id);
        return undefined;
      });

      // Discovery: any valid token may read it.
      route('GET', '/ServiceProviderConfig', [], async (_ctx, c) => ({
        body: serviceProviderConfig(c.base),
      }));
      route('GET', '/ResourceTypes', [], async (_ctx, c) => {
        const all = resourceTypeList(c.base);
        return {
          body: listResponse({ filter: undefined, startIndex: 1, count: all.length }, all.length, all),
        };
      });
      route('GET', '/ResourceTypes/:id', [], async (_ctx, c) => {
        const found = resourceTypeList(c.base).find((t) => t.id === c.id);
        if (!found) throw new ScimError(404, `Resource type ${JSON.stringify(c.id)} not found`);
        return { body: found };
      });
      route('GET', '/Schemas', [], async (_ctx, c) => {
        const all = schemaList(c.base);
        return {
          body: listResponse({ filter: undefined, startIndex: 1, count: all.length }, all.length, all),
        };
      });
      route('GET', '/Schemas/:id', [], async (_ctx, c) => {
        const found = schemaList(c.base).find((s) => s.id === c.id);
        if (!found) throw new ScimError(404, `Schema ${JSON.stringify(c.id)} not found`);
        return { body: found };
      });
    },
    { prefix: SCIM_PREFIX },
  );
}
