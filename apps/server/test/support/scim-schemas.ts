import { z } from 'zod';

/*
 * The SCIM 2.0 messages as RFC 7643 and RFC 7644 define them, written from the RFCs (not from the
 * server), to validate what the service provider answers: required attributes, their types, and
 * the URNs each message names.
 */

export const SCIM = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

const schemasHolding = (urn: string) =>
  z.array(z.string()).refine((s) => s.includes(urn), { message: `schemas must hold ${urn}` });

/** RFC 3339 date-time (RFC 7643 section 2.3.5). */
const dateTime = z.iso.datetime({ offset: true });

/** RFC 7643 section 3.1: `meta`, read-only, on every resource. */
const meta = (resourceType: string) =>
  z.strictObject({
    resourceType: z.literal(resourceType),
    created: dateTime,
    lastModified: dateTime,
    location: z.url(),
    version: z.string().regex(/^W\/".+"$/),
  });

/** RFC 7643 section 3.1: `id` is never "bulkId", and `externalId` is set by the client. */
const common = {
  id: z
    .string()
    .min(1)
    .refine((id) => id !== 'bulkId'),
  externalId: z.string().optional(),
};

const multiValued = z.looseObject({
  value: z.string(),
  display: z.string().optional(),
  type: z.string().optional(),
  primary: z.boolean().optional(),
  $ref: z.url().optional(),
});

/** RFC 7643 section 4.1: `userName` is required; `password` is never returned. */
export const scimUserSchema = z
  .looseObject({
    schemas: schemasHolding(SCIM.user),
    ...common,
    userName: z.string().min(1),
    active: z.boolean().optional(),
    emails: z.array(multiValued).optional(),
    groups: z.array(multiValued).optional(),
    meta: meta('User'),
  })
  .refine((u) => !('password' in u), { message: 'password is never returned' })
  .refine((u) => (u.emails ?? []).filter((e) => e.primary).length <= 1, {
    message: 'at most one primary email',
  });

/** RFC 7643 section 4.2: `displayName` is required. */
export const scimGroupSchema = z.looseObject({
  schemas: schemasHolding(SCIM.group),
  ...common,
  displayName: z.string().min(1),
  members: z.array(multiValued).optional(),
  meta: meta('Group'),
});

/** RFC 7644 section 3.4.2: `totalResults` is required; `Resources` when there are any. */
export const listResponseSchema = <T extends z.ZodType>(resource: T) =>
  z
    .strictObject({
      schemas: z.tuple([z.literal(SCIM.listResponse)]),
      totalResults: z.number().int().nonnegative(),
      startIndex: z.number().int().positive().optional(),
      itemsPerPage: z.number().int().nonnegative().optional(),
      Resources: z.array(resource).optional(),
    })
    .refine((l) => (l.Resources?.length ?? 0) <= l.totalResults, {
      message: 'Resources cannot exceed totalResults',
    });

/** RFC 7644 section 3.12: `status` is a string; `scimType` one of the listed keywords. */
export const scimErrorSchema = z.strictObject({
  schemas: z.tuple([z.literal(SCIM.error)]),
  status: z.string().regex(/^[45]\d\d$/),
  scimType: z
    .enum([
      'invalidFilter',
      'tooMany',
      'uniqueness',
      'mutability',
      'invalidSyntax',
      'invalidPath',
      'noTarget',
      'invalidValue',
      'invalidVers',
      'sensitive',
    ])
    .optional(),
  detail: z.string().optional(),
});

const supported = z.looseObject({ supported: z.boolean() });

/** RFC 7643 section 5. */
export const serviceProviderConfigSchema = z.looseObject({
  schemas: schemasHolding(SCIM.serviceProviderConfig),
  patch: supported,
  bulk: supported.extend({ maxOperations: z.number().int(), maxPayloadSize: z.number().int() }),
  filter: supported.extend({ maxResults: z.number().int() }),
  changePassword: supported,
  sort: supported,
  etag: supported,
  authenticationSchemes: z.array(
    z.looseObject({ type: z.string(), name: z.string(), description: z.string() }),
  ),
});

/** RFC 7643 section 6. */
export const resourceTypeSchema = z.looseObject({
  schemas: schemasHolding(SCIM.resourceType),
  id: z.string().optional(),
  name: z.string(),
  endpoint: z.string().startsWith('/'),
  schema: z.string().startsWith('urn:'),
});

const attributeDefinition: z.ZodType = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.enum(['string', 'boolean', 'decimal', 'integer', 'dateTime', 'reference', 'complex', 'binary']),
    multiValued: z.boolean(),
    required: z.boolean(),
    mutability: z.enum(['readOnly', 'readWrite', 'immutable', 'writeOnly']),
    returned: z.enum(['always', 'never', 'default', 'request']),
    uniqueness: z.enum(['none', 'server', 'global']),
    subAttributes: z.array(attributeDefinition).optional(),
  }),
);

/** RFC 7643 section 7. */
export const schemaDefinitionSchema = z.looseObject({
  schemas: schemasHolding(SCIM.schema),
  id: z.string().startsWith('urn:'),
  name: z.string(),
  attributes: z.array(attributeDefinition),
});

export type ScimUser = z.infer<typeof scimUserSchema>;
export type ScimGroup = z.infer<typeof scimGroupSchema>;
