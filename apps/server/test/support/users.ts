import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../src/auth/passwords.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { newCode } from '../../src/db/codes.ts';
import { permissions, rolePermissions, roles, users } from '../../src/db/schema/index.ts';
import { sessionCookieName } from '../../src/http/routes.ts';
import type { Services } from '../../src/services.ts';
import { loginCookie } from './requests.ts';

export const USER_PASSWORD = 'user-password-1';

/**
 * How a new user gets its cookie.
 * - `login`: through POST /api/login, as a browser does: one argon2 verification, an audited
 *   sign-in, and 127.0.0.1 becomes an address the account has signed in from.
 * - `session`: a session row written directly, for tests that need dozens of users.
 * - `none`: no cookie; the caller signs in, e.g. through a browser's login screen.
 */
export type SignIn = 'login' | 'session' | 'none';

export interface UserOptions<S extends SignIn = SignIn> {
  signIn?: S;
  /** Unique per database; by default one is made from the user's code. */
  username?: string;
}

export interface TestUser {
  username: string;
  password: string;
  userCode: string;
  roleCode: string;
}

export interface SignedInUser extends TestUser {
  /** The Cookie header value. */
  cookie: string;
}

export type UserFor<S extends SignIn> = S extends 'none' ? TestUser : SignedInUser;

/** What the builder needs of a running server. */
export interface UserHost {
  app: FastifyInstance;
  services: Pick<Services, 'db' | 'sessionPolicy' | 'config'>;
}

// argon2 costs a tenth of a second a hash: every user of a file shares one.
let passwordHash: Promise<string> | undefined;

/** A user whose own role holds exactly `permissionNames`, with the password USER_PASSWORD. */
export async function userWith<S extends SignIn = 'login'>(
  host: UserHost,
  permissionNames: readonly string[],
  options: UserOptions<S> = {},
): Promise<UserFor<S>> {
  const signIn: SignIn = options.signIn ?? 'login';
  const { db, sessionPolicy, config } = host.services;
  const roleCode = newCode('ROLE-');
  const userCode = newCode('USER-');
  const username = options.username ?? `user_${userCode.slice(-10).toLowerCase()}`;
  await db.insert(roles).values({ roleCode, roleName: `Role ${username}` });
  if (permissionNames.length) {
    const found = await db
      .select({ permissionCode: permissions.permissionCode })
      .from(permissions)
      .where(inArray(permissions.permissionName, [...permissionNames]));
    if (found.length !== permissionNames.length) {
      throw new Error(`unknown permission in ${permissionNames.join(',')}`);
    }
    await db
      .insert(rolePermissions)
      .values(found.map((p) => ({ roleCode, permissionCode: p.permissionCode })));
  }
  passwordHash ??= hashPassword(USER_PASSWORD);
  await db.insert(users).values({
    userCode,
    username,
    email: `${username}@example.com`,
    passwordHash: await passwordHash,
    roleCode,
  });
  const user: TestUser = { username, password: USER_PASSWORD, userCode, roleCode };
  if (signIn === 'none') return user as UserFor<S>;
  const cookie =
    signIn === 'login'
      ? await loginCookie(host.app, username, USER_PASSWORD)
      : `${sessionCookieName(config.COOKIE_SECURE)}=${await createSession(db, userCode, sessionPolicy, {})}`;
  return { ...user, cookie } as UserFor<S>;
}
