import type { Locale } from '@cloud-classroom/shared/locale';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import type { CertificateTranslate } from './certificates-messages';

// The import's row problems carry the row's values, so the shared catalogue (exact sentences) cannot
// translate them; the server's sentences are matched here, anything else goes through the catalogue.
const PATTERNS: readonly [RegExp, (match: RegExpExecArray, t: CertificateTranslate) => string][] = [
  [/^no user named '(.*)'$/s, (m, t) => t('importCerts.error.noUser', { name: m[1] })],
  [/^'(.*)' is outside the departments you manage$/s, (m, t) => t('importCerts.error.outsideScope', { name: m[1] })],
  [/^no certificate template named '(.*)'$/s, (m, t) => t('importCerts.error.noTemplate', { name: m[1] })],
  [/^(\d+) certificate templates are named '(.*)'$/s, (m, t) => t('importCerts.error.manyTemplates', { count: Number(m[1]), name: m[2] })],
  [/^a certificate numbered '(.*)' exists already$/s, (m, t) => t('importCerts.error.numberTaken', { number: m[1] })],
  [/^'(.*)' is already listed in row (\d+)$/s, (m, t) => t('importCerts.error.numberTwice', { number: m[1], row: m[2] })],
  [/^expected 'yyyy-MM-dd' or nothing$/, (_m, t) => t('importCerts.error.dateOrNothing')],
  [/^expected 'yyyy-MM-dd'$/, (_m, t) => t('importCerts.error.date')],
  [/^is required$/, (_m, t) => t('importCerts.error.required')],
  [/^the first row must be the headers (.*)$/s, (m, t) => t('importCerts.error.headers', { headers: m[1] })],
];

/** A row's problem, as `POST api/certificates/import` words it, in the page's language. */
export function certificateImportErrorText(text: string, t: CertificateTranslate, language: Locale): string {
  for (const [pattern, translate] of PATTERNS) {
    const match = pattern.exec(text);
    if (match !== null) return translate(match, t);
  }
  return localizeMessage(language, text);
}
