import { consoleBox, emphasis, listOf } from '../../console-box.js';
import type { Seeded } from './seed.js';

/**
 * Shown once, last of all (after the build's output and the address), by what created the
 * accounts: a generated password is stored only as a hash and cannot be shown again.
 * `heading` says what happened ('First start: created the demo organisation').
 */
export function seedNotice(heading: string, seeded: Seeded): string {
  const usernames = listOf(seeded.usernames);
  if (!seeded.passwordWasGenerated) {
    return `${heading}; the accounts ${usernames} share the password from ADMIN_PASSWORD.`;
  }
  const password = seeded.adminPassword;
  const box = consoleBox([
    `${heading}. The accounts`,
    `${usernames} share this generated password,`,
    'shown only now:',
    '',
    `    ${password}`,
    '',
    'Missed it? Set a new one with: npm run reset-password -- admin',
  ]);
  return `\n${box.replace(password, emphasis(password))}\n`;
}
