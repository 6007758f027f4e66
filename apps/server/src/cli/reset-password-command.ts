import fs from 'node:fs';
import { passwordSchema } from '@cloud-classroom/shared/users';
import { loadConfig } from '../config.js';
import { consoleBox, emphasis } from '../console-box.js';
import { openDatabase, sqliteFileOf } from '../db/database.js';
import { DomainError } from '../domain-error.js';
import { createServices } from '../services.js';
import type { ConsoleOutput } from './console-command.js';

export const RESET_PASSWORD_USAGE = [
  'Usage: npm run reset-password -- <username>',
  '',
  'Sets a new password for the user and ends their sessions. With NEW_PASSWORD set, that is the',
  'new password (at least 8 characters); otherwise one is generated and printed once. The database',
  "is the server's: DATABASE_URL, or the SQLite file under DATA_DIR (default ./data).",
].join('\n');

/** `npm run reset-password -- <username>`: answers the process's exit code. */
export async function resetPasswordCommand(args: readonly string[], env: NodeJS.ProcessEnv, output: ConsoleOutput): Promise<number> {
  const [username, ...rest] = args;
  if (username === undefined || username.trim() === '' || username.startsWith('-') || rest.length > 0) {
    output.err(RESET_PASSWORD_USAGE);
    return 2;
  }
  const given = env.NEW_PASSWORD === undefined || env.NEW_PASSWORD === '' ? undefined : passwordSchema.safeParse(env.NEW_PASSWORD);
  if (given !== undefined && !given.success) {
    output.err(`NEW_PASSWORD: ${given.error.issues[0]?.message ?? 'is not a valid password'}`);
    return 2;
  }

  const config = loadConfig(env);
  // Opening a missing SQLite file would create an empty database: say where it was looked for instead.
  if (config.databaseUrl === undefined && !fs.existsSync(sqliteFileOf(config.dataDir))) {
    output.err(`No database at ${sqliteFileOf(config.dataDir)}: start the server once (npm start), or set DATA_DIR or DATABASE_URL as the server has them.`);
    return 1;
  }
  const database = await openDatabase(config);
  try {
    const { users } = await createServices(config, database);
    const { password, enabled } = await users.resetPasswordFromConsole(username, given?.data);
    const note = enabled ? [] : ['', `${username} is disabled: enable them in the back office to sign in.`];
    if (given === undefined) {
      const box = consoleBox([`New password of ${username}, shown only now:`, '', `    ${password}`, '', 'Their sessions have ended.', ...note]);
      output.out(box.replace(password, emphasis(password)));
    } else {
      output.out([`The password of ${username} is now the one in NEW_PASSWORD; their sessions have ended.`, ...note].join('\n'));
    }
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    output.err(error.message);
    return 1;
  } finally {
    await database.db.destroy();
  }
}
