import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, buildQuery, configureApiClient, setSessionExpiredHandler } from './client.ts';

function answer(status: number, body: string) {
  return vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionExpiredHandler(null);
  configureApiClient({ bases: { api: '/api', verify: '/verify-api', score: '/score-api' }, containsBigint: false });
});

describe('buildQuery', () => {
  it('repeats the key for arrays and skips empty values', () => {
    expect(buildQuery({ a: [1, 2], b: 'x y', c: undefined, d: null })).toBe('?a=1&a=2&b=x+y');
    expect(buildQuery({})).toBe('');
  });
});

describe('api client', () => {
  it('sends credentials and resolves 200 with the data field, or the whole body', async () => {
    const fetchMock = answer(200, '{"data":{"id":1}}');
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/v1/users', { query: { ids: [1, 2] } })).resolves.toEqual({ id: 1 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/users?ids=1&ids=2');
    expect(init.credentials).toBe('include');
    vi.stubGlobal('fetch', answer(200, '{"total":3}'));
    await expect(api.get('/x')).resolves.toEqual({ total: 3 });
  });

  it('keeps large integers exact when the deployment says so', async () => {
    configureApiClient({ bases: { api: '/api', verify: '/v', score: '/s' }, containsBigint: true });
    vi.stubGlobal('fetch', answer(200, '{"data":{"id":12345678901234567890}}'));
    await expect(api.get('/x')).resolves.toEqual({ id: '12345678901234567890' });
  });

  it('rejects 400 and 500 with the body, other statuses with server exception', async () => {
    vi.stubGlobal('fetch', answer(400, '{"message":"validation code mismatch","field_name":"validation_code"}'));
    const clientError = (await api.post('/x', {}).catch((e: unknown) => e)) as ApiError;
    expect(clientError).toBeInstanceOf(ApiError);
    expect(clientError.key).toBe('validation_code_mismatch');
    expect(clientError.fieldName).toBe('validation_code');
    expect(clientError.status).toBe(400);

    vi.stubGlobal('fetch', answer(500, '{"message":"server error"}'));
    const serverError = (await api.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(serverError.status).toBe(500);
    expect(serverError.body).toEqual({ message: 'server error' });

    vi.stubGlobal('fetch', answer(502, 'bad gateway'));
    const other = (await api.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(other.rawMessage).toBe('server exception');
    expect(other.status).toBe(502);
  });

  it('reads the message from data.message too', async () => {
    vi.stubGlobal('fetch', answer(400, '{"data":{"message":"employee_locked","field_name":"login_id"}}'));
    const error = (await api.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(error.key).toBe('employee_locked');
    expect(error.fieldName).toBe('login_id');
  });

  it('reports an expired session, except for session probes', async () => {
    const onExpired = vi.fn();
    setSessionExpiredHandler(onExpired);
    vi.stubGlobal('fetch', answer(400, '{"message":"token_invalid"}'));
    await api.get('/v1/users', { isSessionProbe: true }).catch(() => undefined);
    expect(onExpired).not.toHaveBeenCalled();
    await api.put('/v1/users/name', { name: 'x' }).catch(() => undefined);
    expect(onExpired).toHaveBeenCalledTimes(1);
    // The routes a CI token may call answer 401 token_invalid without a session: the same.
    vi.stubGlobal('fetch', answer(401, '{"message":"token_invalid"}'));
    const expired = (await api.get('/v1/repos/1/commits').catch((e: unknown) => e)) as ApiError;
    expect(expired.key).toBe('token_invalid');
    expect(expired.status).toBe(401);
    expect(onExpired).toHaveBeenCalledTimes(2);
  });
});
