import crypto from 'node:crypto';
import type { Database } from 'better-sqlite3';

/** What the references need of the caller's session row. */
export type BareSession = { user_id: number; is_admin: number };

/**
 * The references' session check, the least the product's is: verify the token's HS256 signature
 * with the secret in the database, then read the session and its (enabled) user with one prepared
 * statement. No cache of verified tokens, no touching the session.
 */
export function bareSessionCheck(db: Database): (authorization: string | undefined) => BareSession | undefined {
  const { value: secret } = db.prepare("select value from app_setting where key = 'jwt_secret'").get() as { value: string };
  const findSession = db.prepare(
    'select s.user_id, s.expires_at, u.is_admin from sys_session s join sys_user u on u.id = s.user_id where s.id = ? and u.enabled = 1',
  );

  function sessionIdOf(authorization: string | undefined): string | undefined {
    const [header, payload, signature] = authorization?.replace(/^Bearer /, '').split('.') ?? [];
    if (header === undefined || payload === undefined || signature === undefined) return undefined;
    const expected = crypto.createHmac('sha256', secret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sid?: string; exp?: number };
    return claims.exp !== undefined && claims.exp * 1000 > Date.now() ? claims.sid : undefined;
  }

  return (authorization) => {
    const sessionId = sessionIdOf(authorization);
    const session = sessionId === undefined ? undefined : (findSession.get(sessionId) as (BareSession & { expires_at: number }) | undefined);
    return session === undefined || session.expires_at <= Date.now() ? undefined : session;
  };
}
