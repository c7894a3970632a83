import type { LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../../src/auth/totp.ts';
import type { TestApp } from '../../support/app.ts';
import { formEncode } from '../../support/requests.ts';

const STEP_MS = 30_000;

/** Waits, when a code's 30-second step is about to turn, until the next has begun: no flaky edges. */
export async function awayFromStepEdge() {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 3000) await new Promise((r) => setTimeout(r, STEP_MS - into + 100));
}

/** The code an authenticator app shows `steps` steps from now. */
export const codeAt = (secret: string, steps = 0) => totpCode(secret, Date.now() + steps * STEP_MS);

export const cookieOf = (res: LightMyRequestResponse, name: string) => {
  const c = res.cookies.find((x) => x.name === name);
  return c ? `${c.name}=${c.value}` : undefined;
};

/** Turns two-factor on for a signed-in user; the secret and the recovery codes. */
export async function enrol(t: TestApp, cookie: string, password: string) {
  const start = await t.post('StartMfaEnrollment', { currentPassword: password }, cookie);
  if (start.statusCode !== 200) throw new Error(`StartMfaEnrollment: ${start.body}`);
  const { secret } = start.json().data as { secret: string; otpauthUrl: string };
  await awayFromStepEdge();
  const confirm = await t.post('ConfirmMfaEnrollment', { code: codeAt(secret) }, cookie);
  if (confirm.statusCode !== 200) throw new Error(`ConfirmMfaEnrollment: ${confirm.body}`);
  return { secret, recoveryCodes: (confirm.json().data as { recoveryCodes: string[] }).recoveryCodes };
}

/** The password step of a sign-in; the pending step's cookie when a second factor is awaited. */
export async function passwordStep(t: TestApp, username: string, password: string, ip = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: formEncode({ username, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: ip,
  });
  return { res, challenge: cookieOf(res, 'wfc-mfa') };
}

export const verify = (
  t: TestApp,
  challenge: string | undefined,
  body: Record<string, string>,
  ip = '127.0.0.1',
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/VerifyMfa',
    payload: formEncode(body),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(challenge ? { cookie: challenge } : {}),
    },
    remoteAddress: ip,
  });
