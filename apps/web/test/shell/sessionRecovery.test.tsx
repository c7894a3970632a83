import { useMutation } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiEnvelope, SessionUser } from '@wfc/contract';
import { type FormEvent, useState } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider, useBlocker } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorMessage, MAX_REPLAYS, onUnauthorized } from '../../src/api/client';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { createQueryClient } from '../../src/app/queryClient';
import { appRoutes } from '../../src/app/router';
import { useSessionEnded, useUnsavedInput } from '../../src/auth/auth';
import { STORAGE_KEY, writeStoredUser } from '../../src/auth/storage';
import { sessionTiming } from '../support/session';
import { fail, type Handler, ok, resetToasts, sessionUser, stubApi } from './support';

afterEach(() => {
  resetToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const MINUTE = 60_000;
const maria = sessionUser(['CREATE_SKILL'], 'maria');
const omar = sessionUser(['CREATE_SKILL'], 'omar');
const ENDED = fail(401, 'Your session has expired');
const CREATED = 'Skill created successfully';

const withTiming = (u: SessionUser, t = sessionTiming()): SessionUser => ({ ...u, session: t });

/** Answers in turn, the last one again and again. */
function inTurn(...answers: ApiEnvelope[]): Handler {
  let i = 0;
  return () => answers[Math.min(i++, answers.length - 1)] as ApiEnvelope;
}

/**
 * A screen with a form, as the registry forms are: what is typed is unsaved input, leaving with
 * it is blocked, and Save sends a create whose own success or failure the screen shows.
 */
function WorkScreen() {
  const [title, setTitle] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dirty = title !== '' && saved === null;
  useUnsavedInput(dirty);
  useBlocker(dirty);
  // A download made without the API client reports its 401 by hand.
  const downloadRefused = useSessionEnded();
  const save = useMutation({
    mutationFn: () => api.post('CreateSkill', { title }),
    onSuccess: (res) => setSaved(res.message),
    onError: (err) => setError(errorMessage(err, 'Failed to create skill')),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form aria-label="Work" onSubmit={onSubmit}>
      <h1>Work screen</h1>
      <label>
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <button type="submit">Save</button>
      <button type="button" onClick={downloadRefused}>
        Download
      </button>
      {saved && <p data-testid="saved">{saved}</p>}
      {error && <p data-testid="failed">{error}</p>}
    </form>
  );
}

/**
 * The app's own routes (shell, login, guards), with the work screen among the signed-in pages and
 * a plain home in place of the real one.
 */
function withWorkScreen(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    if (route.index || !route.children) return route;
    const children = withWorkScreen(route.children);
    if (!children.some((child) => child.index)) return { ...route, children };
    return {
      ...route,
      children: [
        ...children.map((child) => (child.index ? { index: true, element: <h1>Home screen</h1> } : child)),
        { path: 'work', element: <WorkScreen /> },
      ],
    };
  });
}

const routes = withWorkScreen(appRoutes);

function renderShell(path: string, handlers: Record<string, Handler>, user: SessionUser | null = maria) {
  if (user) writeStoredUser(user);
  const api = stubApi({ GetSession: ok(withTiming(maria)), ...handlers });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...api, router, location };
}

const stored = () => JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null');

