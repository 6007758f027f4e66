import { Migrator, type Migration } from 'kysely';
import type { AppDatabase } from './database.js';
import * as appSetting from './migrations/0001-app-setting.js';
import * as identity from './migrations/0002-identity.js';
import * as storagePathIndex from './migrations/0003-storage-path-index.js';
import * as dictDetailValueUnique from './migrations/0004-dict-detail-value-unique.js';

// Listed here rather than read from a folder, so the compiled server and the tests see the
// same set without touching the file system. Names sort in the order they must run.
const migrations: Record<string, Migration> = {
  '0001-app-setting': appSetting,
  '0002-identity': identity,
  '0003-storage-path-index': storagePathIndex,
  '0004-dict-detail-value-unique': dictDetailValueUnique,
};

export async function migrateToLatest({ db, schema }: AppDatabase): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Without it Kysely looks for its bookkeeping table in every schema and can find another's.
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  return results.map((result) => result.migrationName);
}
