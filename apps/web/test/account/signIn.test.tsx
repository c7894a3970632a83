import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiEnvelope } from '@wfc/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, resetToasts, sessionUser } from '../shell/support';

afterEach(() => {
  resetToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

const refused = (field: string, message: string): ApiEnvelope => ({
  statusCode: 400,
  message: 'Invalid input',
  errors: [{ field, message }],
});

async function passwordStep() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), 'maria');
  await user.type(screen.getByLabelText('Password'), 'secret-password-1');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  return user;
}

describe('the sign-in page with two-factor sign-in', () => {
  it('asks for the code after the password, shows a wrong one on its field, then signs in', async () => {
    let tries = 0;
    const app = renderApp('/login', {
      handlers: {
        login: ok({ mfaRequired: true }, 'Enter the code from your authenticator app'),
        VerifyMfa: () =>
          ++tries === 1
            ? refused('code', 'This code is not valid')
            : ok(sessionUser([], 'maria'), 'Logged in successfully'),
      },
    });
    const user = await passwordStep();
    const code = await screen.findByLabelText('Authentication code');
    expect(screen.getByText('Two-factor sign-in')).toBeTruthy();
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This code is not valid')).toBeTruthy();
    await user.clear(screen.getByLabelText('Authentication code'));
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    expect(app.callsTo('VerifyMfa').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('takes a recovery code instead, and Start again returns to the password', async () => {
    const app = renderApp('/login', {
      handlers: {
        login: ok({ mfaRequired: true }),
        VerifyMfa: ok(sessionUser([], 'maria'), 'Logged in successfully with a recovery code'),
      },
    });
    const user = await passwordStep();
    await user.click(await screen.findByRole('button', { name: 'Start again' }));
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    await user.type(screen.getByLabelText('Username'), 'maria');
    await user.type(screen.getByLabelText('Password'), 'secret-password-1');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'ABCDE-FGHJK');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, maria' })).toBeTruthy();
    expect(app.callsTo('VerifyMfa')[0]?.body).toEqual({ recoveryCode: 'ABCDE-FGHJK' });
  });
});

describe('single sign-on on the sign-in page', () => {
  it('offers "Sign in with {label}", keeping the page asked for', async () => {
    renderApp('/login?next=%2Fregistry%2Fgenders', {
      handlers: { GetSignInOptions: ok({ sso: { label: 'Acme ID', loginUrl: '/api/oidc/login' } }) },
    });
    const link = await screen.findByRole('link', { name: 'Sign in with Acme ID' });
    expect(link.getAttribute('href')).toBe('/api/oidc/login?next=%2Fregistry%2Fgenders');
  });

  it('offers nothing more when it is not configured, and words a failure that came back', async () => {
    renderApp('/login?sso=unknown-user', { handlers: { GetSignInOptions: ok({ sso: null }) } });
    expect(await screen.findByText(/Your company account is not a user of this console/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Sign in with/ })).toBeNull());
  });
});

describe('a role that requires two-factor sign-in', () => {
  it('sends a user without it to the set-up page from anywhere', async () => {
    const base = sessionUser(['VIEW_GENDERS'], 'omar');
    const user = { ...base, role: base.role && { ...base.role, requireMfa: true } };
    const app = renderApp('/registry', { user });
    await screen.findByRole('heading', { level: 1, name: 'Set up two-factor sign-in' });
    expect(app.pathname()).toBe('/account/two-factor');
    expect(
      screen.getByText('Your role requires two-factor sign-in. Set it up to continue to the console.'),
    ).toBeTruthy();
  });
});
