import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { AppDatabase } from './database.js';
import * as appSetting from './migrations/0001-app-setting.js';
import * as identity from './migrations/0002-identity.js';
import * as storagePathIndex from './migrations/0003-storage-path-index.js';
import * as dictDetailValueUnique from './migrations/0004-dict-detail-value-unique.js';
import * as englishNames from './migrations/0005-english-names.js';
import * as jobs from './migrations/0006-jobs.js';

// Listed here rather than read from a folder, so the compiled server and the tests see the
// same set without touching the file system. Names sort in the order they must run.
const migrations = {
  '0001-app-setting': appSetting,
  '0002-identity': identity,
  '0003-storage-path-index': storagePathIndex,
  '0004-dict-detail-value-unique': dictDetailValueUnique,
  '0005-english-names': englishNames,
  '0006-jobs': jobs,
} satisfies Record<string, Migration>;

export type MigrationName = keyof typeof migrations;

function migratorOf({ db, schema }: AppDatabase): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Without it Kysely looks for its bookkeeping table in every schema and can find another's.
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

export async function migrateToLatest(database: AppDatabase): Promise<string[]> {
  return outcome(await migratorOf(database).migrateToLatest());
}

/** Brings a database to an earlier version, as an install of that version left it (tests of upgrades). */
export async function migrateUpTo(database: AppDatabase, target: MigrationName): Promise<string[]> {
  return outcome(await migratorOf(database).migrateTo(target));
}

function outcome({ error, results = [] }: MigrationResultSet): string[] {
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  return results.map((result) => result.migrationName);
}
