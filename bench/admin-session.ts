import { BENCH_PASSWORD } from './servers/bench-password.js';

/**
 * A real login as the seeded administrator (captcha is off for the bench); answers the headers
 * every later request carries: the session token.
 */
export async function adminSession(baseUrl: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`bench login failed: ${response.status} ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return { authorization: token };
}
