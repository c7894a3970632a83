import { DEFAULT_UNEXPECTED_MESSAGE } from '@wfc/contract/envelope';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ApiFetchError, api, errorMessage, onApiStatus } from '../../src/api/client';

/** Answers every fetch with this body and HTTP status. */
function answer(body: unknown, status = 200) {
  const fetchStub = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

/** The rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to reject');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('resolves a 200 answer with its message, data and total', async () => {
    answer({
      statusCode: 200,
      message: 'Genders fetched successfully',
      data: [{ genderCode: 'G-1' }],
      total: 23,
    });
    const res = await api.get<{ genderCode: string }[]>('GetGenders', { page: 1 });
    expect(res).toEqual({
      message: 'Genders fetched successfully',
      data: [{ genderCode: 'G-1' }],
      total: 23,
    });
  });

  it('rejects any other answer with an ApiError carrying status, message and field errors', async () => {
    const errors = [{ field: 'genderName', message: 'This gender name is already taken' }];
    answer({ statusCode: 409, message: 'A gender with this name already exists', errors }, 409);
    const err = await rejection(api.post('CreateGender', { genderName: 'Male' }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 409,
      message: 'A gender with this name already exists',
      errors,
    });
  });

  it("keeps a refusal's data and an empty message as the server sent them", async () => {
    answer({ statusCode: 400, message: '', data: { limit: 10 } }, 400);
    const err = await rejection(api.get('GetGenders'));
    expect(err).toMatchObject({ status: 400, message: '', data: { limit: 10 } });
    expect((err as ApiError).errors).toBeUndefined();
  });

  it('goes by the envelope status, and reads JSON that is no envelope as a refusal without a message', async () => {
    answer({ statusCode: 404, message: 'Gender not found' }, 200);
    expect(await rejection(api.get('GetGenderByCode'))).toMatchObject({
      status: 404,
      message: 'Gender not found',
    });
    answer({ error: 'Bad gateway' }, 502);
    expect(await rejection(api.get('GetGenders'))).toMatchObject({ status: 502, message: '' });
  });

  it('tells the status listeners of every answer before rejecting', async () => {
    const heard: number[] = [];
    const stop = onApiStatus((status) => heard.push(status));
    answer({ statusCode: 401, message: 'Not signed in' }, 401);
    await rejection(api.get('GetRoles'));
    answer({ statusCode: 403, message: 'Permission denied' }, 403);
    await rejection(api.get('GetAudits'));
    answer({ statusCode: 200, message: 'OK' });
    await api.get('GetSession');
    stop();
    answer({ statusCode: 401, message: 'Not signed in' }, 401);
    await rejection(api.get('GetRoles'));
    expect(heard).toEqual([401, 403, 200]);
  });

  it('rejects with ApiFetchError when there is no answer to read', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    expect(await rejection(api.get('GetGenders'))).toMatchObject({
      kind: 'network',
      message: 'Network error: the server could not be reached',
    });
    answer('<html>Bad gateway</html>', 502);
    const parse = await rejection(api.get('GetGenders'));
    expect(parse).toBeInstanceOf(ApiFetchError);
    expect(parse).toMatchObject({ kind: 'parse', message: DEFAULT_UNEXPECTED_MESSAGE });
  });

  it('sends multipart bodies with bracket keys and files', async () => {
    const fetchStub = answer({ statusCode: 200, message: 'Profile created successfully' });
    const picture = new File(['x'], 'amelia.png', { type: 'image/png' });
    const res = await api.postMultipart('CreateProfile', {
      address: { cityCode: 'CITY-1' },
      profilePicture: picture,
    });
    expect(res.message).toBe('Profile created successfully');
    const body = fetchStub.mock.calls[0]?.[1]?.body as FormData;
    expect(body.get('address[cityCode]')).toBe('CITY-1');
    expect((body.get('profilePicture') as File).name).toBe('amelia.png');
  });
});

describe('errorMessage', () => {
  it("prefers the server's words, then the screen's own", () => {
    expect(errorMessage(new ApiError({ statusCode: 409, message: 'Taken' }), 'Failed to create gender')).toBe(
      'Taken',
    );
    expect(errorMessage(new ApiError({ statusCode: 500, message: '' }), 'Failed to create gender')).toBe(
      'Failed to create gender',
    );
    expect(errorMessage(new ApiFetchError('timeout', 'The request timed out'), 'Failed')).toBe(
      'The request timed out',
    );
    expect(errorMessage(new Error('boom'), 'Failed to create gender')).toBe('Failed to create gender');
  });
});
