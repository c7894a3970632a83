import { z } from 'zod';
import { API_PREFIX, type ApiRoute } from './routes.ts';

const envelope = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    data: {},
    total: { type: 'integer' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
  required: ['statusCode', 'message'],
};

const LIST_PARAMS = ['page', 'limit', 'keyword', 'sortField', 'sortValue', 'projection', 'populate'];

function describeAccess(route: ApiRoute): string {
  const a = route.access;
  if (a.kind === 'public') return 'Public.';
  if (a.kind === 'session') return 'Any signed-in user.';
  return `Needs ${a.kind === 'any' ? 'one of' : 'all of'}: ${a.permissions.join(', ')}.`;
}

/** OpenAPI 3.1 from the route table: the same Zod schemas that validate the requests. */
export function buildOpenApi(routes: readonly ApiRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = `${API_PREFIX}/${r.path.replace(/:(\w+)/g, '{$1}')}`;
    const body = r.body ? z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) : undefined;
    const params = [
      ...[...r.path.matchAll(/:(\w+)/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...(r.path.startsWith('Get') && (r.method === 'GET' || r.path.includes('By'))
        ? LIST_PARAMS.map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }))
        : []),
    ];
    paths[path] = {
      ...paths[path],
      [r.method.toLowerCase()]: {
        summary: r.summary,
        description: describeAccess(r),
        tags: [r.tag],
        'x-access': r.access,
        ...(params.length ? { parameters: params } : {}),
        ...(body
          ? {
              requestBody: {
                content: {
                  'application/x-www-form-urlencoded': { schema: body },
                  'application/json': { schema: body },
                  ...(r.multipart ? { 'multipart/form-data': { schema: body } } : {}),
                },
              },
            }
          : {}),
        responses: Object.fromEntries(
          [200, 400, 401, 403, 404, 409, 429, 500].map((code) => [
            String(code),
            { description: String(code), content: { 'application/json': { schema: envelope } } },
          ]),
        ),
        ...(r.access.kind === 'public' ? {} : { security: [{ session: [] }] }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Workforce Console API', version: '1.0.0' },
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    paths,
  };
}
