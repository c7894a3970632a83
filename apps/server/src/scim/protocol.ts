import { ZodError } from 'zod';
import type { ApiError } from '../http/envelope.ts';
import { pgError, toApiError } from '../http/errors.ts';

/*
 * The parts of SCIM 2.0 (RFC 7643, RFC 7644) every endpoint shares: names, media type, errors.
 */

export const SCIM_PREFIX = '/scim/v2';
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The `scimType` values of RFC 7644 section 3.12 that the console answers. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'mutability'
  | 'noTarget'
  | 'uniqueness'
  | 'tooMany';

/** A refusal in SCIM's terms: the status, and the `scimType` where the RFC names one. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const scimNotFound = (what: string, id: string) =>
  new ScimError(404, `${what} ${JSON.stringify(id)} not found`);

/** The console's refusal with the fields it names, as one sentence. */
function detailOf(api: ApiError): string {
  const fields = (api.errors ?? []).filter((e) => e.message !== api.message);
  if (fields.length === 0) return api.message;
  return `${api.message}: ${fields.map((e) => (e.field === '_' ? e.message : `${e.field}: ${e.message}`)).join('; ')}`;
}

/**
 * Pure: any refusal as SCIM's. The write path's refusals (delegation, a taken name, a role still
 * held) keep their status and message; a 409 about a unique value is `uniqueness`.
 */
export function toScimError(err: unknown): ScimError {
  if (err instanceof ScimError) return err;
  if (err instanceof ZodError) return invalidValue(detailOf(toApiError(err)));
  const api = toApiError(err);
  // A write based on a version that is no longer current (`If-Match`): RFC 7644 section 3.14.
  if (api.answer) return new ScimError(412, api.message);
  const scimType: ScimType | undefined =
    api.statusCode === 400
      ? 'invalidValue'
      : api.statusCode === 409 && isUniqueness(err)
        ? 'uniqueness'
        : undefined;
  return new ScimError(api.statusCode, detailOf(api), scimType, api.headers);
}

/** A unique key refused the value (not a version conflict or a record still in use). */
const isUniqueness = (err: unknown) => pgError(err)?.code === '23505';

/** The body of a SCIM error answer (RFC 7644 section 3.12): `status` is a string. */
export const errorBody = (e: ScimError) => ({
  schemas: [SCHEMA.error],
  status: String(e.status),
  ...(e.scimType ? { scimType: e.scimType } : {}),
  detail: e.detail,
});

/** `W/"3"`: the weak entity tag of a record's version (RFC 7644 section 3.14). */
export const versionTag = (version: unknown) => `W/"${String(version)}"`;

/**
 * Pure: a SCIM boolean as identity providers send it. Microsoft Entra ID has sent "True" and
 * "False" as strings; anything else is refused.
 */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${attribute} must be true or false`);
}

/** Pure: a SCIM string attribute, or a refusal naming it. */
export function scimString(value: unknown, attribute: string): string {
  if (typeof value === 'string') return value;
  throw invalidValue(`${attribute} must be a string`);
}
