import crypto from 'node:crypto';
import { plainTextOf } from '@cloud-classroom/shared/questions';

/**
 * The key that finds duplicate questions (edu_question.stem_key): SHA-256 (hex) of the type, the
 * stem's text as people read it (NFKC-normalised, so full-width letters and digits are half-width;
 * lower-cased; white space collapsed) and the sources of its images, so that stems differing only
 * in markup, width, case or spacing collide, and two picture questions with the same words and
 * different pictures do not. `stem` is the stem's HTML. Pure, so the seed uses it as the
 * questions module does.
 */
export function stemKeyOf(type: string, stem: string): string {
  const text = plainTextOf(stem).normalize('NFKC').toLocaleLowerCase('en-US').replace(/\s+/gu, ' ').trim();
  const images = [...stem.matchAll(/<img\b[^>]*?\bsrc="([^"]*)"/gi)].map((match) => match[1]).join(' ');
  return crypto.createHash('sha256').update(`${type}\n${text}\n${images}`).digest('hex');
}
