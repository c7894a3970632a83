import { MAX_LIMIT } from '@wfc/contract';
import { z } from 'zod';
import { API_PREFIX, type ApiRoute } from './routes.ts';
import { XLSX_TYPE } from './xlsx.ts';

/*
 * OpenAPI 3.1 from the route table: requests from the same Zod schemas that validate them,
 * answers from the contract's record schemas, which the API tests check every answer against.
 */

const COMPONENTS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${COMPONENTS}${name}` });

const fieldError = {
  type: 'object',
  properties: { field: { type: 'string' }, message: { type: 'string' } },
  required: ['field', 'message'],
};

/** Every refusal: the status again, a message, and for a 400 the fields at fault. */
const errorEnvelope = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    errors: { type: 'array', items: ref('FieldError') },
    data: { description: 'A 409 on a stale version: the record as it now stands, or null if deleted.' },
  },
  required: ['statusCode', 'message'],
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`errors` names each field at fault), or a malformed URL',
  401: 'Not signed in, or the API token is unknown, revoked or expired',
  403: 'The session or API token lacks a permission this call needs, the token may not be used from this address or for this call, or a state-changing request came from another site',
  404: 'No record with that code',
  409: 'A conflict: a duplicate, a record still referenced, or a stale version',
  413: 'The body or file is too large',
  414: 'The URL is too long',
  415: 'The body is of a media type the call does not take',
  429: 'Too many attempts, or too many calls with this API token: see Retry-After',
  500: 'An unexpected error',
  503: 'The database is unavailable, or the server is still starting: see Retry-After',
};

/** Whether an API token may make this call: every guarded route but those kept for a signed-in user. */
const tokenMayCall = (r: ApiRoute) => r.access.kind !== 'public' && !r.sessionOnly;

/** The refusals a route can really give, from what it declares. */
function errorStatuses(r: ApiRoute): number[] {
  // Any URL can be malformed (400); any state-changing request can be refused as cross-site (403).
  const statuses = new Set<number>([400, 500, 503]);
  if (r.body) statuses.add(413).add(415);
  if (r.access.kind !== 'public') statuses.add(401).add(403);
  // An API token's calls are rate-limited per token.
  if (tokenMayCall(r)) statuses.add(429);
  if (r.method === 'POST') statuses.add(403);
  if (r.path.includes(':')) statuses.add(414);
  if (r.method === 'POST' && r.body && r.path !== 'login') statuses.add(404).add(409);
  if (r.path.includes(':')) statuses.add(404);
  // Wrong credentials are a 401 even though signing in needs no session.
  if (r.path === 'login') statuses.add(401).add(429);
  for (const status of Object.keys(r.answers ?? {})) statuses.add(Number(status));
  return [...statuses].sort();
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Auth: 'Signing in and out (with a second factor, or through single sign-on), and the signed-in user',
  Account:
    "The signed-in user's own password, sessions and two-factor sign-in; a user manager's calls about another user's",
  Performances: 'The Performance Snapshot: daily scores per employee and skill, their averages and export',
  Health: 'Whether the server answers (live), can serve (ready: database reachable, migrations applied)',
  Operations: 'Prometheus metrics, for a scraper holding METRICS_TOKEN',
  Integrations: 'API tokens for integrations: created, listed and revoked by holders of MANAGE_INTEGRATIONS',
  Search:
    "Records of every module the caller may view, by name, code or another identifier, within the caller's reach",
};

/** The shared description of a refusal, or the route's own meaning of it. */
function errorResponse(r: ApiRoute, status: number) {
  const own = r.answers?.[status];
  if (own === undefined) return { $ref: `#/components/responses/Error${status}` };
  return { description: own, content: { 'application/json': { schema: ref('ErrorEnvelope') } } };
}

function describeAccess(route: ApiRoute): string {
  const a = route.access;
  if (a.kind === 'public') return 'Public.';
  const tokens = route.sessionOnly ? ' A signed-in user only: API tokens are refused.' : '';
  if (a.kind === 'session')
    return route.sessionOnly ? `Any signed-in user.${tokens}` : 'Any signed-in user or API token.';
  return `Needs ${a.kind === 'any' ? 'one of' : 'all of'}: ${a.permissions.join(', ')}.${tokens}`;
}

