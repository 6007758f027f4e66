import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifySessionToken } from './session-token.js';

const key = crypto.createSecretKey(Buffer.from('a-secret-of-the-kind-the-product-generates'));
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
const seconds = Math.floor(NOW / 1000);

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header and payload, signed (or not) as given: what an attacker can send. */
function handMade(header: object, payload: object, signWith: crypto.KeyObject | undefined = key): string {
  const unsigned = `${part(header)}.${part(payload)}`;
  return `${unsigned}.${signWith === undefined ? '' : crypto.createHmac('sha256', signWith).update(unsigned).digest('base64url')}`;
}
const valid = { sid: 'session-1', iat: seconds, exp: seconds + 3600 };

describe('verifySessionToken', () => {
  it('accepts a token jose signs as the product does, and answers its session and end', async () => {
    const token = await new SignJWT({ sid: 'session-1' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(seconds).setExpirationTime(seconds + 3600).sign(key);
    expect(verifySessionToken(token, key, NOW)).toEqual({ sessionId: 'session-1', expiresAt: (seconds + 3600) * 1000 });
  });

  it.each([
    ['another key', handMade({ alg: 'HS256' }, valid, crypto.createSecretKey(Buffer.from('guess')))],
    ['no signature (alg none)', handMade({ alg: 'none' }, valid, undefined)],
    ['alg none, signed anyway', handMade({ alg: 'none' }, valid)],
    ['another algorithm named', handMade({ alg: 'HS512' }, valid)],
    ['a critical extension', handMade({ alg: 'HS256', crit: ['b64'], b64: false }, valid)],
    ['expired', handMade({ alg: 'HS256' }, { ...valid, exp: seconds })],
    ['not yet valid', handMade({ alg: 'HS256' }, { ...valid, nbf: seconds + 60 })],
    ['no expiry', handMade({ alg: 'HS256' }, { sid: 'session-1', iat: seconds })],
    ['no session', handMade({ alg: 'HS256' }, { iat: seconds, exp: seconds + 3600 })],
    ['a session that is not a string', handMade({ alg: 'HS256' }, { ...valid, sid: 1 })],
    ['a payload that is not an object', `${part({ alg: 'HS256' })}.${Buffer.from('[1]').toString('base64url')}.x`],
    ['two parts', 'abc.def'],
    ['four parts', `${handMade({ alg: 'HS256' }, valid)}.more`],
    ['garbage', 'not.a.token'],
    ['empty', ''],
  ])('refuses %s', (_, token) => {
    expect(verifySessionToken(token, key, NOW)).toBeUndefined();
  });

  it('refuses a token whose payload was changed after signing', () => {
    const [header, , signature] = handMade({ alg: 'HS256' }, valid).split('.');
    expect(verifySessionToken(`${header}.${part({ ...valid, sid: 'someone-else' })}.${signature}`, key, NOW)).toBeUndefined();
  });
});
