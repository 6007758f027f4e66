import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type svgCaptchaModule from 'svg-captcha';
import type { Database } from '../../db/schema.js';
import { deleteExpiredCaptchas, insertCaptcha, takeCaptcha } from './captcha.repo.js';

export const CAPTCHA_TTL_MS = 2 * 60 * 1000;

// svg-captcha parses its font when loaded; that waits for the first captcha instead of the start.
let svgCaptcha: Promise<typeof svgCaptchaModule> | undefined;
const loadSvgCaptcha = (): Promise<typeof svgCaptchaModule> => (svgCaptcha ??= import('svg-captcha').then((loaded) => loaded.default));

export async function issueCaptcha(db: Kysely<Database>): Promise<{ img: string; uuid: string }> {
  const now = Date.now();
  const { text, data } = (await loadSvgCaptcha()).createMathExpr({ mathMin: 1, mathMax: 9, width: 111, height: 36, fontSize: 40, noise: 2 });
  // eladmin clients echo the uuid verbatim, prefix included.
  const uuid = `captcha_code:${crypto.randomBytes(16).toString('hex')}`;
  await insertCaptcha(db, uuid, text, now + CAPTCHA_TTL_MS);
  await deleteExpiredCaptchas(db, now);
  return { img: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}`, uuid };
}

export async function checkCaptcha(db: Kysely<Database>, uuid: string, code: string): Promise<'ok' | 'missing' | 'wrong'> {
  if (uuid === '') return 'missing';
  const captcha = await takeCaptcha(db, uuid);
  if (captcha === undefined || captcha.expiresAt < Date.now()) return 'missing';
  return captcha.answer.trim().toLowerCase() === code.trim().toLowerCase() ? 'ok' : 'wrong';
}
