import { MAX_PAGE } from './messages.ts';
import { SCHEMA } from './protocol.ts';

/*
 * What the service provider says of itself (RFC 7643 sections 5-7, RFC 7644 section 4): the
 * features it has, its two resource types, and the attributes of their schemas that it keeps.
 */

const meta = (base: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${base}/${path}`,
});

export const serviceProviderConfig = (base: string) => ({
  schemas: [SCHEMA.serviceProviderConfig],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_PAGE },
  changePassword: { supported: true },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'API token',
      description: 'An API token of the console (wfc_...) sent as Authorization: Bearer',
      primary: true,
    },
  ],
  meta: meta(base, 'ServiceProviderConfig', 'ServiceProviderConfig'),
});

const resourceTypes = [
  { id: 'User', name: 'User', endpoint: '/Users', description: 'Console users', schema: SCHEMA.user },
  { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Roles', schema: SCHEMA.group },
] as const;

export const resourceTypeList = (base: string) =>
  resourceTypes.map((t) => ({
    schemas: [SCHEMA.resourceType],
    ...t,
    meta: meta(base, 'ResourceType', `ResourceTypes/${t.id}`),
  }));

type Attribute = Record<string, unknown>;

const attribute = (name: string, more: Attribute = {}): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  description: '',
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...more,
});

const userAttributes = [
  attribute('userName', {
    description: 'The console username: letters, digits, dots, dashes and underscores, 3 to 50',
    required: true,
    uniqueness: 'server',
  }),
  attribute('active', { type: 'boolean', description: 'A disabled user cannot sign in' }),
  attribute('password', {
    description:
      'Honoured under the console password rules; without one the user signs in through single sign-on',
    mutability: 'writeOnly',
    returned: 'never',
  }),
  attribute('emails', {
    type: 'complex',
    multiValued: true,
    required: true,
    description: 'The user’s one email: the primary one, else the work one',
    subAttributes: [
      attribute('value', { required: true }),
      attribute('type', { canonicalValues: ['work'] }),
      attribute('primary', { type: 'boolean' }),
    ],
  }),
  attribute('groups', {
    type: 'complex',
    multiValued: true,
    description: 'The user’s role; changed through the group’s members',
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', { mutability: 'readOnly' }),
      attribute('$ref', { type: 'reference', referenceTypes: ['Group'], mutability: 'readOnly' }),
      attribute('display', { mutability: 'readOnly' }),
      attribute('type', { mutability: 'readOnly', canonicalValues: ['direct'] }),
    ],
  }),
];

const groupAttributes = [
  attribute('displayName', { description: 'The role’s name', required: true, uniqueness: 'server' }),
  attribute('members', {
    type: 'complex',
    multiValued: true,
    description: 'The users who hold the role',
    subAttributes: [
      attribute('value', { mutability: 'immutable' }),
      attribute('$ref', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
      attribute('display', { mutability: 'readOnly' }),
      attribute('type', { mutability: 'immutable', canonicalValues: ['User'] }),
    ],
  }),
];

const schemas = [
  { id: SCHEMA.user, name: 'User', description: 'User Account', attributes: userAttributes },
  { id: SCHEMA.group, name: 'Group', description: 'Group (a role)', attributes: groupAttributes },
];

export const schemaList = (base: string) =>
  schemas.map((s) => ({ schemas: [SCHEMA.schema], ...s, meta: meta(base, 'Schema', `Schemas/${s.id}`) }));
