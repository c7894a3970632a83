import { ALL_PERMISSION_NAMES } from '@wfc/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../../src/app.ts';
import { testConfig } from '../../../src/config/config.ts';
import { type Access, type ApiRoute, anyOf, registerApiRoutes } from '../../../src/http/routes.ts';
import { makeServices } from '../../../src/services.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';

const t = sharedTestApp();

const routes = allRoutes();
const label = (r: ApiRoute) => `${r.method} /api/${r.path}`;
const url = (r: ApiRoute) =>
  `/api/${r.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'variant' ? 'thumbnail' : `${name}-X`))}`;

const call = (r: ApiRoute, cookie?: string) =>
  t.app.inject({
    method: r.method,
    url: url(r),
    ...(r.method === 'POST'
      ? {
          payload: '',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        }
      : { headers: cookie ? { cookie } : {} }),
  });

/** One session per permission set, made on demand; sign-out gets a fresh one each time. */
const sessions = new Map<string, string>();
async function cookieFor(names: readonly string[], fresh = false) {
  const key = [...names].sort().join(',');
  if (!fresh && sessions.has(key)) return sessions.get(key)!;
  const { cookie } = await t.userWith(names, { signIn: 'session' });
  if (!fresh) sessions.set(key, cookie);
  return cookie;
}

const needed = (a: Access): readonly string[] => (a.kind === 'any' || a.kind === 'all' ? a.permissions : []);

/** The weakest sets of permissions that satisfy the rule, and the strongest that do not. */
function grantsAndDenials(a: Access): { grants: string[][]; denials: string[][] } {
  if (a.kind === 'session') return { grants: [[]], denials: [] };
  if (a.kind === 'any') {
    return {
      grants: a.permissions.map((p) => [p]),
      denials: [ALL_PERMISSION_NAMES.filter((p) => !a.permissions.includes(p))],
    };
  }
  if (a.kind === 'all') {
    return {
      grants: [[...a.permissions]],
      denials: a.permissions.map((missing) => ALL_PERMISSION_NAMES.filter((p) => p !== missing)),
    };
  }
  return { grants: [], denials: [] };
}

describe('every route declares who may call it', () => {
  it('has an access rule naming real permissions; only sign-in (its second step, single sign-on), health and metrics are public', () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const r of routes) {
      expect(['public', 'session', 'any', 'all'], label(r)).toContain(r.access.kind);
      if (r.access.kind === 'any' || r.access.kind === 'all') {
        expect(r.access.permissions.length, label(r)).toBeGreaterThan(0);
        for (const p of r.access.permissions) expect(ALL_PERMISSION_NAMES, label(r)).toContain(p);
      }
    }
    expect(routes.filter((r) => r.access.kind === 'public').map(label)).toEqual([
      'POST /api/login',
      'POST /api/VerifyMfa',
      'GET /api/GetSignInOptions',
      'GET /api/oidc/login',
      'GET /api/oidc/callback',
      'GET /api/health',
      'GET /api/health/live',
      'GET /api/health/ready',
      'GET /api/metrics',
    ]);
  });

  it('refuses to register a route without one', async () => {
    const app = Fastify();
    const services = makeServices(t.handle.db, testConfig());
    const open = {
      method: 'GET' as const,
      path: 'Open',
      summary: '',
      tag: '',
      handler: async () => ({ message: '' }),
    };
    expect(() => registerApiRoutes(app, [open as unknown as ApiRoute], services)).toThrow(
      'Route without access rule: GET Open',
    );
    const ok = { ...open, access: anyOf('VIEW_ROLES') };
    expect(() => registerApiRoutes(Fastify(), [ok], services)).not.toThrow();
    await app.close();
  });

  it('create, update and delete each need exactly the matching permission', () => {
    const writes = routes.filter((r) => /^(Create|Update|Delete)[A-Z]/.test(r.path) || r.path === 'register');
    expect(writes.length).toBeGreaterThan(25);
    for (const r of writes) {
      const action =
        r.path === 'register' ? 'CREATE' : r.path.match(/^(Create|Update|Delete)/)![1]!.toUpperCase();
      const perms = needed(r.access);
      if (r.path === 'CreateUpdatePerformances') {
        expect(r.access).toEqual({ kind: 'all', permissions: ['CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'] });
        continue;
      }
      // An API token or a webhook is no registry record: the integrations permission governs it.
      if (['CreateApiToken', 'CreateWebhook', 'UpdateWebhook', 'DeleteWebhook'].includes(r.path)) {
        expect(r.access).toEqual({ kind: 'any', permissions: ['MANAGE_INTEGRATIONS'] });
        continue;
      }
      expect(r.access.kind, label(r)).toBe('any');
      expect(perms, label(r)).toHaveLength(1);
      expect(perms[0]!.startsWith(`${action}_`), label(r)).toBe(true);
    }
  });
});

describe('authorization matrix: every endpoint × {no session, without the permission, with it}', () => {
  for (const r of routes) {
    it(`${label(r)} (${r.access.kind}${needed(r.access).length ? `: ${needed(r.access).join(' | ')}` : ''})`, async () => {
      if (r.access.kind !== 'public') {
        const anonymous = await call(r);
        expect(expectEnvelope(anonymous, 401).message).toBe('Not signed in');
      }
      const { grants, denials } = grantsAndDenials(r.access);
      for (const names of denials) {
        const res = await call(r, await cookieFor(names));
        expect(expectEnvelope(res, 403).message, `${label(r)} without ${needed(r.access).join(',')}`).toBe(
          'You do not have permission to do this',
        );
      }
      for (const names of grants) {
        const res = await call(r, await cookieFor(names, r.path === 'logout'));
        expect(
          [401, 403],
          `${label(r)} with [${names.join(',')}]: ${res.statusCode} ${res.body}`,
        ).not.toContain(res.statusCode);
        expect(res.statusCode, res.body).toBeLessThan(500);
      }
    });
  }
});