/** A schema as JSON Schema; a record schema named in the contract becomes a reference to it. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const id = z.globalRegistry.get(schema)?.id;
  if (id && io === 'output') return ref(id);
  // A bulk write answers a list of named records: its items refer to the record's component too.
  if (io === 'output' && schema instanceof z.ZodArray) {
    return { type: 'array', items: jsonSchema(schema.element, io) };
  }
  // Restoring a version answers the record of whichever module the entry names: one of theirs.
  if (io === 'output' && schema instanceof z.ZodUnion) {
    return { anyOf: schema.options.map((option) => jsonSchema(option, io)) };
  }
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return json;
}

/** The named record schemas, each a component. */
function recordComponents(): Record<string, unknown> {
  const all = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENTS}${id}`,
  });
  return Object.fromEntries(
    Object.entries(all.schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]),
  );
}

function successSchema(r: ApiRoute) {
  const record = r.response ? jsonSchema(r.response, 'output') : {};
  const data = r.lookup ? { anyOf: [record, jsonSchema(r.lookup, 'output')] } : record;
  return {
    type: 'object',
    properties: {
      statusCode: { type: 'integer', const: 200 },
      message: { type: 'string' },
      data: r.listed ? { type: 'array', items: data } : data,
      ...(r.listed ? { total: { type: 'integer', minimum: 0 } } : {}),
    },
    required: ['statusCode', 'message', ...(r.listed ? ['data', 'total'] : r.response ? ['data'] : [])],
  };
}

function successContent(r: ApiRoute) {
  if (r.produces === 'text/csv') return { 'text/csv': { schema: { type: 'string' } } };
  if (r.produces === 'spreadsheet') {
    return {
      'text/csv': { schema: { type: 'string' } },
      [XLSX_TYPE]: { schema: { type: 'string', format: 'binary' } },
    };
  }
  if (r.produces === 'text/plain') return { 'text/plain': { schema: { type: 'string' } } };
  if (r.produces === 'application/zip') {
    return { 'application/zip': { schema: { type: 'string', format: 'binary' } } };
  }
  if (r.produces === 'image/*') {
    return Object.fromEntries(
      ['image/webp', 'image/jpeg', 'image/png'].map((t) => [
        t,
        { schema: { type: 'string', format: 'binary' } },
      ]),
    );
  }
  return { 'application/json': { schema: successSchema(r) } };
}

/**
 * The list parameters as a caller should send them. The server reads any text and normalises it
 * (a page below 1 is page 1, a limit above the maximum the maximum), so these say what is meant.
 */
const LIST_PARAMETERS: Record<string, object> = {
  keyword: { type: 'string', maxLength: 200, description: 'Matched against the searchable fields' },
  sortValue: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  page: { type: 'integer', minimum: 1, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 10 },
  projection: { type: 'boolean', default: true },
  populate: { type: 'boolean', default: true, description: 'false: references as codes only' },
};

/** Query parameters: the route's query schema's fields; a list's sort fields as an enum. */
function queryParameters(r: ApiRoute) {
  if (!r.query) return [];
  const schema = z.toJSONSchema(r.query, { io: 'input', unrepresentable: 'any' });
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema:
      name === 'sortField' && r.sortFields
        ? { type: 'string', enum: ['_id', ...r.sortFields], default: '_id' }
        : (LIST_PARAMETERS[name] ?? (r.listed ? { type: 'boolean', description: 'A list flag' } : property)),
  }));
}

/**
 * The call's name: its path less any path parameters (`health/live` is `healthLive`); a second
 * method on one path says which it is.
 */
function operationId(r: ApiRoute, taken: Set<string>) {
  const name = r.path
    .split('/')
    .filter((segment) => !segment.startsWith(':'))
    .map((segment, i) => (i === 0 ? segment : segment.charAt(0).toUpperCase() + segment.slice(1)))
    .join('');
  const id = taken.has(name) ? `${name}${r.method === 'GET' ? 'Get' : 'Post'}` : name;
  taken.add(id);
  return id;
}

export function buildOpenApi(routes: readonly ApiRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  const taken = new Set<string>();
  for (const r of routes) {
    const path = `${API_PREFIX}/${r.path.replace(/:(\w+)/g, '{$1}')}`;
    const body = r.body ? jsonSchema(r.body, 'input') : undefined;
    const parameters = [
      ...[...r.path.matchAll(/:(\w+)/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...queryParameters(r),
    ];
    paths[path] = {
      ...paths[path],
      [r.method.toLowerCase()]: {
        operationId: operationId(r, taken),
        summary: r.summary,
        description: describeAccess(r),
        tags: [r.tag],
        'x-access': r.access,
        ...(parameters.length ? { parameters } : {}),
        ...(body
          ? {
              requestBody: {
                required: true,
                content: {
                  'application/x-www-form-urlencoded': { schema: body },
                  'application/json': { schema: body },
                  ...(r.multipart ? { 'multipart/form-data': { schema: body } } : {}),
                },
              },
            }
          : {}),
        responses: {
          200: { description: 'Done', content: successContent(r) },
          ...Object.fromEntries(errorStatuses(r).map((status) => [status, errorResponse(r, status)])),
        },
        security:
          r.access.kind === 'public' ? [] : [{ session: [] }, ...(tokenMayCall(r) ? [{ apiToken: [] }] : [])],
      },
    };
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `${name}: lists, single records and changes`,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workforce Console API',
      version: '1.0.0',
      description: 'Every answer is a JSON envelope whose statusCode equals the HTTP status.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Workforce Console administrators' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid' },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token (`wfc_...`) an administrator created under Integrations > API tokens, sent as `Authorization: Bearer`: no cookie and no origin check; rate-limited per token',
        },
      },
      schemas: { ...recordComponents(), FieldError: fieldError, ErrorEnvelope: errorEnvelope },
      responses: Object.fromEntries(
        Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
          `Error${status}`,
          { description, content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
        ]),
      ),
    },
    paths,
  };
}
