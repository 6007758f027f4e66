import crypto from 'node:crypto';
import { plainTextOf } from '@cloud-classroom/shared/questions';

/**
 * The key that finds duplicate questions (edu_question.stem_key): SHA-256 (hex) of the type and
 * the stem's text, NFKC-normalised (full-width letters and digits as half-width), lower-cased,
 * white space collapsed, so that stems differing only in markup, width, case or spacing collide.
 * `stem` is the stem's HTML. Pure, so the seed uses it as the questions module does.
 */
export function stemKeyOf(type: string, stem: string): string {
  const text = plainTextOf(stem).normalize('NFKC').toLocaleLowerCase('en-US').replace(/\s+/gu, ' ').trim();
  return crypto.createHash('sha256').update(`${type}\n${text}`).digest('hex');
}
