import type { FastifyInstance } from 'fastify';

/** Bracket notation, exactly as the browser's form encoding writes nested keys. */
export function formEncode(body: Record<string, unknown>): string {
  const out = new URLSearchParams();
  const walk = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, `${key}[${i}]`);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${key}[${k}]`);
    } else out.append(key, value === null ? '' : String(value));
  };
  for (const [k, v] of Object.entries(body)) walk(v, k);
  return out.toString();
}

/** Signs in through the login route and returns the Cookie header value. */
export async function loginCookie(app: FastifyInstance, username: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: formEncode({ username, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const c = res.cookies.find((x) => x.name === 'sid' || x.name === '__Host-sid');
  return `${c!.name}=${c!.value}`;
}