async function typeAndSave(user: ReturnType<typeof userEvent.setup>, title: string) {
  await user.type(await screen.findByLabelText('Title'), title);
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

/** Signs maria in on the login screen. */
async function logInAsMaria(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Username'), 'maria');
  await user.type(screen.getByLabelText('Password'), 'maria-password-1');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

async function signInDialog() {
  return screen.findByRole('dialog', { name: 'Sign in to continue' });
}

async function signInThere(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, password: string) {
  await user.type(within(dialog).getByLabelText('Password'), password);
  await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
}

describe('a call answered 401 while the screen holds unsaved input', () => {
  it('waits while the same user signs in again in place, then is sent again and succeeds as usual', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {
      CreateSkill: inTurn(ENDED, ok({ skillCode: 'SKILL-1' }, CREATED)),
      login: ok(withTiming(maria), 'Logged in successfully'),
    });
    await typeAndSave(user, 'Welding');

    const dialog = await signInDialog();
    expect((within(dialog).getByLabelText('Username') as HTMLInputElement).value).toBe('maria');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));
    // Nothing was reported: the save is still running, the screen is as it was, nobody signed out.
    expect(app.callsTo('CreateSkill')).toHaveLength(1);
    expect(screen.queryByTestId('saved')).toBeNull();
    expect(screen.queryByTestId('failed')).toBeNull();
    expect(app.location()).toBe('/work');
    expect(stored().auth.user.username).toBe('maria');

    await signInThere(user, dialog, 'maria-password-1');
    expect((await screen.findByTestId('saved')).textContent).toBe(CREATED);
    expect(app.callsTo('login')).toEqual([
      expect.objectContaining({ body: { username: 'maria', password: 'maria-password-1' } }),
    ]);
    expect(app.callsTo('CreateSkill').map((c) => c.body)).toEqual([
      { title: 'Welding' },
      { title: 'Welding' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Welding');
    expect(screen.queryByTestId('failed')).toBeNull();
    expect(app.location()).toBe('/work');
  });

  it('holds every call that meets the ended session, reads included, and replays each one', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {
      CreateSkill: inTurn(ENDED, ok({ skillCode: 'SKILL-1' }, CREATED)),
      GetSkills: inTurn(ENDED, ok([{ skillCode: 'SKILL-1' }], 'Skills fetched successfully')),
      login: ok(withTiming(maria), 'Logged in successfully'),
    });
    await typeAndSave(user, 'Welding');
    const dialog = await signInDialog();
    let read: Promise<unknown> = Promise.resolve();
    await act(async () => {
      read = api.get('GetSkills');
    });
    await waitFor(() => expect(app.callsTo('GetSkills')).toHaveLength(1));

    await signInThere(user, dialog, 'maria-password-1');
    await expect(read).resolves.toMatchObject({ data: [{ skillCode: 'SKILL-1' }] });
    expect((await screen.findByTestId('saved')).textContent).toBe(CREATED);
    expect(app.callsTo('GetSkills')).toHaveLength(2);
    expect(app.callsTo('login')).toHaveLength(1);
  });

  it('keeps the dialog open, with the server message, when the password is refused', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {
      CreateSkill: inTurn(ENDED, ok({ skillCode: 'SKILL-1' }, CREATED)),
      login: inTurn(fail(401, 'Invalid username or password'), ok(withTiming(maria))),
    });
    await typeAndSave(user, 'Welding');
    const dialog = await signInDialog();
    await signInThere(user, dialog, 'wrong');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid username or password');
    expect(app.callsTo('CreateSkill')).toHaveLength(1);
    expect(stored().auth.user.username).toBe('maria');

    await user.clear(within(dialog).getByLabelText('Password'));
    await signInThere(user, dialog, 'maria-password-1');
    expect((await screen.findByTestId('saved')).textContent).toBe(CREATED);
  });

  it('discards the drafts and goes home when a different user signs in; the held call is never sent again', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {
      CreateSkill: inTurn(ENDED, ok({ skillCode: 'SKILL-1' }, CREATED)),
      login: ok(withTiming(omar), 'Logged in successfully'),
    });
    await typeAndSave(user, 'Welding');
    const dialog = await signInDialog();
    const username = within(dialog).getByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'omar');
    expect(within(dialog).getByText(/Signing in as another user discards your unsaved changes/)).toBeTruthy();
    await signInThere(user, dialog, 'omar-password-1');

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Home screen');
    expect(app.location()).toBe('/');
    expect(stored().auth.user.username).toBe('omar');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.callsTo('CreateSkill')).toHaveLength(1);
    expect(screen.queryByTestId('saved')).toBeNull();
    expect(screen.queryByTestId('failed')).toBeNull();
  });

  it('signs out from the dialog: drafts dropped, the login screen without a page to return to', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', { CreateSkill: ENDED });
    await typeAndSave(user, 'Welding');
    const dialog = await signInDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login');
    expect(stored().auth.isAuthenticated).toBe(false);
    expect(app.callsTo('CreateSkill')).toHaveLength(1);
    expect(screen.queryByTestId('failed')).toBeNull();
  });
});

describe('a request made without the API client, answered 401', () => {
  it('opens the sign-in dialog over unsaved input, and signs out without', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {});
    await user.type(await screen.findByLabelText('Title'), 'Welding');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    const dialog = await signInDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login');
  });

  it('signs out, remembering the page, when nothing is unsaved', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work', {});
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login?next=%2Fwork');
  });
});

describe('a call answered 401 without unsaved input', () => {
  it('signs out to the login screen, which returns to the page, query string included', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work?tab=skills', {
      CreateSkill: ENDED,
      login: ok(withTiming(maria), 'Logged in successfully'),
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login?next=%2Fwork%3Ftab%3Dskills');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stored().auth.isAuthenticated).toBe(false);

    await logInAsMaria(user);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Work screen');
    expect(app.location()).toBe('/work?tab=skills');
  });

  it('sends a signed-out visitor of a deep link to the login screen and back to it after signing in', async () => {
    const user = userEvent.setup();
    const app = renderShell('/work?keyword=fr', { login: ok(withTiming(maria)) }, null);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login?next=%2Fwork%3Fkeyword%3Dfr');
    await logInAsMaria(user);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Work screen');
    expect(app.location()).toBe('/work?keyword=fr');
  });

  it('goes home after signing in when `next` points elsewhere', async () => {
    const user = userEvent.setup();
    const app = renderShell('/login?next=%2F%2Fevil.example', { login: ok(withTiming(maria)) }, null);
    await logInAsMaria(user);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Home screen');
    expect(app.location()).toBe('/');
  });
});

