import crypto, { type KeyObject } from 'node:crypto';

const ALGORITHM = 'HS256';

/** What a session token says once checked: its session, and when the token itself ends. */
export type SessionTokenClaims = { sessionId: string; expiresAt: number };

function jsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a session token as jose signs it (`SessionService.start`: HS256, `sid`, `iat`, `exp`),
 * with node:crypto rather than jose's `jwtVerify`: jose checks signatures through WebCrypto, an
 * asynchronous job costing a quarter of a millisecond — a sixth of an exam start's CPU when a
 * thousand learners press Start together — where an HMAC here costs microseconds. Only HS256 is
 * accepted (never `none`, never another algorithm the header names), the signature compared in
 * constant time, a `crit` header refused (no extension is understood), and the token must be
 * within its `nbf` and `exp`. Undefined for anything else: the caller answers 401.
 */
export function verifySessionToken(token: string, key: KeyObject, now: number): SessionTokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = crypto.createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
  const protectedHeader = jsonPart(header);
  if (protectedHeader?.alg !== ALGORITHM || 'crit' in protectedHeader) return undefined;
  const claims = jsonPart(payload);
  if (claims === undefined || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return undefined;
  const seconds = now / 1000;
  if (claims.exp <= seconds) return undefined;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > seconds)) return undefined;
  return { sessionId: claims.sid, expiresAt: claims.exp * 1000 };
}
