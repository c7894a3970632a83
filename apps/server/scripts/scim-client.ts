/**
 * A SCIM 2.0 client that runs the flow an identity provider (Okta, Microsoft Entra ID) runs
 * against the console, and checks every answer against the RFC 7643 schemas:
 *
 *   SCIM_TOKEN=wfc_... npx tsx apps/server/scripts/scim-client.ts https://console.example.com/scim/v2
 *
 * It creates a user and a group of its own (named scim-check-...), disables and enables the
 * user, moves them into the group and out, and deletes both. The token's role needs VIEW_USERS,
 * CREATE_USER, UPDATE_USER, DELETE_USER, VIEW_ROLES, CREATE_ROLE, UPDATE_ROLE and DELETE_ROLE.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import {
  listResponseSchema,
  resourceTypeSchema,
  SCIM,
  type ScimGroup,
  type ScimUser,
  schemaDefinitionSchema,
  scimErrorSchema,
  scimGroupSchema,
  scimUserSchema,
  serviceProviderConfigSchema,
} from '../test/support/scim-schemas.ts';

export interface FlowOptions {
  /** The user's name; by default scim-check-<random>. */
  userName?: string;
  /** Set: the user is created with it and can sign in with a password too. */
  password?: string;
  /** Called after each step that changes the user, so a caller can look at the console meanwhile. */
  after?: (step: 'created' | 'disabled' | 'enabled' | 'joined' | 'left', user: ScimUser) => Promise<void>;
  log?: (line: string) => void;
}

export interface FlowResult {
  user: ScimUser;
  group: ScimGroup;
  /** The group a user goes back to when they leave one (the default role's). */
  defaultGroupId: string | undefined;
}

class ScimClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call<T extends z.ZodType>(
    method: string,
    path: string,
    expected: number,
    schema: T | undefined,
    body?: unknown,
  ): Promise<z.output<T>> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${res.status} ${text.slice(0, 500)}`);
    }
    if (!schema) return undefined as z.output<T>;
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/scim+json')) throw new Error(`${method} ${path}: content type ${type}`);
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new Error(
        `${method} ${path}: the answer does not validate: ${parsed.error.message}\n${text.slice(0, 500)}`,
      );
    }
    return parsed.data;
  }
}

const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`Check failed: ${what}`);
};

const users = listResponseSchema(scimUserSchema);
const groups = listResponseSchema(scimGroupSchema);
const filterBy = (attribute: string, value: string) =>
  `filter=${encodeURIComponent(`${attribute} eq ${JSON.stringify(value)}`)}`;

/** The whole flow; throws at the first answer that is not what an identity provider expects. */
export async function runScimFlow(
  base: string,
  token: string,
  options: FlowOptions = {},
): Promise<FlowResult> {
  const scim = new ScimClient(base.replace(/\/+$/, ''), token);
  const log = options.log ?? (() => {});
  const suffix = randomBytes(4).toString('hex');
  const userName = options.userName ?? `scim-check-${suffix}`;
  const after = options.after ?? (async () => {});

  const config = await scim.call('GET', '/ServiceProviderConfig', 200, serviceProviderConfigSchema);
  check(config.patch.supported && config.filter.supported, 'PATCH and filters are supported');
  const types = await scim.call('GET', '/ResourceTypes', 200, listResponseSchema(resourceTypeSchema));
  check(
    types.Resources?.map((t) => t.name)
      .sort()
      .join() === 'Group,User',
    'resource types User and Group',
  );
  await scim.call('GET', '/Schemas', 200, listResponseSchema(schemaDefinitionSchema));
  log('discovery: ServiceProviderConfig, ResourceTypes and Schemas validate');

  // Okta asks whether the user exists before it creates them.
  const none = await scim.call('GET', `/Users?${filterBy('userName', userName)}`, 200, users);
  check(none.totalResults === 0, `no user ${userName} yet`);

  const externalId = `idp-${suffix}`;
  let user = await scim.call('POST', '/Users', 201, scimUserSchema, {
    schemas: [SCIM.user],
    userName,
    externalId,
    name: { givenName: 'Scim', familyName: 'Check' },
    emails: [{ value: `${userName}@example.com`, type: 'work', primary: true }],
    active: true,
    ...(options.password ? { password: options.password } : {}),
  });
  check(
    user.userName === userName && user.externalId === externalId && user.active === true,
    'created as sent',
  );
  check(user.emails?.[0]?.value === `${userName}@example.com`, 'the email kept');
  const defaultGroupId = user.groups?.[0]?.value;
  log(`created ${user.id} (${userName}) in group ${defaultGroupId}`);
  await after('created', user);

  const found = await scim.call('GET', `/Users?${filterBy('userName', userName.toUpperCase())}`, 200, users);
  check(found.totalResults === 1 && found.Resources?.[0]?.id === user.id, 'the filter finds it, in any case');
  const byExternal = await scim.call('GET', `/Users?${filterBy('externalId', externalId)}`, 200, users);
  check(byExternal.Resources?.[0]?.id === user.id, 'the filter by externalId finds it');
  const got = await scim.call('GET', `/Users/${user.id}`, 200, scimUserSchema);
  check(got.meta.version === user.meta.version, 'GET answers what POST did');

  // Okta disables with a value object, Microsoft Entra ID with a path and a string.
  user = await scim.call('PATCH', `/Users/${user.id}`, 200, scimUserSchema, {
    schemas: [SCIM.patchOp],
    Operations: [{ op: 'replace', value: { active: false } }],
  });
  check(user.active === false, 'disabled');
  log('disabled');
  await after('disabled', user);
  user = await scim.call('PATCH', `/Users/${user.id}`, 200, scimUserSchema, {
    schemas: [SCIM.patchOp],
    Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
  });
  check(user.active === true, 'enabled');
  log('enabled');
  await after('enabled', user);

  user = await scim.call('PATCH', `/Users/${user.id}`, 200, scimUserSchema, {
    schemas: [SCIM.patchOp],
    Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: `${userName}@example.org` }],
  });
  check(user.emails?.[0]?.value === `${userName}@example.org`, 'the email replaced');

  const displayName = `scim-check-group-${suffix}`;
  let group = await scim.call('POST', '/Groups', 201, scimGroupSchema, {
    schemas: [SCIM.group],
    displayName,
    externalId: `idp-group-${suffix}`,
  });
  check(group.displayName === displayName && (group.members ?? []).length === 0, 'group created, empty');
  const listed = await scim.call('GET', `/Groups?${filterBy('displayName', displayName)}`, 200, groups);
  check(listed.totalResults === 1 && listed.Resources?.[0]?.id === group.id, 'the group filter finds it');

  group = await scim.call('PATCH', `/Groups/${group.id}`, 200, scimGroupSchema, {
    schemas: [SCIM.patchOp],
    Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }],
  });
  check(group.members?.some((m) => m.value === user.id) === true, 'member added');
  user = await scim.call('GET', `/Users/${user.id}`, 200, scimUserSchema);
  check(user.groups?.[0]?.value === group.id, "the user's group is the new one");
  log(`joined ${group.id}`);
  await after('joined', user);

  group = await scim.call('PATCH', `/Groups/${group.id}`, 200, scimGroupSchema, {
    schemas: [SCIM.patchOp],
    Operations: [{ op: 'remove', path: `members[value eq "${user.id}"]` }],
  });
  check(!group.members?.some((m) => m.value === user.id), 'member removed');
  user = await scim.call('GET', `/Users/${user.id}`, 200, scimUserSchema);
  check(user.groups?.[0]?.value === defaultGroupId, 'the user is back in the default group');
  log('left');
  await after('left', user);

  group = await scim.call('PUT', `/Groups/${group.id}`, 200, scimGroupSchema, {
    schemas: [SCIM.group],
    displayName: `${displayName}-renamed`,
    externalId: `idp-group-${suffix}`,
  });
  check(group.displayName === `${displayName}-renamed`, 'group renamed');

  await scim.call('DELETE', `/Users/${user.id}`, 204, undefined);
  await scim.call('GET', `/Users/${user.id}`, 404, scimErrorSchema);
  await scim.call('DELETE', `/Groups/${group.id}`, 204, undefined);
  await scim.call('GET', `/Groups/${group.id}`, 404, scimErrorSchema);
  log('deleted the user and the group');
  return { user, group, defaultGroupId };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [base] = process.argv.slice(2);
  const token = process.env.SCIM_TOKEN;
  if (!base || !token) {
    console.error('Usage: SCIM_TOKEN=wfc_... tsx apps/server/scripts/scim-client.ts https://<host>/scim/v2');
    process.exit(2);
  }
  runScimFlow(base, token, { log: (line) => console.log(line) }).then(
    () => console.log('SCIM flow passed'),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