describe('the idle warning', () => {
  const fakeTime = () => vi.useFakeTimers({ shouldAdvanceTime: true, now: Date.UTC(2024, 4, 1, 9) });

  it('shows 2 minutes before the idle expiry; Stay signed in touches the session and closes it', async () => {
    fakeTime();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const app = renderShell('/work', {});
    await screen.findByRole('heading', { name: 'Work screen' });

    await act(async () => {
      vi.advanceTimersByTime(28 * MINUTE - 1000);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    const warning = await screen.findByRole('alertdialog', { name: 'Are you still there?' });
    expect(within(warning).getByText(/You will be signed out in/).textContent).toBe(
      'You will be signed out in 2 minutes',
    );
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    expect(within(warning).getByTestId('session-countdown').textContent).toBe('1 minute 30 seconds');

    await user.click(within(warning).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(app.callsTo('GetSession')).toHaveLength(2);
    expect(app.location()).toBe('/work');
  });

  it('counts again from any successful call', async () => {
    fakeTime();
    const app = renderShell('/work', { GetSkills: ok([]) });
    await screen.findByRole('heading', { name: 'Work screen' });
    await act(async () => {
      vi.advanceTimersByTime(20 * MINUTE);
      await api.get('GetSkills');
    });
    // The call proves the session was seen within a minute before it: 29 minutes from now.
    await act(async () => {
      vi.advanceTimersByTime(27 * MINUTE - 1000);
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(await screen.findByRole('alertdialog', { name: 'Are you still there?' })).toBeTruthy();
    expect(app.callsTo('GetSkills')).toHaveLength(1);
  });

  it('signs out at the expiry, remembering the page, when nothing is unsaved', async () => {
    fakeTime();
    const app = renderShell('/work?tab=skills', {});
    await screen.findByRole('heading', { name: 'Work screen' });
    await act(async () => {
      vi.advanceTimersByTime(30 * MINUTE);
    });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Login');
    expect(app.location()).toBe('/login?next=%2Fwork%3Ftab%3Dskills');
  });

  it('opens the sign-in dialog at the expiry when something is unsaved', async () => {
    fakeTime();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const app = renderShell('/work', {});
    await user.type(await screen.findByLabelText('Title'), 'Welding');
    await act(async () => {
      vi.advanceTimersByTime(30 * MINUTE);
    });
    expect(await signInDialog()).toBeTruthy();
    expect(app.location()).toBe('/work');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Welding');
  });
});

describe('the API client with a 401 handler', () => {
  const answers = (...envelopes: ApiEnvelope[]) => {
    const fetchStub = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
    for (const env of envelopes) {
      fetchStub.mockImplementationOnce(
        async () => new Response(JSON.stringify(env), { status: env.statusCode }),
      );
    }
    vi.stubGlobal('fetch', fetchStub);
    return fetchStub;
  };

  it('sends a held call again, the same way, when told to retry', async () => {
    const fetchStub = answers(ENDED, ok({ skillCode: 'SKILL-1' }, CREATED));
    const stop = onUnauthorized(() => 'retry');
    try {
      await expect(api.post('CreateSkill', { title: 'Welding' })).resolves.toMatchObject({
        message: CREATED,
      });
      expect(fetchStub).toHaveBeenCalledTimes(2);
      const [first, again] = fetchStub.mock.calls.map(([url, init]) => ({
        url,
        method: init.method,
        headers: init.headers,
        body: init.body,
      }));
      expect(again).toEqual(first);
      expect(first).toMatchObject({ url: '/api/CreateSkill', method: 'POST', body: 'title=Welding' });
    } finally {
      stop();
    }
  });

  it('rejects as before when told to fail, and leaves a dropped call pending', async () => {
    answers(ENDED, ENDED);
    const stop = onUnauthorized(() => 'fail');
    await expect(api.get('GetSkills')).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 401);
    stop();
    const stopDrop = onUnauthorized(() => 'drop');
    const settled = vi.fn();
    void api.get('GetSkills').then(settled, settled);
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).not.toHaveBeenCalled();
    stopDrop();
  });

  it('gives up after a few replays', async () => {
    const fetchStub = answers(...Array.from({ length: MAX_REPLAYS + 1 }, () => ENDED));
    const stop = onUnauthorized(() => 'retry');
    try {
      await expect(api.get('GetSkills')).rejects.toBeInstanceOf(ApiError);
      expect(fetchStub).toHaveBeenCalledTimes(MAX_REPLAYS + 1);
    } finally {
      stop();
    }
  });
});
