import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedNotice } from '../db/seed/seed-notice.js';
import { holdsOrganisation, reseed, seedIfEmpty } from '../db/seed/seed.js';
import { createFileStore } from '../files/create-file-store.js';
import { createServices } from '../services.js';
import type { ConsoleOutput } from './console-command.js';

export const SEED_USAGE = [
  'Usage: npm run seed [-- --reset]',
  '',
  'Creates the demo organisation (departments, the roles teacher and learner, the accounts admin,',
  'teacher, learner1, learner2 and learner3) in a database without users or departments, migrating',
  'it first. With --reset it first deletes every user, role, department, session, log entry and',
  'login lock, and applies the system menus, the admin role and the dictionaries again; menus and',
  'dictionaries as operators changed them, settings and stored files stay. The accounts share',
  'ADMIN_PASSWORD, or a generated password printed once. The database is the server\'s:',
  'DATABASE_URL, or the SQLite file under DATA_DIR (default ./data).',
].join('\n');

/** `npm run seed [-- --reset]`: answers the process's exit code. */
export async function seedCommand(args: readonly string[], env: NodeJS.ProcessEnv, output: ConsoleOutput): Promise<number> {
  const reset = args.length === 1 && args[0] === '--reset';
  if (args.length > 0 && !reset) {
    output.err(SEED_USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const database = await openDatabase(config);
  const files = createFileStore(config);
  try {
    const applied = await migrateToLatest(database);
    if (applied.length > 0) output.out(`Migrated the database: ${applied.join(', ')}.`);
    if (!reset && (await holdsOrganisation(database.db))) {
      output.err(
        `The database (${database.dialect}: ${database.location}) already holds users or departments; nothing was changed.\n` +
          'To delete them with every role, session and log entry and seed the demo organisation again: npm run seed -- --reset',
      );
      return 1;
    }
    if (reset) {
      const seeded = await reseed(database.db, config.adminPassword, files, config.timeZone);
      // After the commit: a failed reset must not have taken anyone's picture.
      const { users } = await createServices(config, database);
      await users.removeAvatarFiles(seeded.removedAvatars);
      output.out(seedNotice('Reset: seeded the demo organisation again', seeded));
      return 0;
    }
    const seeded = await seedIfEmpty(database.db, config.adminPassword, files, config.timeZone);
    if (!seeded.seeded) {
      // Someone else (a server's first start) seeded it between the check and now.
      output.err('The database was seeded meanwhile; nothing was changed.');
      return 1;
    }
    output.out(seedNotice('Seeded the demo organisation', seeded));
    return 0;
  } finally {
    files.close();
    await database.db.destroy();
  }
}
