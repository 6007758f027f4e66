import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type svgCaptchaModule from 'svg-captcha';
import type { Database } from '../../db/schema.js';
import { rateLimited } from '../../domain-error.js';
import { countLiveCaptchas, deleteExpiredCaptchas, insertCaptcha, takeCaptcha } from './captcha.repo.js';

export const CAPTCHA_TTL_MS = 2 * 60 * 1000;
/**
 * Captchas one address may hold unused at once (each lives CAPTCHA_TTL_MS). A login uses its
 * captcha up, so an office signing in together behind one address holds a few; one address that
 * asks and never answers is held to this many rows.
 */
export const LIVE_CAPTCHAS_PER_ADDRESS = 1000;

// svg-captcha parses its font when loaded; that waits for the first captcha instead of the start.
let svgCaptcha: Promise<typeof svgCaptchaModule> | undefined;
const loadSvgCaptcha = (): Promise<typeof svgCaptchaModule> => (svgCaptcha ??= import('svg-captcha').then((loaded) => loaded.default));

/**
 * A new captcha for the caller at `address` (`request.ip`): each is a row, so one address may hold
 * LIVE_CAPTCHAS_PER_ADDRESS unused ones, and expired rows go as new ones come.
 */
export async function issueCaptcha(db: Kysely<Database>, address: string, now: number): Promise<{ img: string; uuid: string }> {
  if ((await countLiveCaptchas(db, address, now)) >= LIVE_CAPTCHAS_PER_ADDRESS) {
    throw rateLimited('too many unused captchas for this address; wait a minute and try again');
  }
  const { text, data } = (await loadSvgCaptcha()).createMathExpr({ mathMin: 1, mathMax: 9, width: 111, height: 36, fontSize: 40, noise: 2 });
  // eladmin clients echo the uuid verbatim, prefix included.
  const uuid = `captcha_code:${crypto.randomBytes(16).toString('hex')}`;
  await insertCaptcha(db, { uuid, answer: text, expiresAt: now + CAPTCHA_TTL_MS, address });
  await deleteExpiredCaptchas(db, now);
  return { img: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`, uuid };
}

export async function checkCaptcha(db: Kysely<Database>, uuid: string, code: string, now: number): Promise<'ok' | 'missing' | 'wrong'> {
  if (uuid === '') return 'missing';
  const captcha = await takeCaptcha(db, uuid);
  if (captcha === undefined || captcha.expiresAt < now) return 'missing';
  return captcha.answer.trim().toLowerCase() === code.trim().toLowerCase() ? 'ok' : 'wrong';
}
